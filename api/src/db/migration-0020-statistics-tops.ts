import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { fillTopsRollup } from '../modules/statistics/tops.repository';
import type { Database } from './schema';
import { atomically } from './migration-helpers';

/**
 * Issue 23 #21: the statistics page's top senders, recipients and Rspamd symbols, from a rollup
 * (never a scan of the messages at read time). One row per scope, kind, UTC day and item; the
 * primary key is also the read's range (scope, scope_id, kind, day).
 */
export const m0020_statistics_tops: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema
        .createTable('quarantine_tops')
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('scope_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('day', 'bigint', (c) => c.notNull())
        .addColumn('item', 'text', (c) => c.notNull())
        .addColumn('n', 'bigint', (c) => c.notNull().defaultTo(0))
        .addPrimaryKeyConstraint('quarantine_tops_pk', ['scope', 'scope_id', 'kind', 'day', 'item'])
        .execute();
      // The mail already stored (the same code as `stats:rebuild`).
      await fillTopsRollup(db as unknown as Kysely<Database>);
    });
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('quarantine_tops').execute();
  },
};
