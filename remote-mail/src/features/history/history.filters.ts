import { toIsoWithOffset } from '@qc/ui';
import type { HistoryAction } from '@qc/contracts';
import { NO_PERIOD, periodRange, readPeriod, writePeriod, type PeriodFilter } from '../filters/period';

/** Mirrors HISTORY_ACTIONS of @qc/contracts (types only here: the contract module loads zod). */
export const HISTORY_ACTIONS = ['download', 'release', 'delete'] as const satisfies readonly HistoryAction[];
type Covers<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : never;
const _covered: Covers<HistoryAction, (typeof HISTORY_ACTIONS)[number]> = true;

/** The history's filters, in the URL query string like the quarantine list's (a preset or custom period). */
export interface HistoryFilters extends PeriodFilter {
  /** '' = any action. */
  action: HistoryAction | '';
  /** E-mail of the user who acted; '' = anyone. */
  user: string;
  /** Keyset cursor of the page shown; null = first page. */
  cursor: string | null;
}

export const DEFAULT_HISTORY_FILTERS: Readonly<HistoryFilters> = Object.freeze({
  action: '',
  user: '',
  ...NO_PERIOD,
  cursor: null,
});

/** Query string of GET /api/history/ as sent. */
export interface HistoryQueryParams {
  action?: string;
  user?: string;
  date_from?: string;
  date_to?: string;
  cursor?: string;
  page_size: string;
}

function isAction(v: string): v is HistoryAction {
  return (HISTORY_ACTIONS as readonly string[]).includes(v);
}

/** Anything invalid in the URL falls back to its default. */
export function readHistoryFilters(params: URLSearchParams): HistoryFilters {
  const get = (name: string) => params.get(name)?.trim() ?? '';
  const action = get('action');
  return {
    action: isAction(action) ? action : '',
    user: get('user').slice(0, 320),
    ...readPeriod(get('period'), get('from'), get('to')),
    cursor: get('cursor') || null,
  };
}

export function writeHistoryFilters(f: HistoryFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.action) params.set('action', f.action);
  if (f.user) params.set('user', f.user);
  writePeriod(params, f);
  if (f.cursor) params.set('cursor', f.cursor);
  return params;
}

/** GET /api/history/ parameters: date bounds in local time, ISO 8601 with the offset. */
export function toHistoryQuery(f: HistoryFilters, pageSize: number, now = new Date()): HistoryQueryParams {
  const query: HistoryQueryParams = { page_size: String(pageSize) };
  if (f.action) query.action = f.action;
  if (f.user) query.user = f.user;
  const range = periodRange(f, now);
  if (range) {
    query.date_from = toIsoWithOffset(range.from);
    query.date_to = toIsoWithOffset(range.to);
  }
  if (f.cursor) query.cursor = f.cursor;
  return query;
}
