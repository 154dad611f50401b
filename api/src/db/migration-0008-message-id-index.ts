import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** Characters of the Message-ID the index keeps (a B-tree entry is bounded: 2,704 bytes on PostgreSQL). */
export const MESSAGE_ID_INDEXED_CHARS = 200;

// The quarantine search finds a message by its Message-ID header (pasted from a bounce or a user's
// report): an exact match. The header is the sender's and may be up to 998 characters of any script,
// so the index holds its first 200 characters (at most 800 bytes), and the query compares the whole.
export const m0008_message_id_index: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createIndex('qm_message_id')
      .on('quarantine_messages')
      .expression(sql`substr(message_id, 1, ${sql.lit(MESSAGE_ID_INDEXED_CHARS)})`)
      .execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('qm_message_id').execute();
  },
};
