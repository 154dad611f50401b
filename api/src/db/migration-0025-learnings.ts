import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically } from './migration-helpers';

/**
 * learnings (issue 29 item 2): one row per message, user and class (spam or ham) that user taught
 * Rspamd from the console: a repeat is answered `already` and never sent again, so alternating
 * spam/ham sends at most two learns per message and user. The row is also the claim that makes two
 * identical calls send once: `learned_at` is null while its learn is being sent (since
 * `claimed_at`), and the row is removed when that learn fails.
 */
export const m0025_learnings: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema
        .createTable('learnings')
        .addColumn('message_id', 'text', (c) => c.notNull().references('quarantine_messages.id').onDelete('cascade'))
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('learned_as', 'text', (c) => c.notNull())
        .addColumn('claimed_at', 'bigint', (c) => c.notNull())
        .addColumn('learned_at', 'bigint')
        .addPrimaryKeyConstraint('learnings_pk', ['message_id', 'user_id', 'learned_as'])
        .addCheckConstraint('learnings_as', sql`learned_as in ('spam', 'ham')`)
        .execute();
      // The cascade from users.
      await db.schema.createIndex('learnings_user').on('learnings').column('user_id').execute();
    });
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('learnings').execute();
  },
};
