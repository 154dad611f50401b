import { isDatePreset, localDaysRange, presetRange, type DatePeriod, type LocalDateRange } from '@qc/ui';

/**
 * A date filter as the URL keeps it: a preset ("last 7 days" means the 7 days before whenever the
 * link is opened) or a custom range of local days; absolute bounds are computed when querying.
 */
export interface PeriodFilter {
  /** '' = any date. */
  period: DatePeriod | '';
  /** 'YYYY-MM-DD' local days of a custom period; '' otherwise. */
  from: string;
  to: string;
}

export const NO_PERIOD: Readonly<PeriodFilter> = Object.freeze({ period: '', from: '', to: '' });

/** The URL's values, checked: anything invalid (a hand-edited link) is "any date". */
export function readPeriod(period: string, from: string, to: string): PeriodFilter {
  if (isDatePreset(period)) return { period, from: '', to: '' };
  if (period === 'custom' && localDaysRange(from, to) !== null) return { period, from, to };
  return { ...NO_PERIOD };
}

/** Writes the period's URL parameters (none for "any date"; the days only for a custom range). */
export function writePeriod(params: URLSearchParams, f: PeriodFilter): void {
  if (!f.period) return;
  params.set('period', f.period);
  if (f.period === 'custom') {
    params.set('from', f.from);
    params.set('to', f.to);
  }
}

/** Local-time bounds of the period, or null for "any date". */
export function periodRange(f: PeriodFilter, now = new Date()): LocalDateRange | null {
  if (f.period === 'custom') return localDaysRange(f.from, f.to);
  return f.period ? presetRange(f.period, now) : null;
}
