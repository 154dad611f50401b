import { api } from '@qc/api-client';
import type { Statistics, StatisticsTops } from '@qc/contracts';
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

/** GET /api/statistics/tops/: top senders, recipients, symbols and (admins) domains, same range. */
export function getStatisticsTops(params: StatisticsParams, signal?: AbortSignal): Promise<StatisticsTops> {
  return api
    .get('statistics/tops/', { searchParams: { ...params }, ...(signal ? { signal } : {}) })
    .json<StatisticsTops>();
}

export function useStatisticsTops(params: StatisticsParams) {
  return useQuery({
    queryKey: [...statisticsKeys.all, 'tops', params] as const,
    queryFn: ({ signal }) => getStatisticsTops(params, signal),
    placeholderData: keepPreviousData,
  });
}
