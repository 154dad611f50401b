import { api } from '@qc/api-client';
import type { HistoryList } from '@qc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { HistoryQueryParams } from './history.filters';

export const historyKeys = {
  all: ['history'] as const,
  list: (query: HistoryQueryParams) => ['history', 'list', query] as const,
};

/** GET /api/history/: one keyset page, newest first. */
export function listHistory(query: HistoryQueryParams, signal?: AbortSignal): Promise<HistoryList> {
  const searchParams = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));
  return api.get('history/', { searchParams, ...(signal ? { signal } : {}) }).json<HistoryList>();
}

export function useHistoryList(query: HistoryQueryParams) {
  return useQuery({
    queryKey: historyKeys.list(query),
    queryFn: ({ signal }) => listHistory(query, signal),
    placeholderData: keepPreviousData,
  });
}
