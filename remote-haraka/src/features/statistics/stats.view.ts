import { STATS_PERIODS, type StatsPeriod } from '../logs/logs.types';

export const CHART_TYPES = ['area', 'bar', 'line', 'pie', 'donut', 'composed'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
export const DEFAULT_DAYS: StatsPeriod = 7;

const oneOf = <T extends string | number>(list: readonly T[], v: unknown): v is T => list.includes(v as T);

/** The statistics pages' view in the URL: `?days=30&type=bar` (defaults left out). */
export interface StatsView {
  days: StatsPeriod;
  type: ChartType;
}

export function readStatsView(params: URLSearchParams): StatsView {
  const days = Number(params.get('days'));
  const type = params.get('type');
  return {
    days: oneOf(STATS_PERIODS, days) ? days : DEFAULT_DAYS,
    type: oneOf(CHART_TYPES, type) ? type : 'area',
  };
}

export function writeStatsView(v: StatsView): URLSearchParams {
  const params = new URLSearchParams();
  if (v.days !== DEFAULT_DAYS) params.set('days', String(v.days));
  if (v.type !== 'area') params.set('type', v.type);
  return params;
}
