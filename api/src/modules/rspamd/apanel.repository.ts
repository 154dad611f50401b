import type { DbExecutor } from '../../db/database';
import type { ApanelFiltersTable } from '../../db/schema';
import { afterKey, containsAny, type ListKey } from './rules-common';

/** A control-panel filter with its owner's address (null: a system filter). */
export type ApanelRow = ApanelFiltersTable & { owner_email: string | null };

const base = (db: DbExecutor) =>
  db
    .selectFrom('apanel_filters as f')
    .leftJoin('users as o', 'o.id', 'f.owner_id')
    .selectAll('f')
    .select('o.email as owner_email');

const fromDb = (r: ApanelRow): ApanelRow => ({
  ...r,
  enabled: Number(r.enabled),
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
});

export async function findApanel(db: DbExecutor, id: string): Promise<ApanelRow | undefined> {
  const row = await base(db).where('f.id', '=', id).executeTakeFirst();
  return row && fromDb(row);
}

/** The filter of this sender → recipient pair: at most one (unique key). */
export async function findApanelByPair(db: DbExecutor, from: string, to: string): Promise<ApanelRow | undefined> {
  const row = await base(db).where('f.from_pattern', '=', from).where('f.to_pattern', '=', to).executeTakeFirst();
  return row && fromDb(row);
}

export async function findApanelsByIds(db: DbExecutor, ids: string[]): Promise<ApanelRow[]> {
  if (!ids.length) return [];
  return (await base(db).where('f.id', 'in', ids).execute()).map(fromDb);
}

export async function findApanelsByOwner(db: DbExecutor, ownerId: string): Promise<ApanelRow[]> {
  return (await base(db).where('f.owner_id', '=', ownerId).execute()).map(fromDb);
}

export async function insertApanel(db: DbExecutor, row: ApanelFiltersTable): Promise<void> {
  await db.insertInto('apanel_filters').values(row).execute();
}

export type ApanelFields = Partial<
  Pick<ApanelFiltersTable, 'owner_id' | 'from_pattern' | 'to_pattern' | 'action' | 'description' | 'enabled'>
>;

export async function updateApanel(
  db: DbExecutor,
  id: string,
  fields: ApanelFields & { updated_at: number },
): Promise<void> {
  await db.updateTable('apanel_filters').set(fields).where('id', '=', id).execute();
}

export async function setApanelsEnabled(db: DbExecutor, ids: string[], enabled: number, now: number): Promise<void> {
  if (!ids.length) return;
  await db.updateTable('apanel_filters').set({ enabled, updated_at: now }).where('id', 'in', ids).execute();
}

export async function deleteApanels(db: DbExecutor, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db.deleteFrom('apanel_filters').where('id', 'in', ids).execute();
}

/** An active account (any role) that may own a filter: the recipient address it is for. */
export async function findActiveUser(db: DbExecutor, id: string): Promise<{ id: string; email: string } | undefined> {
  return db
    .selectFrom('users')
    .select(['id', 'email'])
    .where('id', '=', id)
    .where('is_active', '=', 1)
    .executeTakeFirst();
}

export interface ApanelListFilters {
  q?: string;
  action?: ApanelFiltersTable['action'];
  enabled?: number;
  /** 'system' (no owner) or a user id. */
  owner?: string;
}

/** Newest first (index apanel_filters_list); `q` is a part of from, to or the description. */
export async function listApanels(
  db: DbExecutor,
  f: ApanelListFilters,
  after: ListKey | null,
  limit: number,
): Promise<ApanelRow[]> {
  let query = base(db);
  if (f.action) query = query.where('f.action', '=', f.action);
  if (f.enabled !== undefined) query = query.where('f.enabled', '=', f.enabled);
  if (f.owner === 'system') query = query.where('f.owner_id', 'is', null);
  else if (f.owner) query = query.where('f.owner_id', '=', f.owner);
  if (f.q) query = query.where(containsAny(['f.from_pattern', 'f.to_pattern', 'f.description'], f.q));
  if (after) query = query.where(afterKey(db, 'f', after));
  const rows = await query.orderBy('f.created_at', 'desc').orderBy('f.id', 'desc').limit(limit).execute();
  return rows.map(fromDb);
}
