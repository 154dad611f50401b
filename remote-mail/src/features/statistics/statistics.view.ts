import type { STATISTICS_MAX_DAYS as ApiMaxDays, StatisticsPeriod } from '@qc/contracts';

/** Mirrors STATISTICS_PERIODS of @qc/contracts (types only here: the contract module loads zod). */
export const CHART_PERIODS = [2, 7, 30, 90, 180, 365] as const satisfies readonly StatisticsPeriod[];
type Covers<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : never;
const _covered: Covers<StatisticsPeriod, (typeof CHART_PERIODS)[number]> = true;

/**
 * The one period control: the spec's statistics ranges (last 7 days, last 30 days, last 3 months,
 * custom) and its chart periods (2, 7, 30, 90, 180, 365 days) are the same thing, the last N days
 * asked of the api, so they are one list. Every preset is a chart period (`days`).
 */
export const RANGES = [
  'last_2_days',
  'last_7_days',
  'last_30_days',
  'last_3_months',
  'last_180_days',
  'last_365_days',
  'custom',
] as const;
export type StatisticsRange = (typeof RANGES)[number];
const RANGE_DAYS: Record<Exclude<StatisticsRange, 'custom'>, StatisticsPeriod> = {
  last_2_days: 2,
  last_7_days: 7,
  last_30_days: 30,
  last_3_months: 90,
  last_180_days: 180,
  last_365_days: 365,
};
const _everyPeriod: Covers<(typeof CHART_PERIODS)[number], (typeof RANGE_DAYS)[keyof typeof RANGE_DAYS]> = true;

/** The longest custom range the api answers (its STATISTICS_MAX_DAYS: the type keeps them equal). */
export const STATISTICS_MAX_DAYS: typeof ApiMaxDays = 366;

export const CHART_TYPES = ['area', 'bar', 'line', 'pie', 'donut', 'composed'] as const;
export type ChartType = (typeof CHART_TYPES)[number];
/**
 * What a pie shows, each a whole: `actions`, the releases and deletions made in the range (the api
 * counts them on the day of the action, whatever day the mail came in, so they are not parts of
 * that range's quarantined mail); `risk`, the mail quarantined in the range by risk level.
 */
export const PIE_DATAS = ['actions', 'risk'] as const;
export type PieData = (typeof PIE_DATAS)[number];

/** What the statistics page shows, in the URL: `days` or a custom `from`..`to`, chart type, pie data. */
export interface StatisticsView {
  days: StatisticsPeriod;
  /** 'YYYY-MM-DD' days of a custom range; both '' unless custom. */
  from: string;
  to: string;
  type: ChartType;
  pie: PieData;
}

export const DEFAULT_VIEW: Readonly<StatisticsView> = Object.freeze({
  days: 7,
  from: '',
  to: '',
  type: 'area',
  pie: 'actions',
});

const DAY = /^\d{4}-\d{2}-\d{2}$/;
/** Whole days from one 'YYYY-MM-DD' to another (UTC dates: no daylight-saving hour in between). */
const daysBetween = (from: string, to: string) =>
  (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000;
const oneOf = <T extends string | number>(list: readonly T[], v: unknown): v is T => list.includes(v as T);

export function readView(params: URLSearchParams): StatisticsView {
  const days = Number(params.get('days'));
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  // A range the api would refuse (reversed, or over its limit) falls back to the default, like any
  // other invalid value in a hand-edited link.
  const custom = DAY.test(from) && DAY.test(to) && from <= to && daysBetween(from, to) < STATISTICS_MAX_DAYS;
  const type = params.get('type');
  const pie = params.get('pie');
  return {
    days: oneOf(CHART_PERIODS, days) ? days : DEFAULT_VIEW.days,
    from: custom ? from : '',
    to: custom ? to : '',
    type: oneOf(CHART_TYPES, type) ? type : DEFAULT_VIEW.type,
    pie: oneOf(PIE_DATAS, pie) ? pie : DEFAULT_VIEW.pie,
  };
}

export function writeView(v: StatisticsView): URLSearchParams {
  const params = new URLSearchParams();
  if (v.from && v.to) {
    params.set('from', v.from);
    params.set('to', v.to);
  } else if (v.days !== DEFAULT_VIEW.days) params.set('days', String(v.days));
  if (v.type !== DEFAULT_VIEW.type) params.set('type', v.type);
  if (v.pie !== DEFAULT_VIEW.pie) params.set('pie', v.pie);
  return params;
}

/** The period selector's value: a custom range, or the preset of `days` (every chart period has one). */
export function rangeOf(v: StatisticsView): StatisticsRange {
  if (v.from) return 'custom';
  return (Object.keys(RANGE_DAYS) as (keyof typeof RANGE_DAYS)[]).find((r) => RANGE_DAYS[r] === v.days)!;
}

export function daysOfRange(range: Exclude<StatisticsRange, 'custom'>): StatisticsPeriod {
  return RANGE_DAYS[range];
}

/** Query string of GET /api/statistics/ as sent. */
export type StatisticsParams = { days: string } | { date_from: string; date_to: string };

export function toStatisticsParams(v: Pick<StatisticsView, 'days' | 'from' | 'to'>): StatisticsParams {
  return v.from && v.to ? { date_from: v.from, date_to: v.to } : { days: String(v.days) };
}
