import { riskLevel } from '@qc/contracts';
import { sql, SqliteAdapter, type RawBuilder } from 'kysely';
import type { Db, DbExecutor } from '../../db/database';
import { insertDailyRollup } from '../../db/migration-0005-recipient-statistics';
import type { DailyScope, QuarantineDailyTable } from '../../db/schema';
import { recipientDomain } from '../../lib/addresses';

export const DAY_MS = 86_400_000;

/** Epoch ms of the UTC midnight that starts the day of `ms`. */
export const utcDay = (ms: number): number => ms - (((ms % DAY_MS) + DAY_MS) % DAY_MS);

export type DailyCounts = Omit<QuarantineDailyTable, 'scope' | 'scope_id' | 'day'>;
export type DailyField = keyof DailyCounts;
export const DAILY_FIELDS: readonly DailyField[] = [
  'quarantined',
  'released',
  'deleted',
  'risk_low',
  'risk_medium',
  'risk_high',
  'risk_critical',
];

export interface DailyRow extends DailyCounts {
  /** Epoch ms of the UTC midnight. */
  day: number;
}

// ---------------------------------------------------------------------------------------------
// Writes: deltas collected by the writer, applied in its transaction (like quarantine_counts).

type DailyKey = `${DailyScope}\u0000${string}\u0000${number}`;
export type DailyDeltas = Map<DailyKey, Partial<DailyCounts>>;

/** The band column of a score (null: Rspamd gave no score, counted in no band). */
export function riskField(score: number | null): DailyField | null {
  const level = riskLevel(score);
  return level ? `risk_${level}` : null;
}

/**
 * Adds `d` to `field` of the day of `at`, for the recipient (lower-cased, as stored in
 * quarantine_recipients), their domain and globally.
 */
export function addDaily(deltas: DailyDeltas, recipient: string, at: number, field: DailyField, d = 1): void {
  const day = utcDay(at);
  const keys = [
    `global\u0000*\u0000${day}`,
    `domain\u0000${recipientDomain(recipient)}\u0000${day}`,
    `recipient\u0000${recipient}\u0000${day}`,
  ] as DailyKey[];
  for (const key of keys) {
    const row = deltas.get(key) ?? {};
    row[field] = (row[field] ?? 0) + d;
    deltas.set(key, row);
  }
}

/** Rows per multi-row upsert: 10 parameters a row, far below both databases' limits. */
const DAILY_BATCH = 500;

/** On conflict, each count adds the new row's (negative for a status taken back). */
const ADD_EXCLUDED = Object.fromEntries(
  DAILY_FIELDS.map((f) => [f, sql`${sql.ref(`quarantine_daily.${f}`)} + ${sql.ref(`excluded.${f}`)}`]),
) as Record<DailyField, RawBuilder<number>>;

/**
 * Applies rollup deltas inside the caller's transaction in multi-row upserts (a message to many
 * recipients adds a row per recipient and day). Keys in sorted order, after the counters (applied
 * sorted too), so concurrent PostgreSQL writers lock rows in one order.
 */
export async function applyDailyDeltas(trx: DbExecutor, deltas: DailyDeltas): Promise<void> {
  const rows = [...deltas.keys()].sort().flatMap((key) => {
    const delta = deltas.get(key)!;
    if (DAILY_FIELDS.every((f) => !delta[f])) return [];
    const [scope, scope_id, day] = key.split('\u0000') as [DailyScope, string, string];
    const values = Object.fromEntries(DAILY_FIELDS.map((f) => [f, delta[f] ?? 0])) as DailyCounts;
    return [{ scope, scope_id, day: Number(day), ...values }];
  });
  for (let i = 0; i < rows.length; i += DAILY_BATCH) {
    await trx
      .insertInto('quarantine_daily')
      .values(rows.slice(i, i + DAILY_BATCH))
      .onConflict((oc) => oc.columns(['scope', 'scope_id', 'day']).doUpdateSet(ADD_EXCLUDED))
      .execute();
  }
}

// ---------------------------------------------------------------------------------------------
// Reads

// Spelled out: a generic Object.fromEntries per row was 10 % of a 365-day statistics request.
const toDailyRow = (r: Record<string, unknown>): DailyRow => ({
  day: Number(r.day),
  quarantined: Number(r.quarantined ?? 0),
  released: Number(r.released ?? 0),
  deleted: Number(r.deleted ?? 0),
  risk_low: Number(r.risk_low ?? 0),
  risk_medium: Number(r.risk_medium ?? 0),
  risk_high: Number(r.risk_high ?? 0),
  risk_critical: Number(r.risk_critical ?? 0),
});

/** The SQL of dailyForScope (exported for the query-plan test): a primary-key range, ≤ 366 rows. */
export function dailyForScopeQuery(scope: DailyScope, scopeId: string, fromDay: number, toDay: number) {
  return sql<DailyRow>`select day, quarantined, released, deleted, risk_low, risk_medium, risk_high, risk_critical
    from quarantine_daily
    where scope = ${scope} and scope_id = ${scopeId} and day >= ${fromDay} and day <= ${toDay}
    order by day`;
}

/** O(days): the rollup rows of one scope from `fromDay` to `toDay` (UTC midnights, inclusive). */
export async function dailyForScope(
  db: DbExecutor,
  scope: DailyScope,
  scopeId: string,
  fromDay: number,
  toDay: number,
): Promise<DailyRow[]> {
  const { rows } = await dailyForScopeQuery(scope, scopeId, fromDay, toDay).execute(db);
  return rows.map((r) => toDailyRow(r as unknown as Record<string, unknown>));
}

// ---------------------------------------------------------------------------------------------
// Repair

/**
 * Recomputes the dashboard counters (quarantine_counts) and the per-day rollup (quarantine_daily:
 * recipient, domain and global days) from the recipient rows, in one transaction. On PostgreSQL
 * the recipient table is locked in SHARE mode first: writers wait until the rebuild commits, so no
 * change is counted twice or lost.
 */
export async function rebuildStatistics(db: Db): Promise<{ counters: number; days: number }> {
  return db.transaction().execute(async (trx) => {
    if (!(trx.getExecutor().adapter instanceof SqliteAdapter)) {
      await sql`lock table quarantine_recipients in share mode`.execute(trx);
    }
    await trx.deleteFrom('quarantine_counts').execute();
    await sql`insert into quarantine_counts (scope, scope_id, status, n)
      select 'domain', domain, status, count(*) from quarantine_recipients group by domain, status`.execute(trx);
    await sql`insert into quarantine_counts (scope, scope_id, status, n)
      select 'global', '*', status, sum(n) from quarantine_counts where scope = 'domain' group by status`.execute(trx);

    await trx.deleteFrom('quarantine_daily').execute();
    await insertDailyRollup(trx); // migration 0005's backfill: one SQL for both

    const count = async (table: 'quarantine_counts' | 'quarantine_daily') =>
      Number(
        (
          await trx
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { counters: await count('quarantine_counts'), days: await count('quarantine_daily') };
  });
}
