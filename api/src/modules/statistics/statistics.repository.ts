import { RISK_THRESHOLDS, riskLevel } from '@qc/contracts';
import { sql, SqliteAdapter, type RawBuilder } from 'kysely';
import type { Db, DbExecutor } from '../../db/database';
import type { CountScope, QuarantineDailyTable } from '../../db/schema';

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

type DailyKey = `${CountScope}\u0000${string}\u0000${number}`;
export type DailyDeltas = Map<DailyKey, Partial<DailyCounts>>;

/** The band column of a score (null: Rspamd gave no score, counted in no band). */
export function riskField(score: number | null): DailyField | null {
  const level = riskLevel(score);
  return level ? `risk_${level}` : null;
}

/** Adds `d` to `field` of the day of `at`, for the recipient's domain and globally. */
export function addDaily(deltas: DailyDeltas, domain: string, at: number, field: DailyField, d = 1): void {
  const day = utcDay(at);
  for (const key of [`global\u0000*\u0000${day}`, `domain\u0000${domain}\u0000${day}`] as DailyKey[]) {
    const row = deltas.get(key) ?? {};
    row[field] = (row[field] ?? 0) + d;
    deltas.set(key, row);
  }
}

/**
 * Applies rollup deltas inside the caller's transaction, keys in sorted order (after the counters,
 * which are applied sorted too) so concurrent PostgreSQL writers lock rows in one order.
 */
export async function applyDailyDeltas(trx: DbExecutor, deltas: DailyDeltas): Promise<void> {
  for (const key of [...deltas.keys()].sort()) {
    const delta = deltas.get(key)!;
    const fields = DAILY_FIELDS.filter((f) => (delta[f] ?? 0) !== 0);
    if (!fields.length) continue;
    const [scope, scope_id, day] = key.split('\u0000') as [CountScope, string, string];
    const values = Object.fromEntries(DAILY_FIELDS.map((f) => [f, delta[f] ?? 0])) as DailyCounts;
    await trx
      .insertInto('quarantine_daily')
      .values({ scope, scope_id, day: Number(day), ...values })
      .onConflict((oc) =>
        oc
          .columns(['scope', 'scope_id', 'day'])
          .doUpdateSet(
            Object.fromEntries(
              fields.map((f) => [f, sql`${sql.ref(`quarantine_daily.${f}`)} + ${delta[f]!}`]),
            ) as Record<DailyField, RawBuilder<number>>,
          ),
      )
      .execute();
  }
}

// ---------------------------------------------------------------------------------------------
// Reads

const toDailyRow = (r: Record<string, unknown>): DailyRow => ({
  day: Number(r.day),
  ...(Object.fromEntries(DAILY_FIELDS.map((f) => [f, Number(r[f] ?? 0)])) as DailyCounts),
});

/** The SQL of dailyForScope (exported for the query-plan test): a primary-key range, ≤ 366 rows. */
export function dailyForScopeQuery(scope: CountScope, scopeId: string, fromDay: number, toDay: number) {
  return sql<DailyRow>`select day, quarantined, released, deleted, risk_low, risk_medium, risk_high, risk_critical
    from quarantine_daily
    where scope = ${scope} and scope_id = ${scopeId} and day >= ${fromDay} and day <= ${toDay}
    order by day`;
}

/** O(days): the rollup rows of one scope from `fromDay` to `toDay` (UTC midnights, inclusive). */
export async function dailyForScope(
  db: DbExecutor,
  scope: CountScope,
  scopeId: string,
  fromDay: number,
  toDay: number,
): Promise<DailyRow[]> {
  const { rows } = await dailyForScopeQuery(scope, scopeId, fromDay, toDay).execute(db);
  return rows.map((r) => toDailyRow(r as unknown as Record<string, unknown>));
}

const band = (score: string, lo: number | null, hi: number | null) => {
  const conditions = [
    ...(lo === null ? [] : [sql`${sql.ref(score)} >= ${sql.lit(lo)}`]),
    ...(hi === null ? [] : [sql`${sql.ref(score)} < ${sql.lit(hi)}`]),
  ];
  return sql`case when ${sql.join(conditions, sql` and `)} then 1 else 0 end`;
};

/** The four band columns (risk_low … risk_critical) of a score column, from the contract's thresholds. */
function bandColumns(score: string) {
  const { medium, high, critical } = RISK_THRESHOLDS;
  return sql`${band(score, null, medium)} as risk_low, ${band(score, medium, high)} as risk_medium,
    ${band(score, high, critical)} as risk_high, ${band(score, critical, null)} as risk_critical`;
}

const dayOf = (column: string) => sql`${sql.ref(column)} - ${sql.ref(column)} % ${sql.lit(DAY_MS)}`;

/**
 * The SQL of dailyForRecipient (exported for the query-plan test): a user's rows received in the
 * range — (recipient, received_at, …) index, each row's score by the message's primary key — and
 * their rows released or deleted in the range — (recipient, status, updated_at) index, covering.
 */
export function dailyForRecipientQuery(address: string, fromDay: number, toDay: number) {
  const end = toDay + DAY_MS;
  return sql<DailyRow>`select day, sum(q) as quarantined, sum(rel) as released, sum(del) as deleted,
      sum(risk_low) as risk_low, sum(risk_medium) as risk_medium, sum(risk_high) as risk_high,
      sum(risk_critical) as risk_critical
    from (
      select ${dayOf('r.received_at')} as day, 1 as q, 0 as rel, 0 as del, ${bandColumns('m.score')}
      from quarantine_recipients r join quarantine_messages m on m.id = r.message_id
      where r.recipient = ${address} and r.received_at >= ${fromDay} and r.received_at < ${end}
      union all
      select ${dayOf('u.updated_at')} as day, 0 as q,
        case when u.status = 'released' then 1 else 0 end as rel,
        case when u.status = 'deleted' then 1 else 0 end as del,
        0 as risk_low, 0 as risk_medium, 0 as risk_high, 0 as risk_critical
      from quarantine_recipients u
      where u.recipient = ${address} and u.status in ('released', 'deleted')
        and u.updated_at >= ${fromDay} and u.updated_at < ${end}
    ) t
    group by day
    order by day`;
}

/** A user's own statistics, computed from their recipient rows (small by nature). */
export async function dailyForRecipient(
  db: DbExecutor,
  address: string,
  fromDay: number,
  toDay: number,
): Promise<DailyRow[]> {
  const { rows } = await dailyForRecipientQuery(address, fromDay, toDay).execute(db);
  return rows.map((r) => toDailyRow(r as unknown as Record<string, unknown>));
}

// ---------------------------------------------------------------------------------------------
// Repair

/**
 * Recomputes the dashboard counters (quarantine_counts) and the per-day rollup (quarantine_daily)
 * from the recipient rows, in one transaction. On PostgreSQL the recipient table is locked in SHARE
 * mode first: writers wait until the rebuild commits, so no change is counted twice or lost.
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
    await sql`insert into quarantine_daily
        (scope, scope_id, day, quarantined, released, deleted, risk_low, risk_medium, risk_high, risk_critical)
      select 'domain', domain, day, sum(q), sum(rel), sum(del),
        sum(risk_low), sum(risk_medium), sum(risk_high), sum(risk_critical)
      from (
        select r.domain, ${dayOf('r.received_at')} as day, 1 as q, 0 as rel, 0 as del, ${bandColumns('m.score')}
        from quarantine_recipients r join quarantine_messages m on m.id = r.message_id
        union all
        select u.domain, ${dayOf('u.updated_at')} as day, 0 as q,
          case when u.status = 'released' then 1 else 0 end as rel,
          case when u.status = 'deleted' then 1 else 0 end as del,
          0 as risk_low, 0 as risk_medium, 0 as risk_high, 0 as risk_critical
        from quarantine_recipients u where u.status in ('released', 'deleted')
      ) t
      group by domain, day`.execute(trx);
    await sql`insert into quarantine_daily
        (scope, scope_id, day, quarantined, released, deleted, risk_low, risk_medium, risk_high, risk_critical)
      select 'global', '*', day, sum(quarantined), sum(released), sum(deleted),
        sum(risk_low), sum(risk_medium), sum(risk_high), sum(risk_critical)
      from quarantine_daily where scope = 'domain' group by day`.execute(trx);

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
