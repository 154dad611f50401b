import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  bulkRules,
  createRule,
  deleteRule,
  getRspamdStatus,
  getRule,
  listRules,
  updateRule,
  type RuleEndpoint,
  type RuleListParams,
} from './rules.api';
import type { RuleBulkRequest } from './rules.types';

export const STATUS_KEY = ['rspamd', 'status'] as const;
/** While a change is not live yet the status is asked again this often (Rspamd fetches every few seconds). */
export const STATUS_POLL_MS = 3000;
/** Once live, only now and then (another admin's change, Rspamd stopping). */
const STATUS_IDLE_POLL_MS = 30_000;

const listKey = (ep: RuleEndpoint, query: RuleListParams) => [...ep.key, 'list', query];
const detailKey = (ep: RuleEndpoint, id: string) => [...ep.key, 'detail', id];

/** One keyset page; the previous page stays shown while the next one loads. */
export function useRuleList<T>(ep: RuleEndpoint, query: RuleListParams) {
  return useQuery({
    queryKey: listKey(ep, query),
    queryFn: ({ signal }) => listRules<T>(ep, query, signal),
    placeholderData: keepPreviousData,
  });
}

export function useRule<T>(ep: RuleEndpoint, id: string, enabled = true) {
  return useQuery({ queryKey: detailKey(ep, id), queryFn: ({ signal }) => getRule<T>(ep, id, signal), enabled });
}

/** A rule changed: its kind's lists and details are stale, and the status of its list is not live any more. */
function useInvalidate(ep: RuleEndpoint) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ep.key }),
      queryClient.invalidateQueries({ queryKey: STATUS_KEY }),
    ]);
}

export function useCreateRule<T>(ep: RuleEndpoint) {
  const invalidate = useInvalidate(ep);
  return useMutation({ mutationFn: (body: object) => createRule<T>(ep, body), onSuccess: () => invalidate() });
}

export function useUpdateRule<T>(ep: RuleEndpoint) {
  const invalidate = useInvalidate(ep);
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: object }) => updateRule<T>(ep, id, changes),
    onSuccess: () => invalidate(),
  });
}

export function useDeleteRule(ep: RuleEndpoint) {
  const queryClient = useQueryClient();
  const invalidate = useInvalidate(ep);
  return useMutation({
    mutationFn: (id: string) => deleteRule(ep, id),
    onSuccess: (_void, id) => {
      queryClient.removeQueries({ queryKey: detailKey(ep, id) });
      return invalidate();
    },
  });
}

export function useBulkRules(ep: RuleEndpoint) {
  const invalidate = useInvalidate(ep);
  return useMutation({ mutationFn: (body: RuleBulkRequest) => bulkRules(ep, body), onSettled: () => invalidate() });
}

/** GET /api/rspamd/status/, asked again every few seconds while a list waits for Rspamd. */
export function useRspamdStatus() {
  return useQuery({
    queryKey: STATUS_KEY,
    queryFn: ({ signal }) => getRspamdStatus(signal),
    refetchInterval: (query) => (query.state.data?.lists.some((l) => !l.live) ? STATUS_POLL_MS : STATUS_IDLE_POLL_MS),
  });
}
