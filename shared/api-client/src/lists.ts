import type { ListClearQuery, ListClearResponse, ListCreate, ListEntry, ListPage, ListQuery } from '@qc/contracts';
import { api } from './client';

/**
 * Whitelists and blacklists (/api/lists/, issue 18): shared by the settings page (host) and the
 * e-mail detail's "Block sender" (remote-mail). Types only from @qc/contracts.
 */

/** The owner part of a list query as sent (ky leaves out the undefined ones). */
export type ListOwnerParams = Pick<ListClearQuery, 'kind'> &
  Partial<Pick<ListClearQuery, 'scope' | 'user_id' | 'domain_id'>>;

export type ListPageParams = ListOwnerParams & Partial<Pick<ListQuery, 'q' | 'cursor'>> & { page_size?: number };

const defined = (o: object) =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined && v !== '' && v !== null)) as Record<
    string,
    string | number
  >;

/** GET /api/lists/: one keyset page of one owner's list of one kind, with its total. */
export function listEntries(query: ListPageParams, signal?: AbortSignal): Promise<ListPage> {
  return api.get('lists/', { searchParams: defined(query), ...(signal ? { signal } : {}) }).json<ListPage>();
}

/** POST /api/lists/ → 201 the entry (400 errors.address, 409 list_exists / list_conflict). */
export function createListEntry(body: ListCreate): Promise<ListEntry> {
  return api.post('lists/', { json: defined(body) }).json<ListEntry>();
}

/** DELETE /api/lists/{id}/ → 204. */
export async function deleteListEntry(id: string): Promise<void> {
  await api.delete(`lists/${encodeURIComponent(id)}/`);
}

/** DELETE /api/lists/?kind=&scope=…: clears one owner's list of one kind. */
export function clearList(query: ListOwnerParams): Promise<ListClearResponse> {
  return api.delete('lists/', { searchParams: defined(query) }).json<ListClearResponse>();
}
