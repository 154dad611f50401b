import { unescapeControlChars, type LogSeverity } from '@qc/contracts';
import { sql, type SqlBool } from 'kysely';
import type { Db, DbExecutor, Dialect } from '../../db/database';
import type { HarakaLogCountsTable, HarakaLogsTable } from '../../db/schema';
import { DAY_MS, utcDay } from '../statistics/statistics.repository';

export type LogRow = HarakaLogsTable;
type CountDim = HarakaLogCountsTable['dim'];

/** Rows per insert statement: 9 parameters each, far below both dialects' limits. */
const ROWS_PER_STATEMENT = 500;

const chunks = <T>(items: T[], size: number): T[][] => {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
};

/** The rollup increments of the stored lines: one per line and dimension. */
function rollupDeltas(rows: LogRow[]): HarakaLogCountsTable[] {
  const deltas = new Map<string, HarakaLogCountsTable>();
  const add = (dim: CountDim, day: number, key: string, severity: LogSeverity) => {
    const id = `${dim}\n${day}\n${key}\n${severity}`;
    const entry = deltas.get(id);
    if (entry) entry.n++;
    else deltas.set(id, { dim, day, key, severity, n: 1 });
  };
  for (const row of rows) {
    const day = utcDay(row.ts);
    add('day', day, '', row.severity);
    add('hour', day, String(Math.floor((row.ts - day) / 3_600_000)).padStart(2, '0'), row.severity);
    add('host', day, row.hostname, row.severity);
    add('origin', day, row.origin ?? '', row.severity);
  }
  // A fixed order: two concurrent ingests lock the rollup rows in the same order (no deadlock).
  return [...deltas.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, v]) => v);
}

/**
 * Stores lines not seen before (line_key) and adds them to the rollups, in one transaction.
 * Returns how many were new.
 */
export async function insertLogLines(db: Db, rows: LogRow[]): Promise<number> {
  if (!rows.length) return 0;
  return db.transaction().execute(async (trx) => {
    const byId = new Map(rows.map((r) => [r.id, r]));
    const stored: LogRow[] = [];
    for (const batch of chunks(rows, ROWS_PER_STATEMENT)) {
      const inserted = await trx
        .insertInto('haraka_logs')
        .values(batch)
        .onConflict((oc) => oc.column('line_key').doNothing())
        .returning('id')
        .execute();
      for (const { id } of inserted) stored.push(byId.get(id)!);
    }
    for (const batch of chunks(rollupDeltas(stored), ROWS_PER_STATEMENT)) {
      await trx
        .insertInto('haraka_log_counts')
        .values(batch)
        .onConflict((oc) =>
          oc.columns(['dim', 'day', 'key', 'severity']).doUpdateSet({ n: sql`haraka_log_counts.n + excluded.n` }),
        )
        .execute();
    }
    return stored.length;
  });
}

export interface LogFilter {
  /** Inclusive bounds, epoch ms. */
  from: number;
  to: number;
  severities?: LogSeverity[] | undefined;
  hostname?: string | undefined;
  /** Upper case: a connection uuid (its transactions too) or a transaction's. */
  uuid?: string | undefined;
  q?: string | undefined;
}

const likePattern = (q: string) => `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** A message containing `q` (SQLite: LIKE, ASCII case-insensitive; PostgreSQL: ILIKE, on the trigram index). */
const messageContains = (dialect: Dialect, q: string) =>
  dialect === 'sqlite'
    ? sql<SqlBool>`message like ${likePattern(q)} escape '\\'`
    : sql<SqlBool>`message ilike ${likePattern(q)}`;

/**
 * `q` as typed, or as the page shows control characters (`\r\n`, `\x1b`: the escaped form stands
 * for the raw character, kept as received): a line containing either is found.
 */
function messageMatches(dialect: Dialect, q: string) {
  const raw = unescapeControlChars(q);
  return raw === q
    ? messageContains(dialect, q)
    : sql<SqlBool>`(${messageContains(dialect, q)} or ${messageContains(dialect, raw)})`;
}

/** The connection part of a Haraka uuid (`<connection>.<n>` → `<connection>`). */
export const connectionOf = (uuid: string) => uuid.split('.')[0]!;

/**
 * One page of the windowed search, newest first, keyset on (ts, id) (exported for the query-plan
 * test). Every condition is bounded by the window on ts; `q` is a LIKE within it (messageMatches).
 */
export function searchLogsQuery(
  db: DbExecutor,
  dialect: Dialect,
  f: LogFilter,
  after: { ts: number; id: string } | null,
  limit: number,
) {
  return db
    .selectFrom('haraka_logs')
    .select(['id', 'ts', 'severity', 'hostname', 'uuid', 'origin', 'message'])
    .where('ts', '>=', f.from)
    .where('ts', '<=', f.to)
    .$if(!!f.severities?.length, (qb) => qb.where('severity', 'in', f.severities!))
    .$if(f.hostname !== undefined, (qb) => qb.where('hostname', '=', f.hostname!))
    .$if(f.uuid !== undefined, (qb) =>
      f.uuid!.includes('.')
        ? qb.where('conn_uuid', '=', connectionOf(f.uuid!)).where('uuid', '=', f.uuid!)
        : qb.where('conn_uuid', '=', f.uuid!),
    )
    .$if(f.q !== undefined, (qb) => qb.where(messageMatches(dialect, f.q!)))
    .$if(after !== null, (qb) =>
      qb.where((eb) => eb.or([eb('ts', '<', after!.ts), eb.and([eb('ts', '=', after!.ts), eb('id', '<', after!.id)])])),
    )
    .orderBy('ts', 'desc')
    .orderBy('id', 'desc')
    .limit(limit);
}

/**
 * The lines of a connection (with its transactions') or of one transaction, oldest first
 * (exported for the query-plan test).
 */
export function uuidLogsQuery(db: DbExecutor, uuid: string, limit: number) {
  return db
    .selectFrom('haraka_logs')
    .select(['id', 'ts', 'severity', 'hostname', 'uuid', 'origin', 'message'])
    .where('conn_uuid', '=', connectionOf(uuid))
    .$if(uuid.includes('.'), (qb) => qb.where('uuid', '=', uuid))
    .orderBy('ts')
    .orderBy('id')
    .limit(limit);
}

/** The Haraka uuid a quarantined e-mail was received under (undefined: no such e-mail, or none stored). */
export async function uuidOfEmail(db: DbExecutor, emailId: string): Promise<string | undefined> {
  const row = await db.selectFrom('quarantine_messages').select('uuid').where('id', '=', emailId).executeTakeFirst();
  return row?.uuid ?? undefined;
}

/** The quarantined e-mail of each transaction uuid: its own uuid, or a retry's matched to it. */
export async function emailIdsByUuid(db: DbExecutor, uuids: string[]): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  if (!uuids.length) return found;
  const own = await db.selectFrom('quarantine_messages').select(['id', 'uuid']).where('uuid', 'in', uuids).execute();
  for (const r of own) if (r.uuid) found.set(r.uuid.toUpperCase(), r.id);
  const retries = await db
    .selectFrom('quarantine_message_uuids')
    .select(['uuid', 'message_id'])
    .where('uuid', 'in', uuids)
    .execute();
  for (const r of retries) if (!found.has(r.uuid.toUpperCase())) found.set(r.uuid.toUpperCase(), r.message_id);
  return found;
}

export async function existingMessageIds(db: DbExecutor, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.selectFrom('quarantine_messages').select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((r) => r.id));
}

/** Rollup totals of one dimension over [fromDay, toDay] (UTC midnights), per key and severity. */
export function countsQuery(db: DbExecutor, dim: CountDim, fromDay: number, toDay: number, groupByDay: boolean) {
  return db
    .selectFrom('haraka_log_counts')
    .select(['key', 'severity', (eb) => eb.fn.sum<string | number>('n').as('n')])
    .$if(groupByDay, (qb) => qb.select('day').groupBy('day'))
    .where('dim', '=', dim)
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay)
    .groupBy(['key', 'severity']);
}

export async function readCounts(db: DbExecutor, dim: CountDim, fromDay: number, toDay: number, byDay = false) {
  const rows = await countsQuery(db, dim, fromDay, toDay, byDay).execute();
  return rows.map((r) => ({
    day: Number((r as { day?: unknown }).day ?? 0),
    key: r.key,
    severity: r.severity,
    n: Number(r.n),
  }));
}

/**
 * The per-day series as kept: one row per day and severity, read in the primary key's order (dim,
 * day, key, severity) with nothing to group or sort (exported for the plan test).
 */
export function dayCountsQuery(db: DbExecutor, fromDay: number, toDay: number) {
  return db
    .selectFrom('haraka_log_counts')
    .select(['day', 'severity', 'n'])
    .where('dim', '=', 'day')
    .where('day', '>=', fromDay)
    .where('day', '<=', toDay);
}

export async function readDayCounts(db: DbExecutor, fromDay: number, toDay: number) {
  const rows = await dayCountsQuery(db, fromDay, toDay).execute();
  return rows.map((r) => ({ day: Number(r.day), severity: r.severity, n: Number(r.n) }));
}

/** Deletes up to `limit` of the oldest lines logged before `cutoff` (exported query for the plan test). */
export function oldLinesQuery(cutoff: number, limit: number) {
  return sql<{ id: string }>`select id from haraka_logs where ts < ${cutoff} order by ts limit ${limit}`;
}

export async function purgeLogLinesBatch(db: DbExecutor, cutoff: number, limit: number): Promise<number> {
  const result = await sql`delete from haraka_logs where id in (${oldLinesQuery(cutoff, limit)})`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Rollup rows of days before `cutoffDay` (a few thousand a year: one statement). */
export async function purgeLogCounts(db: DbExecutor, cutoffDay: number): Promise<number> {
  const result = await db.deleteFrom('haraka_log_counts').where('day', '<', cutoffDay).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export { DAY_MS, utcDay };
