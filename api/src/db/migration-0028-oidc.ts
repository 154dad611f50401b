import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically } from './migration-helpers';

/**
 * Single sign-on with OpenID Connect (issue 32), shared by every api replica:
 * - oidc_flows: a sign-in started at the provider and not back yet, keyed by an HMAC of its `state`
 *   (single use: the callback deletes it), with its nonce, PKCE verifier and an HMAC of the
 *   browser's cookie (a callback from another browser is refused).
 * - sso_tickets: what the callback hands the browser (an HMAC of it), traded once within 60 s for
 *   the usual login answer; mfa_met: the provider's own second factor counts (QC_OIDC_TRUST_MFA).
 */
export const m0028_oidc: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema
        .createTable('oidc_flows')
        .addColumn('state_hash', 'text', (c) => c.primaryKey())
        .addColumn('browser_hash', 'text', (c) => c.notNull())
        .addColumn('nonce', 'text', (c) => c.notNull())
        .addColumn('code_verifier', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('oidc_flows_expires').on('oidc_flows').column('expires_at').execute();
      await db.schema
        .createTable('sso_tickets')
        .addColumn('ticket_hash', 'text', (c) => c.primaryKey())
        .addColumn('browser_hash', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('mfa_met', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('sso_tickets_expires').on('sso_tickets').column('expires_at').execute();
    });
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('sso_tickets').execute();
    await db.schema.dropTable('oidc_flows').execute();
  },
};
