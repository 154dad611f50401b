import { sql, SqliteAdapter, type Expression, type SqlBool } from 'kysely';
import type { DbExecutor } from '../../db/database';
import type { HistoryTable } from '../../db/schema';
import { newId } from '../../lib/ids';

export type HistoryRow = HistoryTable;

/** Appends one audit row (in the caller's transaction when given one). Rows are never updated. */
export async function insertHistory(db: DbExecutor, row: Omit<HistoryRow, 'id'>): Promise<string> {
  const id = newId(row.created_at);
  await db
    .insertInto('history')
    .values({ id, ...row })
    .execute();
  return id;
}

/** Which rows a caller sees: their own, their domain's users', or all. */
export type HistoryScope = { kind: 'all' } | { kind: 'domain'; domain: string } | { kind: 'actor'; userId: string };

export interface HistoryFilters {
  action?: HistoryRow['action'];
  /** An e-mail (lower-cased) or a user id. */
  user?: string;
  dateFrom?: number;
  dateTo?: number;
}

/** Newest first; keyset on (created_at, id), driven by the scope's (…, created_at DESC, id DESC) index. */
export async function listHistory(
  db: DbExecutor,
  scope: HistoryScope,
  f: HistoryFilters,
  after: { createdAt: number; id: string } | null,
  limit: number,
): Promise<HistoryRow[]> {
  const rows = await listHistoryQuery(db, scope, f, after, limit).execute();
  return rows.map((r) => ({ ...r, created_at: Number(r.created_at) }));
}

/** The query of listHistory (exported for the query-plan test). */
export function listHistoryQuery(
  db: DbExecutor,
  scope: HistoryScope,
  f: HistoryFilters,
  after: { createdAt: number; id: string } | null,
  limit: number,
) {
  let query = db.selectFrom('history').selectAll();
  if (scope.kind === 'domain') query = query.where('actor_domain', '=', scope.domain);
  if (scope.kind === 'actor') query = query.where('actor_id', '=', scope.userId);
  if (f.action) query = query.where('action', '=', f.action);
  if (f.user) {
    const user = f.user;
    query = query.where((eb) =>
      user.includes('@') ? eb('actor_email', '=', user.toLowerCase()) : eb('actor_id', '=', user),
    );
  }
  if (f.dateFrom !== undefined) query = query.where('created_at', '>=', f.dateFrom);
  if (f.dateTo !== undefined) query = query.where('created_at', '<=', f.dateTo);
  if (after) {
    // PostgreSQL takes a row comparison as one index range; SQLite needs the redundant `<=` to seek
    // to the cursor (with the OR alone it walks from the newest row).
    const keyset: Expression<SqlBool> =
      db.getExecutor().adapter instanceof SqliteAdapter
        ? sql<SqlBool>`created_at <= ${after.createdAt} and (created_at < ${after.createdAt} or (created_at = ${after.createdAt} and id < ${after.id}))`
        : sql<SqlBool>`(created_at, id) < (${after.createdAt}, ${after.id})`;
    query = query.where(keyset);
  }
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit);
}
