import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Retention purges mail received AND stored before its cutoff (received_at comes from the mail
// stack's clock, created_at from ours). The partial index of mail still to purge now holds both,
// so mail whose stack clock ran late (old received_at, recent created_at) is passed over within
// the index, without reading its row, on every batch until it is old enough.
export const m0011_retention_index: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.dropIndex('qm_retention').execute();
    await db.schema
      .createIndex('qm_retention')
      .on('quarantine_messages')
      .columns(['received_at', 'created_at'])
      .where(sql.ref('raw_purged_at'), 'is', null)
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('qm_retention').execute();
    await db.schema
      .createIndex('qm_retention')
      .on('quarantine_messages')
      .column('received_at')
      .where(sql.ref('raw_purged_at'), 'is', null)
      .execute();
  },
};
