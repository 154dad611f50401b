import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically, isSqlite } from './migration-helpers';

// Issue 19: Haraka's log lines, their rollups, and the uuids of a sender's retries.
// - haraka_logs: one row per shipped line; `line_key` (hostname + the shipper's id) makes a resend
//   idempotent. `conn_uuid` is the connection part of `uuid`, so "a connection and its
//   transactions" is an equality on an index, not a LIKE. Every read is bounded by `ts`.
// - haraka_log_counts: rollups kept at ingest in the same transaction, one small series per
//   dimension (`dim`: day | hour | host | origin), so a 365-day chart reads a few thousand rows
//   instead of the lines (or a day × hour × host × origin cube).
// - quarantine_message_uuids: a retry's uuid matched to a copy stored earlier under another uuid.
export const m0016_haraka_logs: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema
        .createTable('haraka_logs')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('ts', 'bigint', (c) => c.notNull())
        .addColumn('severity', 'text', (c) => c.notNull())
        .addColumn('hostname', 'text', (c) => c.notNull())
        .addColumn('uuid', 'text')
        .addColumn('conn_uuid', 'text')
        .addColumn('origin', 'text')
        .addColumn('message', 'text', (c) => c.notNull())
        .addColumn('line_key', 'text', (c) => c.notNull().unique())
        .addCheckConstraint('haraka_logs_severity', sql`severity in ('INFO', 'NOTICE', 'WARN', 'ERROR')`)
        .execute();
      // The windowed list, newest first (keyset on ts, id), and the retention's oldest-first range.
      await db.schema.createIndex('haraka_logs_ts').on('haraka_logs').columns(['ts desc', 'id desc']).execute();
      // A connection with its transactions (and one transaction: conn_uuid = ? and uuid = ?).
      await db.schema
        .createIndex('haraka_logs_conn')
        .on('haraka_logs')
        .columns(['conn_uuid', 'ts', 'id'])
        .where(sql.ref('conn_uuid'), 'is not', null)
        .execute();
      await db.schema
        .createIndex('haraka_logs_severity')
        .on('haraka_logs')
        .columns(['severity', 'ts desc', 'id desc'])
        .execute();
      await db.schema
        .createIndex('haraka_logs_hostname')
        .on('haraka_logs')
        .columns(['hostname', 'ts desc', 'id desc'])
        .execute();
      if (!isSqlite(db)) {
        // pg_trgm is there since 0003 (which creates it); its operator class is schema-qualified.
        const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
          join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
        if (rows[0]) {
          const ops = sql.raw(`${JSON.stringify(rows[0].schema)}.gin_trgm_ops`);
          await sql`create index haraka_logs_message_trgm on haraka_logs using gin (message ${ops})`.execute(db);
        }
      }

      await db.schema
        .createTable('haraka_log_counts')
        .addColumn('dim', 'text', (c) => c.notNull())
        .addColumn('day', 'bigint', (c) => c.notNull())
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('severity', 'text', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('haraka_log_counts_pk', ['dim', 'day', 'key', 'severity'])
        .addCheckConstraint('haraka_log_counts_dim', sql`dim in ('day', 'hour', 'host', 'origin')`)
        .execute();
      // Retention of the rollups (older than 400 days) by day, whatever the dimension.
      await db.schema.createIndex('haraka_log_counts_day').on('haraka_log_counts').column('day').execute();

      await db.schema
        .createTable('quarantine_message_uuids')
        .addColumn('uuid', 'text', (c) => c.primaryKey())
        .addColumn('message_id', 'text', (c) => c.notNull().references('quarantine_messages.id').onDelete('cascade'))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('quarantine_message_uuids_message')
        .on('quarantine_message_uuids')
        .column('message_id')
        .execute();
    });
  },

  async down(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema.dropTable('quarantine_message_uuids').execute();
      await db.schema.dropTable('haraka_log_counts').execute();
      await db.schema.dropTable('haraka_logs').execute();
    });
  },
};
