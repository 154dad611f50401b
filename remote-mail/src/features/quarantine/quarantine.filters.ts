import { toIsoWithOffset } from '@qc/ui';
import { periodRange, readPeriod, type PeriodFilter } from '../filters/period';
import {
  EMAIL_ACTIONS,
  LIMITS,
  SORT_KEYS,
  STATUS_FILTERS,
  type ListQueryParams,
  type QuarantineStatusFilter,
  type SortKey,
  type SortOrder,
} from './quarantine.types';

const MAX_PAGE_SIZE = LIMITS.maxPageSize;

/**
 * The list's filters live in the URL query string (shareable; Back undoes a change). Pure helpers:
 * URL ⇄ filters ⇄ API query. A date preset stays a preset in the URL ("last 7 days" means the 7 days
 * before whenever the link is opened); the absolute bounds are computed in local time when querying.
 */
export interface QuarantineFilters extends PeriodFilter {
  status: QuarantineStatusFilter;
  q: string;
  sender: string;
  recipient: string;
  /** '' = any action. */
  action: string;
  /** Decimal strings, '' = no bound. */
  scoreMin: string;
  scoreMax: string;
  /** Server-side sort: newest first by default. */
  sort: SortKey;
  order: SortOrder;
  /** null = the user's preferred page size. */
  pageSize: number | null;
  /** Keyset cursor of the page shown; null = first page. */
  cursor: string | null;
}

export const DEFAULT_FILTERS: Readonly<QuarantineFilters> = Object.freeze({
  status: 'pending',
  q: '',
  sender: '',
  recipient: '',
  action: '',
  scoreMin: '',
  scoreMax: '',
  period: '',
  from: '',
  to: '',
  sort: 'date',
  order: 'desc',
  pageSize: null,
  cursor: null,
});

/** URL parameter of each filter (API names where they exist). */
export const URL_PARAM: Record<keyof QuarantineFilters, string> = {
  status: 'status',
  q: 'q',
  sender: 'sender',
  recipient: 'recipient',
  action: 'action',
  scoreMin: 'score_min',
  scoreMax: 'score_max',
  period: 'period',
  from: 'from',
  to: 'to',
  sort: 'sort',
  order: 'order',
  pageSize: 'page_size',
  cursor: 'cursor',
};

const SCORE = /^-?\d{1,6}(\.\d{1,3})?$/;

function isStatus(v: string | null): v is QuarantineStatusFilter {
  return v !== null && (STATUS_FILTERS as readonly string[]).includes(v);
}

/** Anything invalid in the URL falls back to its default (a hand-edited link never breaks the page). */
export function readFilters(params: URLSearchParams): QuarantineFilters {
  const get = (k: keyof QuarantineFilters) => params.get(URL_PARAM[k])?.trim() ?? '';
  const status = get('status');
  const action = get('action');
  const period = get('period');
  const size = Number(get('pageSize'));
  const { period: validPeriod, from, to } = readPeriod(period, get('from'), get('to'));
  const scoreMin = SCORE.test(get('scoreMin')) ? get('scoreMin') : '';
  // Bounds in reverse are kept: the fields say what is wrong (scoreRangeReversed) and the list waits.
  const scoreMax = SCORE.test(get('scoreMax')) ? get('scoreMax') : '';
  const sort = get('sort');
  return {
    status: isStatus(status) ? status : DEFAULT_FILTERS.status,
    q: get('q'),
    sender: get('sender'),
    recipient: get('recipient'),
    action: (EMAIL_ACTIONS as readonly string[]).includes(action) ? action : '',
    scoreMin,
    scoreMax,
    period: validPeriod,
    from,
    to,
    sort: (SORT_KEYS as readonly string[]).includes(sort) ? (sort as SortKey) : DEFAULT_FILTERS.sort,
    order: get('order') === 'asc' ? 'asc' : 'desc',
    pageSize: Number.isInteger(size) && size > 0 && size <= MAX_PAGE_SIZE ? size : null,
    cursor: get('cursor') || null,
  };
}

/** The query string of some filters: defaults and empty values are left out. */
export function writeFilters(f: QuarantineFilters): URLSearchParams {
  const params = new URLSearchParams();
  for (const key of Object.keys(URL_PARAM) as (keyof QuarantineFilters)[]) {
    const value = f[key];
    if (value === null || value === '' || value === DEFAULT_FILTERS[key]) continue;
    if ((key === 'from' || key === 'to') && f.period !== 'custom') continue;
    params.set(URL_PARAM[key], String(value));
  }
  return params;
}

/** Filters changed by `patch`; any change other than the cursor goes back to the first page. */
export function patchFilters(f: QuarantineFilters, patch: Partial<QuarantineFilters>): QuarantineFilters {
  const next = { ...f, ...patch };
  if (!('cursor' in patch)) next.cursor = null;
  if (next.period !== 'custom') {
    next.from = '';
    next.to = '';
  }
  return next;
}

/** GET /api/quarantine/ parameters: dates as ISO 8601 with the local offset. */
export function toListQuery(f: QuarantineFilters, pageSize: number, now = new Date()): ListQueryParams {
  const range = periodRange(f, now);
  const query: ListQueryParams = {
    status: f.status,
    page_size: String(Math.min(Math.max(1, Math.trunc(pageSize)), MAX_PAGE_SIZE)),
  };
  if (f.q) query.q = f.q;
  if (f.sender) query.sender = f.sender;
  if (f.recipient) query.recipient = f.recipient;
  if (f.action) query.action = f.action;
  if (f.scoreMin) query.score_min = f.scoreMin;
  if (f.scoreMax) query.score_max = f.scoreMax;
  if (range) {
    query.date_from = toIsoWithOffset(range.from);
    query.date_to = toIsoWithOffset(range.to);
  }
  if (f.sort !== DEFAULT_FILTERS.sort) query.sort = f.sort;
  if (f.order !== DEFAULT_FILTERS.order) query.order = f.order;
  if (f.cursor) query.cursor = f.cursor;
  return query;
}

/** Min. score above max.: the api refuses it (400), so the fields show the error and nothing is asked. */
export function scoreRangeReversed(f: Pick<QuarantineFilters, 'scoreMin' | 'scoreMax'>): boolean {
  return f.scoreMin !== '' && f.scoreMax !== '' && Number(f.scoreMin) > Number(f.scoreMax);
}
