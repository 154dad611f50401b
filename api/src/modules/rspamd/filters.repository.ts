import type { FilterType } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import type { RspamdFiltersTable } from '../../db/schema';
import { afterKey, containsAny, type ListKey } from './rules-common';

export type FilterRow = RspamdFiltersTable;

const fromDb = (r: FilterRow): FilterRow => ({
  ...r,
  enabled: Number(r.enabled),
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
});

export async function findFilter(db: DbExecutor, type: FilterType, id: string): Promise<FilterRow | undefined> {
  const row = await db
    .selectFrom('rspamd_filters')
    .selectAll()
    .where('type', '=', type)
    .where('id', '=', id)
    .executeTakeFirst();
  return row && fromDb(row);
}

/** The filter of this family with this (stored) value: at most one (unique key). */
export async function findFilterByValue(
  db: DbExecutor,
  type: FilterType,
  value: string,
): Promise<FilterRow | undefined> {
  const row = await db
    .selectFrom('rspamd_filters')
    .selectAll()
    .where('type', '=', type)
    .where('value', '=', value)
    .executeTakeFirst();
  return row && fromDb(row);
}

export async function findFiltersByIds(db: DbExecutor, type: FilterType, ids: string[]): Promise<FilterRow[]> {
  if (!ids.length) return [];
  const rows = await db
    .selectFrom('rspamd_filters')
    .selectAll()
    .where('type', '=', type)
    .where('id', 'in', ids)
    .execute();
  return rows.map(fromDb);
}

/** Any family: the quarantine detail's "held by filter X". */
export async function findFiltersAnyType(db: DbExecutor, ids: string[]): Promise<FilterRow[]> {
  if (!ids.length) return [];
  return (await db.selectFrom('rspamd_filters').selectAll().where('id', 'in', ids).execute()).map(fromDb);
}

export async function insertFilter(db: DbExecutor, row: FilterRow): Promise<void> {
  await db.insertInto('rspamd_filters').values(row).execute();
}

export type FilterFields = Partial<Pick<FilterRow, 'value' | 'pattern_type' | 'action' | 'description' | 'enabled'>>;

export async function updateFilter(
  db: DbExecutor,
  id: string,
  fields: FilterFields & { updated_at: number },
): Promise<void> {
  await db.updateTable('rspamd_filters').set(fields).where('id', '=', id).execute();
}

export async function setFiltersEnabled(db: DbExecutor, ids: string[], enabled: number, now: number): Promise<void> {
  if (!ids.length) return;
  await db.updateTable('rspamd_filters').set({ enabled, updated_at: now }).where('id', 'in', ids).execute();
}

export async function deleteFilters(db: DbExecutor, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db.deleteFrom('rspamd_filters').where('id', 'in', ids).execute();
}

export interface FilterListFilters {
  q?: string;
  action?: FilterRow['action'];
  patternType?: FilterRow['pattern_type'];
  enabled?: number;
}

/** Newest first, one family (index rspamd_filters_list); `q` is a part of the value or description. */
export async function listFilters(
  db: DbExecutor,
  type: FilterType,
  f: FilterListFilters,
  after: ListKey | null,
  limit: number,
): Promise<FilterRow[]> {
  let query = db.selectFrom('rspamd_filters').selectAll().where('type', '=', type);
  if (f.action) query = query.where('action', '=', f.action);
  if (f.patternType) query = query.where('pattern_type', '=', f.patternType);
  if (f.enabled !== undefined) query = query.where('enabled', '=', f.enabled);
  if (f.q) query = query.where(containsAny(['rspamd_filters.value', 'rspamd_filters.description'], f.q));
  if (after) query = query.where(afterKey(db, 'rspamd_filters', after));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(fromDb);
}
