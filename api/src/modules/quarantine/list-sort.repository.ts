import { sql, type RawBuilder } from 'kysely';
import { LIST_COUNT_EXACT_MAX } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import {
  distinctFor,
  listConditions,
  LIST_COLUMNS,
  listPageQuery,
  TRIGRAM_MIN,
  withHitIds,
  type ListFilters,
  type ListMessageRow,
  type SortOrder,
} from './list.repository';
import { isSqlite, type Scope } from './quarantine-scope';

export type SortKey = 'date' | 'score' | 'sender' | 'size';
export interface ListSort {
  by: SortKey;
  order: SortOrder;
}
export const DATE_DESC: ListSort = { by: 'date', order: 'desc' };

/** Where a keyset page starts: the sort value and id of the previous page's last row (excluded). */
export interface SortCursor {
  value: number | string;
  message_id: string;
}

export type SortedMessageRow = ListMessageRow & { sort_value: number | string };

/** A message without a score sorts as this one (below any real score: Rspamd's are far above it). */
export const NO_SCORE = -1e9;

/**
 * One keyset page of the messages the caller may see, in `sort` order, ties broken by id in the
 * same direction: the rows strictly after `after`. By date it is driven by the scope's index on
 * quarantine_recipients ((recipient|domain|-), received_at DESC, message_id DESC, status; read
 * backwards for oldest first): no OFFSET, no count. A text search of 3+ characters first asks the
 * trigram index (FTS5 on SQLite, pg_trgm GIN on PostgreSQL) for at most HITS_FIRST_MAX + 1 hits:
 * few hits are read by primary key and sorted; many are matched row by row along the keyset scan
 * (which stops after one page). On PostgreSQL a sender filter of 3+ characters is probed the same
 * way (SENDER_HITS_FIRST_MAX). By score, sender or size (no index has the scope and those columns)
 * the scope's matching messages are read and the page's top N sorted (O(matching rows)).
 */
export async function listPage(
  db: DbExecutor,
  scope: Scope,
  filters: ListFilters,
  after: SortCursor | null,
  limit: number,
  sort: ListSort = DATE_DESC,
): Promise<SortedMessageRow[]> {
  const f = await withHitIds(db, scope, filters);
  if (!f) return [];
  if (sort.by === 'date') {
    const key = after ? { received_at: Number(after.value), message_id: after.message_id } : null;
    const { rows } = await listPageQuery(db, scope, f, key, limit, sort.order).execute(db);
    return rows.map((r) => ({ ...r, received_at: Number(r.received_at), sort_value: Number(r.received_at) }));
  }
  const { rows } = await sortedPageQuery(db, scope, f, after, limit, sort).execute(db);
  return rows.map((r) => ({
    ...r,
    received_at: Number(r.received_at),
    sort_value: sort.by === 'sender' ? String(r.sort_value) : Number(r.sort_value),
  }));
}

/** The value a message is sorted by (from quarantine_messages `m`). */
function sortExpression(db: DbExecutor, by: Exclude<SortKey, 'date'>): RawBuilder<unknown> {
  if (by === 'score') return sql`coalesce(m.score, ${sql.lit(NO_SCORE)})`;
  if (by === 'size') return sql`m.size`;
  // Case-insensitive, in code-point order on both databases (PostgreSQL's default collation would
  // order differently from SQLite's, and the keyset comparison must agree with the ORDER BY).
  return isSqlite(db) ? sql`lower(m.sender)` : sql`lower(m.sender) collate "C"`;
}

/**
 * The SQL of a page by score, sender or size: the ids of the messages with a visible recipient row
 * matching the filters (the scope's index, each id once), then their messages by primary key,
 * keyset on (value, id), the top `limit` sorted. O(matching rows): no index has the scope and the
 * sort key together. (A correlated EXISTS per message instead made SQLite walk the scope's index
 * for each message: 0.7 s at 5,000 messages.)
 */
export function sortedPageQuery(
  db: DbExecutor,
  scope: Scope,
  f: ListFilters,
  after: SortCursor | null,
  limit: number,
  sort: ListSort,
): RawBuilder<SortedMessageRow> {
  const by = sort.by === 'date' ? 'score' : sort.by;
  const value = sortExpression(db, by);
  const dir = sql.raw(sort.order);
  const before = sql.raw(sort.order === 'desc' ? '<' : '>');
  const hitsFirst = f.textIds !== undefined && isSqlite(db);
  const { conditions, needsMessage } = listConditions(db, scope, f, hitsFirst);
  // Inside the subquery `m` is its own join (the message filters' alias), not the outer message.
  const join = needsMessage ? sql`join quarantine_messages m on m.id = r.message_id` : sql``;
  const keyset = after ? sql`where (${value}, m.id) ${before} (${after.value}, ${after.message_id})` : sql``;
  return sql<SortedMessageRow>`select ${LIST_COLUMNS}, ${value} as sort_value
    from (select ${distinctFor(scope)} r.message_id from quarantine_recipients r ${join}
      where ${sql.join(conditions, sql` and `)}) k
    join quarantine_messages m on m.id = k.message_id
    ${keyset}
    order by sort_value ${dir}, m.id ${dir}
    limit ${limit}`;
}

/**
 * How many messages the caller sees match the filters: exact up to LIST_COUNT_EXACT_MAX; beyond,
 * `exact: false` and that bound (the count stops reading there). Null for a search term with many
 * hits: each row would be matched (folded) along the whole scope, seconds on a large quarantine.
 */
export async function countMatching(
  db: DbExecutor,
  scope: Scope,
  filters: ListFilters,
): Promise<{ count: number; exact: boolean } | null> {
  const f = await withHitIds(db, scope, filters);
  if (!f) return { count: 0, exact: true };
  if (f.q !== undefined && f.q.length >= TRIGRAM_MIN && !f.textIds) return null;
  const { rows } = await countQuery(db, scope, f, LIST_COUNT_EXACT_MAX + 1).execute(db);
  const n = Number(rows[0]?.n ?? 0);
  return n > LIST_COUNT_EXACT_MAX ? { count: LIST_COUNT_EXACT_MAX, exact: false } : { count: n, exact: true };
}

/** The SQL of countMatching: the matching keys, at most `cap`, counted. */
export function countQuery(db: DbExecutor, scope: Scope, f: ListFilters, cap: number): RawBuilder<{ n: number }> {
  const hitsFirst = f.textIds !== undefined && isSqlite(db);
  const { conditions, needsMessage } = listConditions(db, scope, f, hitsFirst);
  const join = needsMessage ? sql`join quarantine_messages m on m.id = r.message_id` : sql``;
  return sql<{ n: number }>`select count(*) as n from (
      select ${distinctFor(scope)} r.message_id from quarantine_recipients r ${join}
      where ${sql.join(conditions, sql` and `)}
      limit ${cap}
    ) t`;
}
