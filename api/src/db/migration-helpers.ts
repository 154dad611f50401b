import { SqliteAdapter, type Kysely } from 'kysely';

export const isSqlite = (db: Kysely<unknown>) => db.getExecutor().adapter instanceof SqliteAdapter;

/**
 * Kysely runs SQLite migrations outside a transaction (no transactional DDL there): a migration
 * of several steps must be all or nothing, or one stopped half-way fails every later start.
 */
export async function atomically(db: Kysely<unknown>, fn: (db: Kysely<unknown>) => Promise<void>): Promise<void> {
  if (isSqlite(db)) await db.transaction().execute(fn);
  else await fn(db); // PostgreSQL: the migrator's transaction
}
