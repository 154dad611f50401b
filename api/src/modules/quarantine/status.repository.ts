import { sql } from 'kysely';
import type { Db, DbExecutor } from '../../db/database';
import type { DeliveryOutcome, RecipientStatus } from '../../db/schema';
import { newId } from '../../lib/ids';
import { insertHistory, readerKey, type MailHistoryRow } from '../history/history.repository';
import { addDaily, applyDailyDeltas, type DailyDeltas } from '../statistics/statistics.repository';
import { addDelta, applyCountDeltas, DAILY_OF, type CountDeltas } from './quarantine-counters';
import { byMessageScope, chunks, isSqlite, scopeSql, type Scope } from './quarantine-scope';

type HistoryRow = MailHistoryRow;

// History of mail actions.

/** Whether this actor had this refusal of this action on this e-mail recorded since `since`. */
export async function refusedSince(db: DbExecutor, row: HistoryRow, since: number): Promise<boolean> {
  if (!row.actor_id) return false;
  const found = await db
    .selectFrom('history')
    .select('id')
    .where('actor_id', '=', row.actor_id)
    .where('created_at', '>=', since)
    .where('email_id', '=', row.email_id)
    .where('action', '=', row.action)
    .where('code', '=', row.code)
    .executeTakeFirst();
  return !!found;
}

/**
 * Appends an audit row with its readers: its actor, the actor's domain, and the addresses and
 * domains of the recipients of that mail within the actor's scope (those the action was about).
 */
export async function recordHistory(db: DbExecutor, row: HistoryRow, scope: Scope): Promise<void> {
  const { rows } = await sql<{ recipient: string; domain: string }>`select recipient, domain
    from quarantine_recipients r
    where r.message_id = ${row.email_id} and ${scopeSql(scope, 'r', isSqlite(db))}`.execute(db);
  const readers = new Set<string>();
  if (row.actor_id) readers.add(readerKey.user(row.actor_id));
  if (row.actor_domain) readers.add(readerKey.domain(row.actor_domain));
  for (const r of rows) {
    readers.add(readerKey.address(r.recipient));
    readers.add(readerKey.domain(r.domain));
  }
  await insertHistory(db, row, [...readers]);
}

// Status changes: compare-and-set per source status, counters and history in the same transaction.

/** Moves the caller's rows of one message from each of `from` to `to`; returns the rows moved. */
async function moveScoped(
  trx: DbExecutor,
  messageId: string,
  scope: Scope,
  from: { status: RecipientStatus; staleBefore?: number }[],
  to: RecipientStatus,
  now: number,
  deliveryId: string | null | undefined,
  deltas: CountDeltas,
  daily: DailyDeltas,
): Promise<{ recipient: string; domain: string }[]> {
  // Sources are never released/deleted (terminal), so no day has to be taken back.
  const field = DAILY_OF[to];
  const moved: { recipient: string; domain: string }[] = [];
  for (const source of from) {
    let query = trx
      .updateTable('quarantine_recipients')
      .set(
        deliveryId === undefined
          ? { status: to, updated_at: now }
          : { status: to, updated_at: now, delivery_id: deliveryId },
      )
      .where('message_id', '=', messageId)
      .where('status', '=', source.status)
      .where(byMessageScope(trx, scope));
    if (source.staleBefore !== undefined) query = query.where('updated_at', '<', source.staleBefore);
    const rows = await query.returning(['recipient', 'domain']).execute();
    for (const r of rows) {
      addDelta(deltas, r.domain, source.status, -1);
      addDelta(deltas, r.domain, to, 1);
      if (field) addDaily(daily, r.recipient, now, field);
      moved.push(r);
    }
  }
  return moved;
}

export interface ClaimInput {
  messageId: string;
  scope: Scope;
  /** Source statuses; `staleBefore` on 'releasing' takes over claims older than that. */
  from: { status: RecipientStatus; staleBefore?: number }[];
  actorId: string;
  actorEmail: string;
  now: number;
}

/**
 * Claims the caller's releasable rows of a message for one delivery attempt (status → releasing,
 * delivery_id → the attempt). Compare-and-set: of two racing calls, the rows go to one; the other
 * claims nothing. Returns the attempt's id and the claimed rows (none: nothing was written).
 */
export async function claimForRelease(
  db: Db,
  input: ClaimInput,
): Promise<{ deliveryId: string; claimed: { recipient: string; domain: string }[] }> {
  const deliveryId = newId(input.now);
  const empty = Symbol('nothing claimed');
  try {
    return await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('quarantine_deliveries')
        .values({
          id: deliveryId,
          message_id: input.messageId,
          actor_id: input.actorId,
          actor_email: input.actorEmail,
          started_at: input.now,
          finished_at: null,
          outcome: 'in_progress',
          response: null,
          accepted: '[]',
          rejected: '[]',
        })
        .execute();
      const deltas: CountDeltas = new Map();
      const claimed = await moveScoped(
        trx,
        input.messageId,
        input.scope,
        input.from,
        'releasing',
        input.now,
        deliveryId,
        deltas,
        new Map(), // releasing is not a statistic
      );
      if (!claimed.length) throw empty; // rolls the attempt row back
      await applyCountDeltas(trx, deltas);
      return { deliveryId, claimed };
    });
  } catch (err) {
    if (err === empty) return { deliveryId, claimed: [] };
    throw err;
  }
}

export interface FinishInput {
  messageId: string;
  deliveryId: string;
  outcome: DeliveryOutcome;
  response: string | null;
  accepted: string[];
  rejected: string[];
  /** New status of each claimed recipient still held by this attempt. */
  statusOf: (recipient: string) => RecipientStatus;
  claimed: string[];
  now: number;
  history: HistoryRow;
  /** The releaser's scope: whose mail the history row is about. */
  scope: Scope;
}

/**
 * Records a delivery attempt's outcome on the attempt, the recipient rows it still holds, the
 * counters, the day's statistics and the history.
 */
export async function finishRelease(db: Db, input: FinishInput): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const finished = await trx
      .updateTable('quarantine_deliveries')
      .set({
        outcome: input.outcome,
        finished_at: input.now,
        response: input.response,
        accepted: JSON.stringify(input.accepted),
        rejected: JSON.stringify(input.rejected),
      })
      .where('id', '=', input.deliveryId)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    // Already recorded: a retry after a commit whose answer was lost (the connection dropped).
    if (!Number(finished.numUpdatedRows)) return;
    const byStatus = new Map<RecipientStatus, string[]>();
    for (const r of input.claimed) {
      const s = input.statusOf(r);
      byStatus.set(s, [...(byStatus.get(s) ?? []), r]);
    }
    const deltas: CountDeltas = new Map();
    const daily: DailyDeltas = new Map();
    for (const [to, recipients] of byStatus) {
      const field = DAILY_OF[to];
      // One status for all: no address list needed (the claim token selects the rows).
      const groups = byStatus.size === 1 ? [null] : chunks(recipients);
      for (const group of groups) {
        let query = trx
          .updateTable('quarantine_recipients')
          .set({ status: to, updated_at: input.now })
          .where('message_id', '=', input.messageId)
          .where('delivery_id', '=', input.deliveryId)
          .where('status', '=', 'releasing');
        if (group) query = query.where('recipient', 'in', group);
        const rows = await query.returning(['recipient', 'domain']).execute();
        for (const r of rows) {
          addDelta(deltas, r.domain, 'releasing', -1);
          addDelta(deltas, r.domain, to, 1);
          if (field) addDaily(daily, r.recipient, input.now, field);
        }
      }
    }
    await applyCountDeltas(trx, deltas);
    await applyDailyDeltas(trx, daily);
    await recordHistory(trx, input.history, input.scope);
  });
}

/**
 * Soft delete: the caller's held rows (pending, release_failed, release_unknown, and claims older
 * than `staleBefore`, shown as release_unknown: a release whose process died) → deleted, with the
 * counters, the day's statistics and (when a row moved) the history row, in one transaction.
 * Returns how many rows moved.
 */
export async function softDelete(
  db: Db,
  messageId: string,
  scope: Scope,
  now: number,
  staleBefore: number,
  history: HistoryRow,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const deltas: CountDeltas = new Map();
    const daily: DailyDeltas = new Map();
    const moved = await moveScoped(
      trx,
      messageId,
      scope,
      [
        { status: 'pending' },
        { status: 'release_failed' },
        { status: 'release_unknown' },
        { status: 'releasing', staleBefore },
      ],
      'deleted',
      now,
      undefined,
      deltas,
      daily,
    );
    await applyCountDeltas(trx, deltas);
    await applyDailyDeltas(trx, daily);
    if (moved.length) await recordHistory(trx, history, scope);
    return moved.length;
  });
}

/**
 * Moves one recipient row from `from` to `to` (compare-and-set, so two racing callers cannot both
 * succeed) and keeps the counters and the statistics in the same transaction. Returns whether the
 * row moved.
 */
export async function transitionRecipient(
  db: Db,
  messageId: string,
  recipient: string,
  from: RecipientStatus,
  to: RecipientStatus,
  now = Date.now(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = trx
      .selectFrom('quarantine_recipients')
      .where('message_id', '=', messageId)
      .where('recipient', '=', recipient)
      .where('status', '=', from);
    // Leaving released/deleted takes the row back from the day it was counted on.
    const before = DAILY_OF[from] ? await row.select('updated_at').executeTakeFirst() : undefined;
    const moved = await trx
      .updateTable('quarantine_recipients')
      .set({ status: to, updated_at: now })
      .where('message_id', '=', messageId)
      .where('recipient', '=', recipient)
      .where('status', '=', from)
      .returning(['recipient', 'domain'])
      .executeTakeFirst();
    if (!moved) return false;
    const deltas: CountDeltas = new Map();
    addDelta(deltas, moved.domain, from, -1);
    addDelta(deltas, moved.domain, to, 1);
    const daily: DailyDeltas = new Map();
    if (before && DAILY_OF[from]) addDaily(daily, moved.recipient, Number(before.updated_at), DAILY_OF[from], -1);
    if (DAILY_OF[to]) addDaily(daily, moved.recipient, now, DAILY_OF[to]);
    await applyCountDeltas(trx, deltas);
    await applyDailyDeltas(trx, daily);
    return true;
  });
}
