import { isQuarantineSearch } from '@qc/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { dashboardKeys } from '../dashboard/dashboard.queries';
import { bulkAction, listQuarantine } from './quarantine.api';
import type { BulkAction, ListQueryParams } from './quarantine.types';

/** Query keys of the quarantine (list pages and details share the 'quarantine' root). */
export const quarantineKeys = {
  all: ['quarantine'] as const,
  lists: ['quarantine', 'list'] as const,
  list: (query: ListQueryParams) => ['quarantine', 'list', query] as const,
  detail: (id: string) => ['quarantine', 'detail', id] as const,
  raw: (id: string) => ['quarantine', 'raw', id] as const,
};

/** How often, and how many times at most (about a minute), a page asks again how a release under way ended. */
export const FOLLOW_EVERY_MS = 2_000;
export const FOLLOW_TRIES = 30;

/**
 * GET /api/quarantine/: one keyset page; the previous page stays shown while the next one loads.
 * Not asked while `enabled` is false (filters the api would refuse). Asked again every
 * FOLLOW_EVERY_MS while a row is releasing (a release answered 202): a claim settles within the
 * relay's time limit, or shows as release_unknown once stale (10 min), so this ends. Not a search:
 * each of its pages spends the search budget (the e-mail's page follows the release itself).
 */
export function useQuarantineList(query: ListQueryParams, enabled = true) {
  return useQuery({
    queryKey: quarantineKeys.list(query),
    queryFn: ({ signal }) => listQuarantine(query, signal),
    placeholderData: keepPreviousData,
    enabled,
    refetchInterval: (q) =>
      !isQuarantineSearch(query) && q.state.data?.results.some((r) => r.status === 'releasing')
        ? FOLLOW_EVERY_MS
        : false,
  });
}

/** POST /api/quarantine/bulk/; afterwards the lists, details, dashboard counts and statistics refresh. */
export function useBulkAction() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ ids, action }: { ids: string[]; action: BulkAction }) => bulkAction(ids, action),
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: quarantineKeys.all }),
        queryClient.invalidateQueries({ queryKey: dashboardKeys.counts }),
        queryClient.invalidateQueries({ queryKey: ['statistics'] }),
      ]),
  });
}
