import { sql, SqliteAdapter, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { HistoryMailAction } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import type { HistoryTable } from '../../db/schema';
import { newId } from '../../lib/ids';

export type HistoryRow = HistoryTable;

type TargetColumns = 'target_kind' | 'target_id' | 'target_label' | 'changes';
/** A new row: the target columns may be left out (mail actions have none). */
export type NewHistoryRow = Omit<HistoryRow, 'id' | TargetColumns> & Partial<Pick<HistoryRow, TargetColumns>>;
/** A row about quarantined mail: download, release or delete of one e-mail. */
export type MailHistoryRow = Omit<HistoryRow, 'id' | TargetColumns | 'email_id' | 'action'> & {
  email_id: string;
  action: HistoryMailAction;
};

/**
 * A history row's readers besides admins (migration 0012): its actor, whoever holds an address it
 * touched, or everyone of a domain.
 */
export const readerKey = {
  user: (userId: string) => `u:${userId}`,
  address: (address: string) => `r:${address.toLowerCase()}`,
  domain: (domain: string) => `d:${domain.toLowerCase()}`,
};

/**
 * Appends one audit row and its readers (`readerKey`), together: in the caller's transaction when
 * given one. Rows are never updated.
 */
export async function insertHistory(db: DbExecutor, row: NewHistoryRow, readers: string[]): Promise<string> {
  if (!db.isTransaction) return db.transaction().execute((trx) => insertHistory(trx, row, readers));
  const id = newId(row.created_at);
  await db
    .insertInto('history')
    .values({ id, ...row })
    .execute();
  for (let i = 0; i < readers.length; i += 500) {
    const chunk = readers.slice(i, i + 500);
    await db
      .insertInto('history_audience')
      .values(chunk.map((audience) => ({ audience, created_at: row.created_at, history_id: id })))
      .execute();
  }
  return id;
}

const EMAIL_NOT_FOUND = 'email_not_found';

/** Which rows a caller sees: all (admins), or those of any of their reader keys. */
export type HistoryScope = { kind: 'all' } | { kind: 'readers'; keys: readonly string[] };

export interface HistoryFilters {
  action?: HistoryRow['action'];
  /** Any of these actions (a category of the history). */
  actions?: readonly HistoryRow['action'][];
  /** A user id, or part of the actor's e-mail (case-insensitive). */
  user?: string;
  dateFrom?: number;
  dateTo?: number;
}

/** Newest first; keyset on (created_at, id), driven by history_date (admins) or the audience's primary key. */
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

/** One page of all rows (`key` null) or of one reader's, newest first. */
function pageQuery(
  db: DbExecutor,
  key: string | null,
  f: HistoryFilters,
  after: { createdAt: number; id: string } | null,
  limit: number,
) {
  // A reader's rows are one range of the audience's primary key, joined to their history rows.
  let query =
    key === null
      ? db.selectFrom('history as h').selectAll('h')
      : db
          .selectFrom('history_audience as a')
          .innerJoin('history as h', 'h.id', 'a.history_id')
          .selectAll('h')
          .where('a.audience', '=', key)
          // A refusal of a foreign id is recorded only where the id exists: in a trail the actor (or
          // their domain) reads, it would tell them so (both answers are 404). Admins, who see every
          // e-mail anyway, keep these rows; rows written before this filter are covered as well.
          .where((eb) => eb.or([eb('h.code', 'is', null), eb('h.code', '!=', EMAIL_NOT_FOUND)]));
  // The keyset columns: the audience's copy drives its index.
  const [date, id] = (key === null ? ['h.created_at', 'h.id'] : ['a.created_at', 'a.history_id']).map((column) =>
    sql.ref(column),
  ) as [RawBuilder<number>, RawBuilder<string>];
  if (f.action) query = query.where('h.action', '=', f.action);
  if (f.actions) query = query.where('h.action', 'in', f.actions);
  if (f.user) {
    // A user id, or part of the actor's address (any case): within the caller's rows only.
    const pattern = `%${f.user.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    const user = f.user;
    query = query.where((eb) =>
      eb.or([eb('h.actor_id', '=', user), sql<SqlBool>`lower(h.actor_email) like ${pattern} escape '\\'`]),
    );
  }
  if (f.dateFrom !== undefined) query = query.where(date, '>=', f.dateFrom);
  if (f.dateTo !== undefined) query = query.where(date, '<=', f.dateTo);
  if (after) {
    // PostgreSQL takes a row comparison as one index range; SQLite needs the redundant `<=` to seek
    // to the cursor (with the OR alone it walks from the newest row).
    const keyset: Expression<SqlBool> =
      db.getExecutor().adapter instanceof SqliteAdapter
        ? sql<SqlBool>`${date} <= ${after.createdAt} and (${date} < ${after.createdAt} or (${date} = ${after.createdAt} and ${id} < ${after.id}))`
        : sql<SqlBool>`(${date}, ${id}) < (${after.createdAt}, ${after.id})`;
    query = query.where(keyset);
  }
  return query.orderBy(date, 'desc').orderBy(id, 'desc').limit(limit);
}

/**
 * The query of listHistory (exported for the query-plan test). Several reader keys (a user's own
 * actions, and their address's mail) are one page each, merged: a row under both comes once.
 */
export function listHistoryQuery(
  db: DbExecutor,
  scope: HistoryScope,
  f: HistoryFilters,
  after: { createdAt: number; id: string } | null,
  limit: number,
) {
  if (scope.kind === 'all') return pageQuery(db, null, f, after, limit);
  // No key: no row has the empty one. One key: its page as it is.
  if (scope.keys.length < 2) return pageQuery(db, scope.keys[0] ?? '', f, after, limit);
  const [first, ...others] = scope.keys.map((key) =>
    db.selectFrom(pageQuery(db, key, f, after, limit).as('p')).selectAll(),
  );
  const merged = others.reduce((union, page) => union.union(page), first!);
  return db.selectFrom(merged.as('m')).selectAll().orderBy('m.created_at', 'desc').orderBy('m.id', 'desc').limit(limit);
}
