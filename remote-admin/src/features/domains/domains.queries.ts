import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createDomain, deleteDomain, getDomain, listDomains, updateDomain, type DomainListParams } from './domains.api';
import type { DomainCreate, DomainUpdate } from './domains.types';

export const domainKeys = {
  all: ['admin', 'domains'] as const,
  lists: ['admin', 'domains', 'list'] as const,
  list: (query: DomainListParams) => ['admin', 'domains', 'list', query] as const,
  detail: (id: string) => ['admin', 'domains', 'detail', id] as const,
};

/** GET /api/domains/: one keyset page; the previous page stays shown while the next one loads. */
export function useDomainList(query: DomainListParams, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: domainKeys.list(query),
    queryFn: ({ signal }) => listDomains(query, signal),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

/** GET /api/domains/{id}/ */
export function useDomain(id: string, options: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: domainKeys.detail(id),
    queryFn: ({ signal }) => getDomain(id, signal),
    enabled: options.enabled ?? true,
  });
}

export function useCreateDomain() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: DomainCreate) => createDomain(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: domainKeys.lists }),
  });
}

export function useUpdateDomain(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (changes: DomainUpdate) => updateDomain(id, changes),
    // The detail carries its users too: refetched rather than patched. Users show the domain's name.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: domainKeys.all }),
        queryClient.invalidateQueries({ queryKey: ['admin', 'users'] }),
      ]),
  });
}

export function useDeleteDomain(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteDomain(id),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: domainKeys.detail(id) });
      return queryClient.invalidateQueries({ queryKey: domainKeys.lists });
    },
  });
}
