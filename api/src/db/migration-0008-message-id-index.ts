import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// The quarantine search finds a message by its Message-ID header (pasted from a bounce or a user's
// report): an exact match, so a plain index on both databases.
export const m0008_message_id_index: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('qm_message_id').on('quarantine_messages').column('message_id').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('qm_message_id').execute();
  },
};
