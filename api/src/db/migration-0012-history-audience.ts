import { sql, SqliteAdapter, type Kysely, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';

// Issue 5 scopes the history "like the quarantine": a user reads what was done with their mail, a
// domain_admin with their domain's, whoever did it, besides their own actions. A row's readers are
// kept beside it, one (audience, created_at, history_id) row each: 'u:<user id>' for its actor and
// for the users among the recipients it touched, 'd:<domain>' for the actor's domain and theirs.
// A reader's page is then one range of this primary key, however large the mailbox or the trail.
const isSqlite = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof SqliteAdapter;

export const m0012_history_audience: Migration = {
  async up(db: Kysely<unknown>) {
    const table = db.schema
      .createTable('history_audience')
      .addColumn('audience', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('history_id', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('history_audience_pk', ['audience', 'created_at', 'history_id']);
    // SQLite: the key is the table (no rowid copy of it); PostgreSQL's primary key index is the same key.
    await (isSqlite(db) ? table.modifyEnd(sql`without rowid`) : table).execute();
    await fillHistoryAudience(db);
    // The domain scope read this index; it now reads the audience.
    await db.schema.dropIndex('history_domain_date').execute();
  },

  async down(db: Kysely<unknown>) {
    await db.schema
      .createIndex('history_domain_date')
      .on('history')
      .columns(['actor_domain', 'created_at desc', 'id desc'])
      .execute();
    await db.schema.dropTable('history_audience').execute();
  },
};

/**
 * The audience of every history row, from the rows and the recipients still stored: what
 * `insertHistory` writes with each new row. Each action touched the recipients its actor saw
 * (an admin all, a domain_admin their domain's, a user their own address). Also used by the
 * benchmark's seed, which writes history straight in SQL.
 */
export async function fillHistoryAudience(db: QueryExecutorProvider): Promise<void> {
  const touched = sql`(h.actor_role = 'admin'
      or (h.actor_role = 'domain_admin' and r.domain = lower(h.actor_domain))
      or (h.actor_role = 'user' and r.recipient = h.actor_email))`;
  await sql`insert into history_audience (audience, created_at, history_id)
    select 'u:' || actor_id, created_at, id from history where actor_id is not null
    union
    select 'd:' || lower(actor_domain), created_at, id from history where actor_domain is not null
    union
    select 'd:' || r.domain, h.created_at, h.id
      from history h join quarantine_recipients r on r.message_id = h.email_id where ${touched}
    union
    select 'u:' || u.id, h.created_at, h.id
      from history h join quarantine_recipients r on r.message_id = h.email_id
      join users u on u.email = r.recipient where ${touched}`.execute(db);
}
