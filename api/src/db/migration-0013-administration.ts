import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically, isSqlite } from './migration-helpers';

// Issue 16: user and domain administration.
// - users: `mfa_required` (set up two-factor at the next sign-in), `last_login`, when the
//   pending two-factor secret was made (an unconfirmed set-up expires), and when credentials last
//   changed (sign-in challenges issued before are refused). A user created for an
//   invitation has an empty password_hash, which no password matches.
// - user_invitations: the links e-mailed to them (HMAC of the token; single use, expiring).
// - history: administration and security events beside the mail actions, so `email_id` may be
//   null and a row may name a user or domain (`target_*`) and the fields it changed.
export const HISTORY_ACTIONS_0013 = [
  'download',
  'release',
  'delete',
  'user_create',
  'user_update',
  'user_delete',
  'mfa_reset',
  'domain_create',
  'domain_update',
  'domain_delete',
  'login_failed',
  'account_locked',
  'refresh_reuse',
  'totp_replay',
  'mfa_enabled',
  'mfa_disabled',
  'password_changed',
];
export const actionCheck = (actions: string[]) => sql.raw(`action in (${actions.map((a) => `'${a}'`).join(', ')})`);

async function createHistoryIndexes(db: Kysely<unknown>) {
  await db.schema.createIndex('history_date').on('history').columns(['created_at desc', 'id desc']).execute();
  await db.schema
    .createIndex('history_actor_date')
    .on('history')
    .columns(['actor_id', 'created_at desc', 'id desc'])
    .execute();
}

/** SQLite cannot alter a column's NOT NULL or a CHECK: the table is copied into its new shape. */
export async function rebuildSqliteHistory(db: Kysely<unknown>, actions: string[], withTargets: boolean) {
  let table = db.schema
    .createTable('history_next')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('actor_email', 'text', (c) => c.notNull())
    .addColumn('actor_role', 'text', (c) => c.notNull())
    .addColumn('actor_domain', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('email_id', 'text', (c) => (withTargets ? c : c.notNull()))
    .addColumn('result', 'text', (c) => c.notNull())
    .addColumn('code', 'text')
    .addColumn('ip_address', 'text');
  if (withTargets) {
    table = table
      .addColumn('target_kind', 'text')
      .addColumn('target_id', 'text')
      .addColumn('target_label', 'text')
      .addColumn('changes', 'text');
  }
  await table
    .addCheckConstraint('history_action', actionCheck(actions))
    .addCheckConstraint('history_result', sql`result in ('success', 'failure')`)
    .execute();
  const columns = sql.raw(
    'id, created_at, actor_id, actor_email, actor_role, actor_domain, action, email_id, result, code, ip_address',
  );
  // Going down, only the mail actions fit the old shape; the others are dropped with their readers.
  const keep = withTargets ? sql`` : sql`where email_id is not null and ${actionCheck(actions)}`;
  await sql`insert into history_next (${columns}) select ${columns} from history ${keep}`.execute(db);
  if (!withTargets) {
    await sql`delete from history_audience where history_id not in (select id from history_next)`.execute(db);
  }
  await db.schema.dropTable('history').execute();
  await db.schema.alterTable('history_next').renameTo('history').execute();
  await createHistoryIndexes(db);
}

export const m0013_administration: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema
        .alterTable('users')
        .addColumn('mfa_required', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable('users').addColumn('last_login', 'bigint').execute();
      await db.schema.alterTable('users').addColumn('mfa_pending_at', 'bigint').execute();
      await db.schema.alterTable('users').addColumn('credentials_at', 'bigint').execute();
      // The admin list pages by e-mail (the unique index) or by date joined; a domain_admin's by
      // their domain first. Search is a prefix of lower(first/last name) (username and e-mail have theirs).
      await db.schema.createIndex('users_date_joined').on('users').columns(['date_joined', 'id']).execute();
      await db.schema.dropIndex('users_domain').execute();
      await db.schema.createIndex('users_domain_email').on('users').columns(['domain_id', 'email']).execute();
      await db.schema
        .createIndex('users_domain_date_joined')
        .on('users')
        .columns(['domain_id', 'date_joined', 'id'])
        .execute();
      await db.schema
        .createIndex('users_first_name_lower')
        .on('users')
        .expression(sql`lower(first_name)`)
        .execute();
      await db.schema
        .createIndex('users_last_name_lower')
        .on('users')
        .expression(sql`lower(last_name)`)
        .execute();

      await db.schema
        .createTable('user_invitations')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('expires_at', 'bigint', (c) => c.notNull())
        .addColumn('used_at', 'bigint')
        .execute();
      await db.schema.createIndex('user_invitations_user').on('user_invitations').column('user_id').execute();

      if (isSqlite(db)) {
        await rebuildSqliteHistory(db, HISTORY_ACTIONS_0013, true);
      } else {
        await sql`alter table history drop constraint history_action`.execute(db);
        await sql`alter table history add constraint history_action check (${actionCheck(HISTORY_ACTIONS_0013)})`.execute(
          db,
        );
        await sql`alter table history alter column email_id drop not null`.execute(db);
        for (const column of ['target_kind', 'target_id', 'target_label', 'changes']) {
          await db.schema.alterTable('history').addColumn(column, 'text').execute();
        }
      }
    });
  },

  async down(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      const mailActions = ['download', 'release', 'delete'];
      if (isSqlite(db)) {
        await rebuildSqliteHistory(db, mailActions, false);
      } else {
        await sql`delete from history_audience where history_id in
          (select id from history where email_id is null or not (${actionCheck(mailActions)}))`.execute(db);
        await sql`delete from history where email_id is null or not (${actionCheck(mailActions)})`.execute(db);
        for (const column of ['target_kind', 'target_id', 'target_label', 'changes']) {
          await db.schema.alterTable('history').dropColumn(column).execute();
        }
        await sql`alter table history alter column email_id set not null`.execute(db);
        await sql`alter table history drop constraint history_action`.execute(db);
        await sql`alter table history add constraint history_action check (${actionCheck(mailActions)})`.execute(db);
      }
      await db.schema.dropTable('user_invitations').execute();
      for (const index of [
        'users_last_name_lower',
        'users_first_name_lower',
        'users_domain_date_joined',
        'users_domain_email',
        'users_date_joined',
      ]) {
        await db.schema.dropIndex(index).execute();
      }
      await db.schema.createIndex('users_domain').on('users').column('domain_id').execute();
      await db.schema.alterTable('users').dropColumn('credentials_at').execute();
      await db.schema.alterTable('users').dropColumn('mfa_pending_at').execute();
      await db.schema.alterTable('users').dropColumn('last_login').execute();
      await db.schema.alterTable('users').dropColumn('mfa_required').execute();
    });
  },
};
