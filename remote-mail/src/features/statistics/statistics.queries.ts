import { api } from '@qc/api-client';
import type { Statistics } from '@qc/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { StatisticsParams } from './statistics.view';

export const statisticsKeys = {
  all: ['statistics'] as const,
  get: (params: StatisticsParams) => ['statistics', params] as const,
};

/** GET /api/statistics/ */
export function getStatistics(params: StatisticsParams, signal?: AbortSignal): Promise<Statistics> {
  return api.get('statistics/', { searchParams: { ...params }, ...(signal ? { signal } : {}) }).json<Statistics>();
}

export function useStatistics(params: StatisticsParams) {
  return useQuery({
    queryKey: statisticsKeys.get(params),
    queryFn: ({ signal }) => getStatistics(params, signal),
    placeholderData: keepPreviousData,
  });
}
