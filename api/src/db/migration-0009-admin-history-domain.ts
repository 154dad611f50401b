import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// History rows were filed under their actor's domain, an admin's too: a domain_admin of that domain
// then read an admin's actions on other domains' mail (their ids, times and IP). An admin's rows
// now belong to no domain; this files the rows written before the same way.
export const m0009_admin_history_domain: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`update history set actor_domain = null where actor_role = 'admin'`.execute(db);
  },

  // Which admin rows had a domain is not kept: nothing to undo, and a null domain is the safe side.
  async down() {},
};
