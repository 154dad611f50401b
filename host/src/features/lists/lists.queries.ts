import { api, clearList, createListEntry, deleteListEntry, listEntries, type ListOwnerParams } from '@qc/api-client';
import type { AdminUserList, DomainList, ListKind } from '@qc/contracts';
import type { SearchOption } from '@qc/ui';
import { keepPreviousData, useInfiniteQuery, useMutation, useQueryClient } from '@tanstack/react-query';

/** Whose list the page shows: one's own, a user's, one's domain, a domain, or the global one. */
export type ListOwner =
  { scope: 'user'; user?: SearchOption } | { scope: 'domain'; domain?: SearchOption } | { scope: 'global' };

export const LIST_PAGE_SIZE = 50;

/** The owner part of the query string (a domain_admin's own domain needs no id). */
export function ownerParams(owner: ListOwner, kind: ListKind): ListOwnerParams {
  if (owner.scope === 'user') return { kind, scope: 'user', user_id: owner.user?.value };
  if (owner.scope === 'domain') return { kind, scope: 'domain', domain_id: owner.domain?.value };
  return { kind, scope: 'global' };
}

export const listsKeys = {
  all: ['lists'] as const,
  page: (owner: ListOwnerParams, q: string) => ['lists', owner, q] as const,
};

/** GET /api/lists/: "load more" pages of one owner's list; the previous list stays while another loads. */
export function useListEntries(owner: ListOwnerParams, q: string, enabled = true) {
  return useInfiniteQuery({
    queryKey: listsKeys.page(owner, q),
    queryFn: ({ pageParam, signal }) =>
      listEntries({ ...owner, q: q || undefined, cursor: pageParam, page_size: LIST_PAGE_SIZE }, signal),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled,
  });
}

function useInvalidateLists() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: listsKeys.all });
}

/** POST /api/lists/ */
export function useAddEntry() {
  const invalidate = useInvalidateLists();
  return useMutation({
    mutationFn: ({ owner, address }: { owner: ListOwnerParams; address: string }) =>
      createListEntry({ ...owner, address }),
    onSuccess: invalidate,
  });
}

/** DELETE /api/lists/{id}/ */
export function useRemoveEntry() {
  const invalidate = useInvalidateLists();
  return useMutation({ mutationFn: (id: string) => deleteListEntry(id), onSettled: invalidate });
}

/** DELETE /api/lists/?kind=&scope=… */
export function useClearList() {
  const invalidate = useInvalidateLists();
  return useMutation({ mutationFn: (owner: ListOwnerParams) => clearList(owner), onSettled: invalidate });
}

const OPTIONS_PAGE = '20';
const withSignal = (signal: AbortSignal) => ({ signal });

/** GET /api/users/?q= (a domain_admin sees their domain's users): the user picker's options. */
export async function searchUsers(q: string, signal: AbortSignal): Promise<SearchOption[]> {
  const page = await api
    .get('users/', { searchParams: { ...(q ? { q } : {}), page_size: OPTIONS_PAGE }, ...withSignal(signal) })
    .json<AdminUserList>();
  return page.results.map((u) => ({ value: u.id, label: u.email }));
}

/** GET /api/domains/?q= (admin): the domain picker's options, by their Unicode name. */
export async function searchDomains(q: string, signal: AbortSignal): Promise<SearchOption[]> {
  const page = await api
    .get('domains/', { searchParams: { ...(q ? { q } : {}), page_size: OPTIONS_PAGE }, ...withSignal(signal) })
    .json<DomainList>();
  return page.results.map((d) => ({ value: d.id, label: d.display_name }));
}
