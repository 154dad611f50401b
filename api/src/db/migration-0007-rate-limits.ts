import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Attempt counters (sign-in, second factor, re-authentication, feedback) in the database, so every
// api process and replica shares them. A fixed window per key: `count` attempts since it opened,
// until `window_ends_at` (epoch ms). Portable DDL only.
export const m0007_rate_limits: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('rate_limits')
      .addColumn('key', 'text', (c) => c.primaryKey())
      .addColumn('count', 'integer', (c) => c.notNull())
      .addColumn('window_ends_at', 'bigint', (c) => c.notNull())
      .execute();
    // The prune of expired rows reads only those, however many keys are still counting.
    await db.schema.createIndex('rate_limits_window_ends').on('rate_limits').column('window_ends_at').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('rate_limits').execute();
  },
};
