import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { actionCheck, rebuildSqliteHistory } from './migration-0013-administration';
import { HISTORY_ACTIONS_0014 } from './migration-0014-rspamd-rules';
import { atomically, isSqlite } from './migration-helpers';

// Issue 18: whitelists and blacklists per recipient, and learning spam/ham.
// - sender_lists: one entry per owner and address across both kinds (UNIQUE(owner_key, address)):
//   the same address on an owner's other list is refused (list_conflict), not left to chance.
//   owner_key is `user:<id>`, `domain:<id>` or `global`; the user's or domain's entries go with it.
// - rspamd_lists: the row `sender-lists` (the map Rspamd reads), bumped with every change.
// - quarantine_messages: what the console learned from a message (learned_as/at/by).
// - history: learn_spam, learn_ham and the list_* actions.
const NEW_ACTIONS = ['learn_spam', 'learn_ham', 'list_add', 'list_remove', 'list_clear'];
export const HISTORY_ACTIONS_0015 = [...HISTORY_ACTIONS_0014, ...NEW_ACTIONS];

async function setHistoryActions(db: Kysely<unknown>, actions: string[]) {
  if (isSqlite(db)) return rebuildSqliteHistory(db, actions, true);
  await sql`alter table history drop constraint history_action`.execute(db);
  await sql`alter table history add constraint history_action check (${actionCheck(actions)})`.execute(db);
}

const LEARN_COLUMNS = ['learned_as', 'learned_at', 'learned_by'];

export const m0015_sender_lists: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema
        .createTable('sender_lists')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('address', 'text', (c) => c.notNull())
        .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('domain_id', 'text', (c) => c.references('domains.id').onDelete('cascade'))
        .addColumn('owner_key', 'text', (c) => c.notNull())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('created_by_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_by_email', 'text')
        .addCheckConstraint('sender_lists_kind', sql`kind in ('whitelist', 'blacklist')`)
        .addCheckConstraint(
          'sender_lists_owner',
          sql`(scope = 'user' and user_id is not null and domain_id is null and owner_key = 'user:' || user_id)
            or (scope = 'domain' and domain_id is not null and user_id is null and owner_key = 'domain:' || domain_id)
            or (scope = 'global' and user_id is null and domain_id is null and owner_key = 'global')`,
        )
        .addCheckConstraint('sender_lists_address_lower', sql`address = lower(address)`)
        .addUniqueConstraint('sender_lists_owner_address', ['owner_key', 'address'])
        .execute();
      // One owner's list of one kind, newest first (GET /api/lists/).
      await db.schema
        .createIndex('sender_lists_list')
        .on('sender_lists')
        .columns(['owner_key', 'kind', 'created_at desc', 'id desc'])
        .execute();
      // The cascades from users and domains.
      await db.schema.createIndex('sender_lists_user').on('sender_lists').column('user_id').execute();
      await db.schema.createIndex('sender_lists_domain').on('sender_lists').column('domain_id').execute();

      await sql`insert into rspamd_lists (name, version, changed_at) values ('sender-lists', 1, ${Date.now()})`.execute(
        db,
      );

      await db.schema.alterTable('quarantine_messages').addColumn('learned_as', 'text').execute();
      await db.schema.alterTable('quarantine_messages').addColumn('learned_at', 'bigint').execute();
      await db.schema.alterTable('quarantine_messages').addColumn('learned_by', 'text').execute();

      await setHistoryActions(db, HISTORY_ACTIONS_0015);
    });
  },

  async down(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      const gone = sql.raw(NEW_ACTIONS.map((a) => `'${a}'`).join(', '));
      await sql`delete from history_audience where history_id in (select id from history where action in (${gone}))`.execute(
        db,
      );
      await sql`delete from history where action in (${gone})`.execute(db);
      await setHistoryActions(db, HISTORY_ACTIONS_0014);
      for (const column of [...LEARN_COLUMNS].reverse()) {
        await db.schema.alterTable('quarantine_messages').dropColumn(column).execute();
      }
      await sql`delete from rspamd_lists where name = 'sender-lists'`.execute(db);
      await sql`delete from rspamd_map_fetches where list = 'sender-lists'`.execute(db);
      await db.schema.dropTable('sender_lists').execute();
    });
  },
};
