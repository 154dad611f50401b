import { RISK_THRESHOLDS } from '@qc/contracts';
import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically, isSqlite } from './migration-helpers';

// A user's statistics read the rollup too: quarantine_daily gets a third scope, 'recipient' (scope_id:
// the lower-cased address). No DDL: the scope column has no CHECK constraint.

const DAY = sql.lit(86_400_000);

function band(lo: number | null, hi: number | null) {
  const conditions = [
    ...(lo === null ? [] : [sql`m.score >= ${sql.lit(lo)}`]),
    ...(hi === null ? [] : [sql`m.score < ${sql.lit(hi)}`]),
  ];
  return sql`case when ${sql.join(conditions, sql` and `)} then 1 else 0 end`;
}

/**
 * Fills an empty quarantine_daily from the recipient rows: every recipient, domain and global day.
 * The backfill of this migration and the repair job (rebuildStatistics) both run it, so it may use
 * only the schema as of 0005: if the rollup's columns change, give the repair job its own copy.
 * One scan: the rows are summed per (recipient, domain, day) once, then per scope.
 */
export async function insertDailyRollup(db: QueryExecutorProvider): Promise<void> {
  const { medium, high, critical } = RISK_THRESHOLDS;
  const sums = (key: string) =>
    sql`${sql.raw(key)}, day, sum(q), sum(rel), sum(del), sum(lo), sum(me), sum(hi), sum(cr)`;
  await sql`with t as (
      select recipient, domain, day, sum(q) as q, sum(rel) as rel, sum(del) as del,
        sum(lo) as lo, sum(me) as me, sum(hi) as hi, sum(cr) as cr
      from (
        select r.recipient, r.domain, r.received_at - r.received_at % ${DAY} as day, 1 as q, 0 as rel, 0 as del,
          ${band(null, medium)} as lo, ${band(medium, high)} as me, ${band(high, critical)} as hi,
          ${band(critical, null)} as cr
        from quarantine_recipients r join quarantine_messages m on m.id = r.message_id
        union all
        select u.recipient, u.domain, u.updated_at - u.updated_at % ${DAY}, 0,
          case when u.status = 'released' then 1 else 0 end, case when u.status = 'deleted' then 1 else 0 end,
          0, 0, 0, 0
        from quarantine_recipients u where u.status in ('released', 'deleted')
      ) x
      group by recipient, domain, day
    )
    insert into quarantine_daily
      (scope, scope_id, day, quarantined, released, deleted, risk_low, risk_medium, risk_high, risk_critical)
    select 'recipient', ${sums('recipient')} from t group by recipient, day
    union all
    select 'domain', ${sums('domain')} from t group by domain, day
    union all
    select 'global', ${sums("'*'")} from t group by day`.execute(db);
}

export const m0005_recipient_statistics: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      // The whole rollup is recomputed (the same as `stats:rebuild`): the global and domain days come
      // out as they were, unless they had drifted. PostgreSQL: writers wait, none is lost or doubled.
      if (!isSqlite(db)) await sql`lock table quarantine_recipients in share mode`.execute(db);
      await sql`delete from quarantine_daily`.execute(db);
      await insertDailyRollup(db);
    });
  },

  async down(db: Kysely<unknown>) {
    await sql`delete from quarantine_daily where scope = 'recipient'`.execute(db);
  },
};
