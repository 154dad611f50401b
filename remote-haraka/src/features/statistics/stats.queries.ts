import { api } from '@qc/api-client';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { HarakaLogsPerDay, HarakaSummary, StatsPeriod } from '../logs/logs.types';

export const statsKeys = {
  summary: (days: StatsPeriod) => ['haraka-stats', 'summary', days] as const,
  perDay: (days: StatsPeriod) => ['haraka-stats', 'per-day', days] as const,
};

const signalOf = (signal?: AbortSignal) => (signal ? { signal } : {});

/** GET /api/haraka/statistics/summary/ */
export function getSummary(days: StatsPeriod, signal?: AbortSignal): Promise<HarakaSummary> {
  return api.get('haraka/statistics/summary/', { searchParams: { days }, ...signalOf(signal) }).json<HarakaSummary>();
}

/** GET /api/haraka/statistics/logs-per-day/ */
export function getLogsPerDay(days: StatsPeriod, signal?: AbortSignal): Promise<HarakaLogsPerDay> {
  return api
    .get('haraka/statistics/logs-per-day/', { searchParams: { days }, ...signalOf(signal) })
    .json<HarakaLogsPerDay>();
}

export function useSummary(days: StatsPeriod) {
  return useQuery({
    queryKey: statsKeys.summary(days),
    queryFn: ({ signal }) => getSummary(days, signal),
    placeholderData: keepPreviousData,
  });
}

export function useLogsPerDay(days: StatsPeriod) {
  return useQuery({
    queryKey: statsKeys.perDay(days),
    queryFn: ({ signal }) => getLogsPerDay(days, signal),
    placeholderData: keepPreviousData,
  });
}
