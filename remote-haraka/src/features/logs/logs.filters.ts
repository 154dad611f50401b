import {
  isDatePreset,
  localDaysRange,
  presetRange,
  startOfLocalDay,
  toIsoWithOffset,
  type DatePeriod,
  type LocalDateRange,
} from '@qc/ui';
import { LOG_SEVERITIES, SEARCH_DAYS, type LogSeverity } from './logs.types';

/** The logs page's filters as the URL keeps them (`?q=&severity=WARN,ERROR&hostname=&period=&from=&to=`). */
export interface LogFilters {
  q: string;
  severity: LogSeverity[];
  hostname: string;
  /** '' = the api's default window, the last 24 hours. */
  period: DatePeriod | '';
  /** 'YYYY-MM-DD' local days of a custom period; '' otherwise. */
  from: string;
  to: string;
}

export const DEFAULT_LOG_FILTERS: Readonly<LogFilters> = Object.freeze({
  q: '',
  severity: [],
  hostname: '',
  period: '',
  from: '',
  to: '',
});

/**
 * One search covers at most SEARCH_DAYS days (the api refuses more): a longer period (90 days, a
 * long custom range) is searched in windows of WINDOW_DAYS, newest first, "Load more" going on
 * into the next older one. One day below the limit, so no rounding ever reaches it.
 */
export const WINDOW_DAYS = SEARCH_DAYS - 1;

export function readLogFilters(params: URLSearchParams): LogFilters {
  const severity = (params.get('severity') ?? '')
    .split(',')
    .map((s) => s.trim().toUpperCase())
    .filter((s): s is LogSeverity => (LOG_SEVERITIES as readonly string[]).includes(s));
  const period = params.get('period') ?? '';
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const custom = period === 'custom' && localDaysRange(from, to) !== null;
  return {
    q: (params.get('q') ?? '').trim().slice(0, 200),
    // In the order of gravity, once each, whatever the link said.
    severity: LOG_SEVERITIES.filter((s) => severity.includes(s)),
    hostname: (params.get('hostname') ?? '').trim().slice(0, 255),
    period: isDatePreset(period) ? period : custom ? 'custom' : '',
    from: custom ? from : '',
    to: custom ? to : '',
  };
}

export function writeLogFilters(f: LogFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.q) params.set('q', f.q);
  if (f.severity.length) params.set('severity', f.severity.join(','));
  if (f.hostname) params.set('hostname', f.hostname);
  if (f.period) params.set('period', f.period);
  if (f.period === 'custom') {
    params.set('from', f.from);
    params.set('to', f.to);
  }
  return params;
}

export const filtersChanged = (f: LogFilters) =>
  f.q !== '' || f.severity.length > 0 || f.hostname !== '' || f.period !== '';

/** Local-time bounds of the period, or null for the api's default (the last 24 hours). */
export function periodRange(f: LogFilters, now: Date): LocalDateRange | null {
  if (f.period === 'custom') return localDaysRange(f.from, f.to);
  return f.period ? presetRange(f.period, now) : null;
}

/** Whether new lines can still fall in the period (live tail): it has no end before now. */
export function periodIncludesNow(f: LogFilters, now: Date): boolean {
  const range = periodRange(f, now);
  return range === null || range.to.getTime() >= now.getTime();
}

/** A search as sent, without its window and cursor. */
export interface LogSearch {
  q?: string;
  severity?: string;
  hostname?: string;
  page_size: number;
}

export function toLogSearch(f: LogFilters, pageSize: number): LogSearch {
  return {
    ...(f.q ? { q: f.q } : {}),
    ...(f.severity.length ? { severity: f.severity.join(',') } : {}),
    ...(f.hostname ? { hostname: f.hostname } : {}),
    page_size: pageSize,
  };
}

/** The period in epoch ms (null: the api's last 24 hours), what the query key holds. */
export interface SearchRange {
  from: number;
  to: number;
}

export function toSearchRange(f: LogFilters, now: Date): SearchRange | null {
  const range = periodRange(f, now);
  return range ? { from: range.from.getTime(), to: range.to.getTime() } : null;
}

/** Whether the period is longer than one search may cover (searched window by window). */
export const isSplit = (range: SearchRange | null) => range !== null && windowOf(range, range.to).from > range.from;

/**
 * The window ending at `to` (inclusive): the WINDOW_DAYS local days ending with `to`'s day (calendar
 * days: a daylight-saving change moves no boundary), not before the period's start.
 */
export function windowOf(range: SearchRange, to: number): { date_from: string; date_to: string; from: number } {
  const from = Math.max(range.from, startOfLocalDay(new Date(to), WINDOW_DAYS - 1).getTime());
  return { date_from: toIsoWithOffset(new Date(from)), date_to: toIsoWithOffset(new Date(to)), from };
}
