import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically } from './migration-helpers';

// Issue 5: per-day statistics (rollup kept in the writers' transaction), retention of raw mail,
// database claims for scheduled jobs. Portable DDL only.

const DAILY_COUNTS = [
  'quarantined',
  'released',
  'deleted',
  'risk_low',
  'risk_medium',
  'risk_high',
  'risk_critical',
] as const;

export const m0004_statistics_retention: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      // One row per scope (global '*', or a recipient domain) and UTC day (epoch ms of its midnight).
      let daily = db.schema
        .createTable('quarantine_daily')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('scope_id', 'text', (c) => c.notNull())
        .addColumn('day', 'bigint', (c) => c.notNull());
      for (const name of DAILY_COUNTS) daily = daily.addColumn(name, 'bigint', (c) => c.notNull().defaultTo(0));
      await daily.addPrimaryKeyConstraint('quarantine_daily_pk', ['scope', 'scope_id', 'day']).execute();

      await db.schema
        .createTable('job_locks')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('locked_until', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('owner', 'text')
        .addColumn('started_at', 'bigint')
        .addColumn('finished_at', 'bigint')
        .addColumn('last_result', 'text')
        .execute();

      // Retention: when the raw bytes and bodies were removed. The partial index holds only the mail
      // still to purge, oldest first, so each purge batch is a short range scan however much was purged.
      await db.schema.alterTable('quarantine_messages').addColumn('raw_purged_at', 'bigint').execute();
      await db.schema
        .createIndex('qm_retention')
        .on('quarantine_messages')
        .column('received_at')
        .where(sql.ref('raw_purged_at'), 'is', null)
        .execute();

      // A user's statistics: their rows released / deleted in a range of days (covering).
      await db.schema
        .createIndex('qr_recipient_status_updated')
        .on('quarantine_recipients')
        .columns(['recipient', 'status', 'updated_at'])
        .execute();

      // Backfill from the rows already stored (bands: low < 5 ≤ medium < 10 ≤ high < 15 ≤ critical).
      await sql`insert into quarantine_daily
          (scope, scope_id, day, quarantined, released, deleted, risk_low, risk_medium, risk_high, risk_critical)
        select 'domain', domain, day, sum(q), sum(rel), sum(del), sum(lo), sum(me), sum(hi), sum(cr) from (
          select r.domain, r.received_at - r.received_at % 86400000 as day, 1 as q, 0 as rel, 0 as del,
            case when m.score < 5 then 1 else 0 end as lo,
            case when m.score >= 5 and m.score < 10 then 1 else 0 end as me,
            case when m.score >= 10 and m.score < 15 then 1 else 0 end as hi,
            case when m.score >= 15 then 1 else 0 end as cr
          from quarantine_recipients r join quarantine_messages m on m.id = r.message_id
          union all
          select r.domain, r.updated_at - r.updated_at % 86400000, 0,
            case when r.status = 'released' then 1 else 0 end, case when r.status = 'deleted' then 1 else 0 end,
            0, 0, 0, 0
          from quarantine_recipients r where r.status in ('released', 'deleted')
        ) t group by domain, day`.execute(db);
      await sql`insert into quarantine_daily
          (scope, scope_id, day, quarantined, released, deleted, risk_low, risk_medium, risk_high, risk_critical)
        select 'global', '*', day, sum(quarantined), sum(released), sum(deleted),
          sum(risk_low), sum(risk_medium), sum(risk_high), sum(risk_critical)
        from quarantine_daily where scope = 'domain' group by day`.execute(db);
    });
  },

  async down(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema.dropIndex('qr_recipient_status_updated').execute();
      await db.schema.dropIndex('qm_retention').execute();
      await db.schema.alterTable('quarantine_messages').dropColumn('raw_purged_at').execute();
      await db.schema.dropTable('job_locks').execute();
      await db.schema.dropTable('quarantine_daily').execute();
    });
  },
};
