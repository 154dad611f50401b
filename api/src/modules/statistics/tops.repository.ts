import { sql, SqliteAdapter } from 'kysely';
import type { Db, DbExecutor } from '../../db/database';
import type { DailyScope, TopsKind } from '../../db/schema';
import { recipientDomain } from '../../lib/addresses';
import { utcDay } from './statistics.repository';

/**
 * The "tops" rollup (migration 0020): per scope (global, recipient domain, recipient), UTC day and
 * kind, how many recipient rows each sender, recipient and Rspamd symbol had. Written at ingest in
 * the message's transaction and recomputed by `stats:rebuild`; the statistics page reads only this.
 * Counts are recipient rows (as the daily rollup): a mail to two people counts twice.
 */
export type TopsDeltas = Map<string, number>;

/** The symbols that added to the score (those at 0 fire on nearly every mail and rank nothing). */
export function scoringSymbols(symbolsJson: string | null | undefined): string[] {
  if (!symbolsJson) return [];
  try {
    const parsed: unknown = JSON.parse(symbolsJson);
    if (!Array.isArray(parsed)) return [];
    const names = parsed.flatMap((s: unknown) => {
      const { symbol, score } = (s ?? {}) as { symbol?: unknown; score?: unknown };
      return typeof symbol === 'string' && typeof score === 'number' && score > 0 ? [symbol] : [];
    });
    return [...new Set(names)];
  } catch {
    return [];
  }
}

/** A quarantined message's part of the rollup: for each recipient, its sender, itself and its symbols. */
export function addTops(
  deltas: TopsDeltas,
  msg: { receivedAt: number; sender: string; symbols: string[] },
  recipients: readonly string[],
): void {
  const day = utcDay(msg.receivedAt);
  const sender = msg.sender.trim().toLowerCase();
  for (const r of recipients) {
    const scopes: [DailyScope, string][] = [
      ['global', '*'],
      ['domain', recipientDomain(r)],
      ['recipient', r],
    ];
    const items: [TopsKind, string][] = [
      ['sender', sender],
      ['recipient', r],
      ...msg.symbols.map((s) => ['symbol', s] as [TopsKind, string]),
    ];
    for (const [scope, scopeId] of scopes) {
      for (const [kind, item] of items) {
        const key = [scope, scopeId, kind, day, item].join('\u0000');
        deltas.set(key, (deltas.get(key) ?? 0) + 1);
      }
    }
  }
}

const TOPS_BATCH = 500;

/** Adds the deltas in multi-row upserts, keys in sorted order (concurrent writers lock alike). */
export async function applyTopsDeltas(trx: DbExecutor, deltas: TopsDeltas): Promise<void> {
  const rows = [...deltas.keys()].sort().map((key) => {
    const [scope, scope_id, kind, day, item] = key.split('\u0000') as [DailyScope, string, TopsKind, string, string];
    return { scope, scope_id, kind, day: Number(day), item, n: deltas.get(key)! };
  });
  for (let i = 0; i < rows.length; i += TOPS_BATCH) {
    await trx
      .insertInto('quarantine_tops')
      .values(rows.slice(i, i + TOPS_BATCH))
      .onConflict((oc) =>
        oc
          .columns(['scope', 'scope_id', 'kind', 'day', 'item'])
          .doUpdateSet({ n: sql`${sql.ref('quarantine_tops.n')} + ${sql.ref('excluded.n')}` }),
      )
      .execute();
  }
}

/** Messages read per page while refilling: memory stays one page of deltas. */
const REBUILD_PAGE = 1000;

/**
 * Refills an empty quarantine_tops from the stored messages and their recipient rows, a keyset
 * page of messages at a time, with the same addTops as the ingest (one definition of a count).
 * Reads only columns as of migration 0020. Run by migration 0020 and by `stats:rebuild`.
 */
export async function fillTopsRollup(db: DbExecutor): Promise<void> {
  let after = '';
  for (;;) {
    const messages = await db
      .selectFrom('quarantine_messages')
      .select(['id', 'received_at', 'sender', 'symbols'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(REBUILD_PAGE)
      .execute();
    if (!messages.length) return;
    const recipients = await db
      .selectFrom('quarantine_recipients')
      .select(['message_id', 'recipient'])
      .where(
        'message_id',
        'in',
        messages.map((m) => m.id),
      )
      .execute();
    const byMessage = new Map<string, string[]>();
    for (const r of recipients) byMessage.set(r.message_id, [...(byMessage.get(r.message_id) ?? []), r.recipient]);
    const deltas: TopsDeltas = new Map();
    for (const m of messages) {
      addTops(
        deltas,
        { receivedAt: Number(m.received_at), sender: m.sender, symbols: scoringSymbols(m.symbols) },
        byMessage.get(m.id) ?? [],
      );
    }
    await applyTopsDeltas(db, deltas);
    after = messages[messages.length - 1]!.id;
  }
}

/**
 * `stats:rebuild`: empties and refills the tops in one transaction. On PostgreSQL the recipient
 * table is locked in SHARE mode first (as for the daily rollup): an ingest waits, none is lost or
 * counted twice. Returns the rows written.
 */
export async function rebuildTops(db: Db): Promise<number> {
  return db.transaction().execute(async (trx) => {
    if (!(trx.getExecutor().adapter instanceof SqliteAdapter)) {
      await sql`lock table quarantine_recipients in share mode`.execute(trx);
    }
    await trx.deleteFrom('quarantine_tops').execute();
    await fillTopsRollup(trx);
    const row = await trx
      .selectFrom('quarantine_tops')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  });
}

export interface TopItem {
  key: string;
  count: number;
}

/**
 * The `limit` items of one kind with the most rows over the days (ties by name): a primary-key
 * range (one per scope id: a user's addresses, summed).
 */
export async function topsForScope(
  db: DbExecutor,
  scope: DailyScope,
  scopeId: string | readonly string[],
  kind: TopsKind,
  fromDay: number,
  toDay: number,
  limit: number,
): Promise<TopItem[]> {
  const ids = typeof scopeId === 'string' ? [scopeId] : [...scopeId];
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('quarantine_tops')
    .select((eb) => ['item', eb.fn.sum<number>('n').as('total')])
    .where('scope', '=', scope)
    .where((eb) => (ids.length === 1 ? eb('scope_id', '=', ids[0]!) : eb('scope_id', 'in', ids)))
    .where('kind', '=', kind)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .groupBy('item')
    .orderBy('total', 'desc')
    .orderBy('item')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ key: r.item, count: Number(r.total) }));
}

export interface DomainBreakdown {
  domain: string;
  quarantined: number;
  released: number;
  deleted: number;
}

/** Admins: each recipient domain's counts over the days, from the daily rollup, busiest first. */
export async function domainBreakdown(
  db: DbExecutor,
  fromDay: number,
  toDay: number,
  limit: number,
): Promise<DomainBreakdown[]> {
  const rows = await db
    .selectFrom('quarantine_daily')
    .select((eb) => [
      'scope_id',
      eb.fn.sum<number>('quarantined').as('q'),
      eb.fn.sum<number>('released').as('rel'),
      eb.fn.sum<number>('deleted').as('del'),
    ])
    .where('scope', '=', 'domain')
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .groupBy('scope_id')
    .orderBy('q', 'desc')
    .orderBy('scope_id')
    .limit(limit)
    .execute();
  return rows.map((r) => ({
    domain: r.scope_id,
    quarantined: Number(r.q),
    released: Number(r.rel),
    deleted: Number(r.del),
  }));
}
