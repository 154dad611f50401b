import { sql, type Kysely, type QueryExecutorProvider } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically, isSqlite } from './migration-helpers';

// Issue 5 scopes the history "like the quarantine": a user reads what was done with their mail, a
// domain_admin with their domain's, whoever did it, besides their own actions. A row's readers are
// kept beside it, one (audience, created_at, history_id) row each: 'u:<user id>' for its actor,
// 'd:<domain>' for the actor's domain, and 'r:<address>' and 'd:<domain>' for the recipients it
// touched. Mail belongs to an address (DESIGN §4), so its history does too: whoever holds the
// address reads it. A reader's page is then one or two ranges of this primary key.
export const m0012_history_audience: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
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
    });
  },

  async down(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await db.schema
        .createIndex('history_domain_date')
        .on('history')
        .columns(['actor_domain', 'created_at desc', 'id desc'])
        .execute();
      await db.schema.dropTable('history_audience').execute();
    });
  },
};

/**
 * The readers of every history row (into an empty table), from the rows and the recipients still
 * stored: what `recordHistory` writes with each new row. Each action touched the recipients its
 * actor saw (an admin all, a domain_admin their domain's, a user their own address). Also used by
 * the benchmark's seed, which writes history straight in SQL.
 */
export async function fillHistoryAudience(db: QueryExecutorProvider): Promise<void> {
  const touched = sql`(h.actor_role = 'admin'
      or (h.actor_role = 'domain_admin' and r.domain = lower(h.actor_domain))
      or (h.actor_role = 'user' and r.recipient = h.actor_email))`;
  await sql`insert into history_audience (audience, created_at, history_id)
    select 'u:' || actor_id, created_at, id from history h where actor_id is not null
    union
    select 'd:' || lower(actor_domain), created_at, id from history h where actor_domain is not null
    union
    select 'd:' || r.domain, h.created_at, h.id
      from history h join quarantine_recipients r on r.message_id = h.email_id where ${touched}
    union
    select 'r:' || r.recipient, h.created_at, h.id
      from history h join quarantine_recipients r on r.message_id = h.email_id where ${touched}`.execute(db);
}
