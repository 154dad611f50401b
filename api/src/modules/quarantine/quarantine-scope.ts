import { sql, SqliteAdapter, type RawBuilder, type SqlBool } from 'kysely';
import type { DbExecutor } from '../../db/database';

/**
 * Which recipient rows a caller sees (DESIGN §4 "Per recipient"). A user's rows are those addressed
 * to any of their addresses (issue 31), the primary first; each lower case.
 */
export type Scope =
  { kind: 'all' } | { kind: 'domain'; domain: string } | { kind: 'recipient'; addresses: string[] } | { kind: 'none' };

/** A user's scope: these addresses (primary first), lower case, each once. */
export const recipientScope = (addresses: readonly string[]): Scope => ({
  kind: 'recipient',
  addresses: [...new Set(addresses.map((a) => a.toLowerCase()))],
});

/** Every address whose mail is the user's (issue 31): the primary (their e-mail) first, lower case. */
export const addressesOfUser = (user: { email: string; addresses?: readonly string[] }): string[] => [
  ...new Set([user.email, ...(user.addresses ?? [])].map((a) => a.toLowerCase())),
];

/** Whether the scope may hold several recipient rows of one message (a DISTINCT is needed). */
export const manyRowsPerMessage = (scope: Scope) => scope.kind !== 'recipient' || scope.addresses.length > 1;

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
      // One address: `=`, the plans measured for a single user; several: `in`, one index range each.
      if (scope.addresses.length === 1) return sql<SqlBool>`${col('recipient')} = ${scope.addresses[0]}`;
      if (!scope.addresses.length) return sql<SqlBool>`1 = 0`;
      return sql<SqlBool>`${col('recipient')} in (${sql.join(scope.addresses)})`;
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
