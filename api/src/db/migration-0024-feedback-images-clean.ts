import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/**
 * feedback_images.reencoded (issue 21 item 3): 1 for an image stored as the api re-encoded it at
 * upload (metadata and text chunks dropped), served as stored; 0 for one stored before that, which
 * is re-encoded at each download instead. Without it every image was re-encoded at every view of
 * the admin page, on the thread pool sign-ins hash passwords on.
 */
export const m0024_feedback_images_clean: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('feedback_images')
      .addColumn('reencoded', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await sql`alter table feedback_images drop column reencoded`.execute(db);
  },
};
