import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Recipients are stored lower-cased (scoping, merging duplicates), but a release must use the
// envelope as received: RFC 5321 lets a local part's case matter. This keeps the original spelling
// of those whose case differs.
export const m0010_envelope_to: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema.alterTable('quarantine_messages').addColumn('envelope_to', 'text').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('quarantine_messages').dropColumn('envelope_to').execute();
  },
};
