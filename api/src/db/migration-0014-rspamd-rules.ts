import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { actionCheck, HISTORY_ACTIONS_0013, rebuildSqliteHistory } from './migration-0013-administration';
import { atomically, isSqlite } from './migration-helpers';

// Issue 17: Rspamd rules kept by the console and served to Rspamd as maps.
// - rspamd_filters: the four families (domains, ips, users, special); one rule per value and
//   family (a duplicate or an accept-vs-reject conflict is refused by the unique key).
// - apanel_filters: envelope sender → recipient pairs, owned by the system (null) or a user.
// - system_rules: from/subject/to/ip patterns that must all match.
// - rspamd_lists: one row per list Rspamd fetches, its version bumped with every change
//   (deletes and disables too): Last-Modified of its maps, and what "live" is compared with.
// - rspamd_map_fetches: per map, when Rspamd last fetched it and the list version it got.
// - history: the filter_* actions.
const RULE_ACTIONS = ['filter_create', 'filter_update', 'filter_delete'];
export const HISTORY_ACTIONS_0014 = [...HISTORY_ACTIONS_0013, ...RULE_ACTIONS];
export const RSPAMD_LISTS_0014 = [
  'filters-domains',
  'filters-ips',
  'filters-users',
  'filters-special',
  'apanel-filters',
  'system-rules',
];

const inList = (column: string, values: string[]) =>
  sql.raw(`${column} in (${values.map((v) => `'${v}'`).join(', ')})`);

async function setHistoryActions(db: Kysely<unknown>, actions: string[]) {
  if (isSqlite(db)) return rebuildSqliteHistory(db, actions, true);
  await sql`alter table history drop constraint history_action`.execute(db);
  await sql`alter table history add constraint history_action check (${actionCheck(actions)})`.execute(db);
}

export const m0014_rspamd_rules: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema
        .createTable('rspamd_filters')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('value', 'text', (c) => c.notNull())
        .addColumn('pattern_type', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('created_by_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_by_email', 'text')
        .addCheckConstraint('rspamd_filters_type', inList('type', ['domains', 'ips', 'users', 'special']))
        .addCheckConstraint(
          'rspamd_filters_pattern_type',
          inList('pattern_type', ['exact', 'wildcard', 'regex', 'cidr']),
        )
        .addCheckConstraint('rspamd_filters_action', inList('action', ['reject', 'accept', 'add_header', 'quarantine']))
        .addUniqueConstraint('rspamd_filters_value', ['type', 'value'])
        .execute();
      await db.schema
        .createIndex('rspamd_filters_list')
        .on('rspamd_filters')
        .columns(['type', 'created_at desc', 'id desc'])
        .execute();

      await db.schema
        .createTable('apanel_filters')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('owner_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
        .addColumn('from_pattern', 'text', (c) => c.notNull())
        .addColumn('to_pattern', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('created_by_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_by_email', 'text')
        .addCheckConstraint(
          'apanel_filters_action',
          inList('action', ['reject', 'accept', 'add_header', 'discard', 'quarantine']),
        )
        .addUniqueConstraint('apanel_filters_pair', ['from_pattern', 'to_pattern'])
        .execute();
      await db.schema
        .createIndex('apanel_filters_list')
        .on('apanel_filters')
        .columns(['created_at desc', 'id desc'])
        .execute();
      await db.schema.createIndex('apanel_filters_owner').on('apanel_filters').column('owner_id').execute();

      await db.schema
        .createTable('system_rules')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('from_pattern', 'text')
        .addColumn('subject_pattern', 'text')
        .addColumn('to_pattern', 'text')
        .addColumn('ip_pattern', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('enabled', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        .addColumn('created_by_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('created_by_email', 'text')
        .addCheckConstraint(
          'system_rules_action',
          inList('action', ['reject', 'add_header', 'greylist', 'soft_reject', 'accept']),
        )
        .addCheckConstraint(
          'system_rules_pattern',
          sql`coalesce(from_pattern, subject_pattern, to_pattern, ip_pattern) is not null`,
        )
        .execute();
      await db.schema
        .createIndex('system_rules_list')
        .on('system_rules')
        .columns(['created_at desc', 'id desc'])
        .execute();

      await db.schema
        .createTable('rspamd_lists')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .addColumn('changed_at', 'bigint', (c) => c.notNull())
        .execute();
      const now = Date.now();
      for (const name of RSPAMD_LISTS_0014) {
        await sql`insert into rspamd_lists (name, version, changed_at) values (${name}, 1, ${now})`.execute(db);
      }
      await db.schema
        .createTable('rspamd_map_fetches')
        .addColumn('map', 'text', (c) => c.primaryKey())
        .addColumn('list', 'text', (c) => c.notNull())
        .addColumn('fetched_at', 'bigint', (c) => c.notNull())
        .addColumn('version', 'bigint', (c) => c.notNull())
        .execute();

      await setHistoryActions(db, HISTORY_ACTIONS_0014);
    });
  },

  async down(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      const gone = sql.raw(RULE_ACTIONS.map((a) => `'${a}'`).join(', '));
      await sql`delete from history_audience where history_id in (select id from history where action in (${gone}))`.execute(
        db,
      );
      await sql`delete from history where action in (${gone})`.execute(db);
      await setHistoryActions(db, HISTORY_ACTIONS_0013);
      for (const table of ['rspamd_map_fetches', 'rspamd_lists', 'system_rules', 'apanel_filters', 'rspamd_filters']) {
        await db.schema.dropTable(table).execute();
      }
    });
  },
};
