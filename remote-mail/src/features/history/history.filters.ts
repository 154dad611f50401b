import { toIsoWithOffset } from '@qc/ui';
import type { HistoryAction, HistoryCategory } from '@qc/contracts';
import { NO_PERIOD, periodRange, readPeriod, writePeriod, type PeriodFilter } from '../filters/period';

/**
 * Mirrors HISTORY_CATEGORIES of @qc/contracts (types only here: the contract module loads zod).
 * The compiler checks that every action is listed; history.filters.test.ts that each sits in the
 * contract's category.
 */
export const HISTORY_CATEGORY_ACTIONS = {
  mail: ['download', 'release', 'delete', 'learn_spam', 'learn_ham'],
  administration: [
    'user_create',
    'user_update',
    'user_delete',
    'mfa_reset',
    'domain_create',
    'domain_update',
    'domain_delete',
    'filter_create',
    'filter_update',
    'filter_delete',
  ],
  lists: ['list_add', 'list_remove', 'list_clear'],
  security: [
    'login_failed',
    'account_locked',
    'refresh_reuse',
    'totp_replay',
    'mfa_enabled',
    'mfa_disabled',
    'password_changed',
  ],
} as const satisfies Record<HistoryCategory, readonly HistoryAction[]>;
export const HISTORY_CATEGORIES = Object.keys(HISTORY_CATEGORY_ACTIONS) as HistoryCategory[];
export const HISTORY_ACTIONS: readonly HistoryAction[] = Object.values(HISTORY_CATEGORY_ACTIONS).flat();
type Covers<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : never;
const _covered: Covers<HistoryAction, (typeof HISTORY_CATEGORY_ACTIONS)[HistoryCategory][number]> = true;
const _categories: Covers<HistoryCategory, keyof typeof HISTORY_CATEGORY_ACTIONS> = true;

export type MailAction = (typeof HISTORY_CATEGORY_ACTIONS.mail)[number];
/** Download, release, delete or learn of a quarantined e-mail (rows with an `email_id`). */
export function isMailAction(action: HistoryAction): action is MailAction {
  return (HISTORY_CATEGORY_ACTIONS.mail as readonly string[]).includes(action);
}

/** The actions the action filter offers: those of the category chosen, or all. */
export function actionsOf(category: HistoryCategory | ''): readonly HistoryAction[] {
  return category ? HISTORY_CATEGORY_ACTIONS[category] : HISTORY_ACTIONS;
}

/** The history's filters, in the URL query string like the quarantine list's (a preset or custom period). */
export interface HistoryFilters extends PeriodFilter {
  /** '' = every category. */
  category: HistoryCategory | '';
  /** '' = any action (of the category). */
  action: HistoryAction | '';
  /** E-mail of the user who acted; '' = anyone. */
  user: string;
  /** Keyset cursor of the page shown; null = first page. */
  cursor: string | null;
}

export const DEFAULT_HISTORY_FILTERS: Readonly<HistoryFilters> = Object.freeze({
  category: '',
  action: '',
  user: '',
  ...NO_PERIOD,
  cursor: null,
});

/** Query string of GET /api/history/ as sent. */
export interface HistoryQueryParams {
  category?: string;
  action?: string;
  user?: string;
  date_from?: string;
  date_to?: string;
  cursor?: string;
  page_size: string;
}

function isCategory(v: string): v is HistoryCategory {
  return (HISTORY_CATEGORIES as string[]).includes(v);
}

/** Anything invalid in the URL falls back to its default (an action outside the category too). */
export function readHistoryFilters(params: URLSearchParams): HistoryFilters {
  const get = (name: string) => params.get(name)?.trim() ?? '';
  const category = get('category');
  const known = isCategory(category) ? category : '';
  const action = actionsOf(known).find((a) => a === get('action'));
  return {
    category: known,
    action: action ?? '',
    user: get('user').slice(0, 320),
    ...readPeriod(get('period'), get('from'), get('to')),
    cursor: get('cursor') || null,
  };
}

export function writeHistoryFilters(f: HistoryFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.category) params.set('category', f.category);
  if (f.action) params.set('action', f.action);
  if (f.user) params.set('user', f.user);
  writePeriod(params, f);
  if (f.cursor) params.set('cursor', f.cursor);
  return params;
}

/** GET /api/history/ parameters: date bounds in local time, ISO 8601 with the offset. */
export function toHistoryQuery(f: HistoryFilters, pageSize: number, now = new Date()): HistoryQueryParams {
  const query: HistoryQueryParams = { page_size: String(pageSize) };
  if (f.category) query.category = f.category;
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
