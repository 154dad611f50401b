import { sql, SqliteAdapter, type RawBuilder, type SqlBool } from 'kysely';
import type { DbExecutor } from '../../db/database';

/** Which recipient rows a caller sees (DESIGN §4 "Per recipient"). */
export type Scope =
  { kind: 'all' } | { kind: 'domain'; domain: string } | { kind: 'recipient'; address: string } | { kind: 'none' };

/** Rows per multi-row INSERT: far below SQLite's and PostgreSQL's bound-parameter limits. */
const BATCH = 500;

export const isSqlite = (db: DbExecutor) => db.getExecutor().adapter instanceof SqliteAdapter;

export function chunks<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The scope as a condition on a quarantine_recipients alias (or on the search table's columns).
 * `noIndex` (SQLite): a unary + keeps the planner off that column's index.
 */
export function scopeSql(scope: Scope, alias?: string, noIndex = false): RawBuilder<SqlBool> {
  const col = (name: string) => {
    const ref = sql.ref(alias ? `${alias}.${name}` : name);
    return noIndex ? sql`+${ref}` : ref;
  };
  switch (scope.kind) {
    case 'all':
      return sql<SqlBool>`1 = 1`;
    case 'domain':
      return sql<SqlBool>`${col('domain')} = ${scope.domain}`;
    case 'recipient':
      return sql<SqlBool>`${col('recipient')} = ${scope.address}`;
    default:
      return sql<SqlBool>`1 = 0`;
  }
}

/**
 * The rows of given messages are read by primary key (message_id, recipient). On SQLite (no
 * statistics) the scope's column is hidden from the planner (unary +): else it may pick the
 * (domain, …) index and read the whole domain to find a page's rows.
 */
export const byMessageScope = (db: DbExecutor, scope: Scope) => scopeSql(scope, undefined, isSqlite(db));
