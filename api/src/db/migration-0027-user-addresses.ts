import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically } from './migration-helpers';

/**
 * Directory sign-in and several addresses per user (issue 31).
 * - users.source: where the account comes from (`local`, `ldap`, `oidc`); external_id: the
 *   directory's name for the person (an LDAP DN), unique per source.
 * - user_addresses: every address whose mail is the user's, the primary (users.email) at position
 *   0. The address is the key: one owner per address, whatever the account's source. Existing
 *   users get their e-mail as their one address.
 */
export const m0027_user_addresses: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema
        .alterTable('users')
        .addColumn('source', 'text', (c) => c.notNull().defaultTo('local'))
        .execute();
      await db.schema.alterTable('users').addColumn('external_id', 'text').execute();
      await db.schema
        .createIndex('users_external_id')
        .on('users')
        .columns(['source', 'external_id'])
        .unique()
        .where(sql.ref('external_id'), 'is not', null)
        .execute();
      await db.schema
        .createTable('user_addresses')
        .addColumn('address', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addCheckConstraint('user_addresses_lower', sql`address = lower(address)`)
        .execute();
      await db.schema
        .createIndex('user_addresses_user')
        .on('user_addresses')
        .columns(['user_id', 'position'])
        .unique()
        .execute();
      await sql`insert into user_addresses (address, user_id, position) select email, id, 0 from users`.execute(db);
    });
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('user_addresses').execute();
    await db.schema.dropIndex('users_external_id').execute();
    await db.schema.alterTable('users').dropColumn('external_id').execute();
    await db.schema.alterTable('users').dropColumn('source').execute();
  },
};
