import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically } from './migration-helpers';

// Issue 20: quarantine notification digests.
// - notification_settings: a user's own choice; no row means the console's defaults.
// - notification_defaults: one row (id 1): what users without their own settings get (admin).
// - digest_sends: one row per (user, kind, period start): the claim that makes one send per
//   period with several runners, then its outcome. `cutoff`: the newest arrival it covered, so
//   the next digest lists only what came after.
// - digest_link_uses: a digest link's id once its POST acted (single use), with the outcome.
export const m0017_notifications: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema
        .createTable('notification_settings')
        .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('frequency', 'text', (c) => c.notNull())
        .addColumn('send_time', 'text', (c) => c.notNull())
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull().defaultTo('fr'))
        .addColumn('domain_digest', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addCheckConstraint(
          'notification_settings_frequency',
          sql`frequency in ('daily', 'weekly', 'monthly', 'never')`,
        )
        .execute();

      await db.schema
        .createTable('notification_defaults')
        .addColumn('id', 'integer', (c) => c.primaryKey())
        .addColumn('enabled', 'integer', (c) => c.notNull())
        .addColumn('frequency', 'text', (c) => c.notNull())
        .addColumn('send_time', 'text', (c) => c.notNull())
        .addColumn('time_zone', 'text', (c) => c.notNull())
        .addColumn('language', 'text', (c) => c.notNull().defaultTo('fr'))
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_by', 'text')
        .addCheckConstraint('notification_defaults_one_row', sql`id = 1`)
        .addCheckConstraint(
          'notification_defaults_frequency',
          sql`frequency in ('daily', 'weekly', 'monthly', 'never')`,
        )
        .execute();

      await db.schema
        .createTable('digest_sends')
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('period_start', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('claimed_by', 'text')
        .addColumn('claimed_at', 'bigint', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('cutoff', 'bigint')
        .addColumn('item_count', 'integer')
        .addColumn('sent_at', 'bigint')
        .addColumn('error', 'text')
        .addPrimaryKeyConstraint('digest_sends_pk', ['user_id', 'kind', 'period_start'])
        .addCheckConstraint('digest_sends_kind', sql`kind in ('user', 'domain')`)
        .addCheckConstraint('digest_sends_status', sql`status in ('sending', 'sent', 'empty', 'failed')`)
        .execute();
      // "The last digest" of a user: newest period first.
      await db.schema
        .createIndex('digest_sends_latest')
        .on('digest_sends')
        .columns(['user_id', 'kind', 'period_start desc'])
        .execute();

      await db.schema
        .createTable('digest_link_uses')
        .addColumn('link_id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('message_id', 'text')
        .addColumn('used_at', 'bigint', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .execute();
    });
  },
  async down(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema.dropTable('digest_link_uses').execute();
      await db.schema.dropTable('digest_sends').execute();
      await db.schema.dropTable('notification_defaults').execute();
      await db.schema.dropTable('notification_settings').execute();
    });
  },
};
