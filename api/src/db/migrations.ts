import { sql, type Kysely } from 'kysely';
import type { Migration, MigrationProvider } from 'kysely/migration';
import { m0003_quarantine } from './migration-0003-quarantine';
import { m0004_statistics_retention } from './migration-0004-statistics-retention';
import { m0005_recipient_statistics } from './migration-0005-recipient-statistics';
import { m0006_lz4_bodies } from './migration-0006-lz4-bodies';
import { m0007_rate_limits } from './migration-0007-rate-limits';
import { m0008_message_id_index } from './migration-0008-message-id-index';
import { m0009_admin_history_domain } from './migration-0009-admin-history-domain';
import { m0010_envelope_to } from './migration-0010-envelope-to';
import { m0011_retention_index } from './migration-0011-retention-index';
import { m0012_history_audience } from './migration-0012-history-audience';
import { m0013_administration } from './migration-0013-administration';
import { m0014_rspamd_rules } from './migration-0014-rspamd-rules';
import { m0015_sender_lists } from './migration-0015-sender-lists';
import { m0016_haraka_logs } from './migration-0016-haraka-logs';
import { m0017_notifications } from './migration-0017-notifications';
import { m0018_idn_addresses } from './migration-0018-idn-addresses';
import { m0019_search_fold } from './migration-0019-search-fold';
import { m0020_statistics_tops } from './migration-0020-statistics-tops';
import { m0021_search_attachments_urls } from './migration-0021-search-attachments-urls';
import { m0022_system_rule_patterns_unique } from './migration-0022-system-rule-patterns-unique';
import { m0023_idn_senders } from './migration-0023-idn-senders';
import { m0024_feedback_images_clean } from './migration-0024-feedback-images-clean';
import { m0025_learnings } from './migration-0025-learnings';
import { m0026_history_append_only } from './migration-0026-history-append-only';
import { m0027_user_addresses } from './migration-0027-user-addresses';
import { m0028_oidc } from './migration-0028-oidc';

// One migration set for SQLite and PostgreSQL: only portable types (text, integer, bigint,
// double precision) and constraints. Never edit a released migration; add a new one.
const m0001_core: Migration = {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('domains')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('domains_name_lower', sql`name = lower(name)`)
      .execute();

    await db.schema
      .createTable('users')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('username', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('first_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('last_name', 'text', (c) => c.notNull().defaultTo(''))
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('domain_id', 'text', (c) => c.references('domains.id'))
      .addColumn('is_external', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('is_active', 'integer', (c) => c.notNull().defaultTo(1))
      .addColumn('mfa_enabled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('mfa_secret', 'text')
      .addColumn('date_joined', 'bigint', (c) => c.notNull())
      .addCheckConstraint('users_email_lower', sql`email = lower(email)`)
      .addCheckConstraint('users_role', sql`role in ('admin', 'domain_admin', 'user')`)
      .execute();
    await db.schema.createIndex('users_domain').on('users').column('domain_id').execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('family_id', 'text', (c) => c.notNull())
      .addColumn('refresh_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('rotated_at', 'bigint')
      .addColumn('replaced_by', 'text')
      .addColumn('grace_pair', 'text')
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('sessions_family').on('sessions').column('family_id').execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
    await db.schema.createIndex('sessions_expires').on('sessions').column('expires_at').execute();

    await db.schema
      .createTable('quarantine_messages')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('uuid', 'text', (c) => c.unique())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addColumn('sender', 'text', (c) => c.notNull())
      .addColumn('subject', 'text')
      .addColumn('score', 'double precision')
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('message_id', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('qm_date').on('quarantine_messages').columns(['received_at desc', 'id desc']).execute();

    await db.schema
      .createTable('quarantine_recipients')
      .addColumn('message_id', 'text', (c) => c.notNull().references('quarantine_messages.id').onDelete('cascade'))
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('received_at', 'bigint', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('quarantine_recipients_pk', ['message_id', 'recipient'])
      .addCheckConstraint('qr_status', sql`status in ('pending', 'releasing', 'released', 'release_failed', 'deleted')`)
      .execute();
    // DESIGN §5: "my quarantine" and per-domain lists, keyset on (received_at, id).
    await db.schema
      .createIndex('qr_recipient_date')
      .on('quarantine_recipients')
      .columns(['recipient', 'received_at desc', 'message_id desc'])
      .execute();
    await db.schema
      .createIndex('qr_domain_date')
      .on('quarantine_recipients')
      .columns(['domain', 'received_at desc', 'message_id desc'])
      .execute();

    await db.schema
      .createTable('quarantine_counts')
      .addColumn('scope', 'text', (c) => c.notNull())
      .addColumn('scope_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('n', 'bigint', (c) => c.notNull().defaultTo(0))
      .addPrimaryKeyConstraint('quarantine_counts_pk', ['scope', 'scope_id', 'status'])
      .execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of [
      'quarantine_counts',
      'quarantine_recipients',
      'quarantine_messages',
      'sessions',
      'users',
      'domains',
    ]) {
      await db.schema.dropTable(table).execute();
    }
  },
};

// Issue 3: second factor, profile (e-mail change), preferences, feedback.
const m0002_account: Migration = {
  async up(db: Kysely<unknown>) {
    // mfa_secret holds the enabled TOTP secret, encrypted (AES-256-GCM); the pending one waits for
    // its first code. mfa_last_step: the last accepted TOTP time step (a code is accepted once).
    await db.schema.alterTable('users').addColumn('mfa_pending_secret', 'text').execute();
    await db.schema.alterTable('users').addColumn('mfa_last_step', 'bigint').execute();
    // Usernames are unique case-insensitively (checked by the service: existing rows may repeat one).
    await db.schema
      .createIndex('users_username_lower')
      .on('users')
      .expression(sql`lower(username)`)
      .execute();

    await db.schema
      .createTable('mfa_backup_codes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('code_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();
    await db.schema.createIndex('mfa_backup_codes_user').on('mfa_backup_codes').column('user_id').execute();

    // Partial (second-factor) tokens seen so far: wrong codes counted, used/burned ones refused.
    await db.schema
      .createTable('mfa_partial_tokens')
      .addColumn('jti', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('used_at', 'bigint')
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('mfa_partial_tokens_expires').on('mfa_partial_tokens').column('expires_at').execute();

    await db.schema
      .createTable('email_changes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
      .addColumn('new_email', 'text', (c) => c.notNull())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addCheckConstraint('email_changes_email_lower', sql`new_email = lower(new_email)`)
      .execute();
    await db.schema.createIndex('email_changes_user').on('email_changes').column('user_id').execute();

    await db.schema
      .createTable('user_preferences')
      .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
      .addColumn('theme_mode', 'text', (c) => c.notNull())
      .addColumn('default_page_size', 'integer', (c) => c.notNull())
      .addColumn('updated_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('user_preferences_theme', sql`theme_mode in ('light', 'dark', 'system')`)
      .execute();

    await db.schema
      .createTable('feedback')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('email', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addCheckConstraint('feedback_type', sql`type in ('bug', 'suggestion', 'question', 'other')`)
      .execute();
    await db.schema.createIndex('feedback_date').on('feedback').columns(['created_at desc', 'id desc']).execute();

    // Image bytes live in the database (replicas share them). "bytea" is PostgreSQL's binary type;
    // SQLite accepts the name and stores the Buffer as a BLOB unchanged.
    await db.schema
      .createTable('feedback_images')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('feedback_id', 'text', (c) => c.notNull().references('feedback.id').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('mime', 'text', (c) => c.notNull())
      .addColumn('size', 'bigint', (c) => c.notNull())
      .addColumn('data', 'bytea', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('feedback_images_feedback').on('feedback_images').column('feedback_id').execute();
  },

  async down(db: Kysely<unknown>) {
    for (const table of [
      'feedback_images',
      'feedback',
      'user_preferences',
      'email_changes',
      'mfa_partial_tokens',
      'mfa_backup_codes',
    ]) {
      await db.schema.dropTable(table).execute();
    }
    await db.schema.dropIndex('users_username_lower').execute();
    await db.schema.alterTable('users').dropColumn('mfa_last_step').execute();
    await db.schema.alterTable('users').dropColumn('mfa_pending_secret').execute();
  },
};

const MIGRATIONS: Record<string, Migration> = {
  '0001_core': m0001_core,
  '0002_account': m0002_account,
  '0003_quarantine': m0003_quarantine,
  '0004_statistics_retention': m0004_statistics_retention,
  '0005_recipient_statistics': m0005_recipient_statistics,
  '0006_lz4_bodies': m0006_lz4_bodies,
  '0007_rate_limits': m0007_rate_limits,
  '0008_message_id_index': m0008_message_id_index,
  '0009_admin_history_domain': m0009_admin_history_domain,
  '0010_envelope_to': m0010_envelope_to,
  '0011_retention_index': m0011_retention_index,
  '0012_history_audience': m0012_history_audience,
  '0013_administration': m0013_administration,
  '0014_rspamd_rules': m0014_rspamd_rules,
  '0015_sender_lists': m0015_sender_lists,
  '0016_haraka_logs': m0016_haraka_logs,
  '0017_notifications': m0017_notifications,
  '0018_idn_addresses': m0018_idn_addresses,
  '0019_search_fold': m0019_search_fold,
  '0020_statistics_tops': m0020_statistics_tops,
  '0021_search_attachments_urls': m0021_search_attachments_urls,
  '0022_system_rule_patterns_unique': m0022_system_rule_patterns_unique,
  '0023_idn_senders': m0023_idn_senders,
  '0024_feedback_images_clean': m0024_feedback_images_clean,
  '0025_learnings': m0025_learnings,
  '0026_history_append_only': m0026_history_append_only,
  '0027_user_addresses': m0027_user_addresses,
  '0028_oidc': m0028_oidc,
};

/** In-code provider: nothing is read from disk, so tsx, jest and a bundle all see the same set. */
export const migrationProvider: MigrationProvider = {
  getMigrations: async () => MIGRATIONS,
};
