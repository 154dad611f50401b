import { api } from '@qc/api-client';
import type { FilterType, RspamdListName, RspamdStatus, RuleBulkRequest, RuleBulkResponse } from './rules.types';
import { FILTER_LISTS } from './rules.types';

/**
 * Calls of the Rspamd rule endpoints (DESIGN §4.1, admin only). The three kinds share one shape:
 * `GET/POST <base>`, `GET/PATCH/DELETE <base><id>/`, `POST <base>bulk/`; POST and PATCH with
 * `?dry_run=true` validate and normalise without saving (400 with `errors.<field>`).
 */
export interface RuleEndpoint {
  /** Below /api/, with its trailing slash: `rspamd/filters/domains/`, `rspamd/apanel-filters/`… */
  base: string;
  /** The list Rspamd fetches these rules in (its status line). */
  list: RspamdListName;
  /** react-query key prefix of these rules. */
  key: readonly string[];
}

export const filtersEndpoint = (type: FilterType): RuleEndpoint => ({
  base: `rspamd/filters/${type}/`,
  list: FILTER_LISTS[type],
  key: ['rspamd', 'filters', type],
});
export const APANEL_ENDPOINT: RuleEndpoint = {
  base: 'rspamd/apanel-filters/',
  list: 'apanel-filters',
  key: ['rspamd', 'apanel-filters'],
};
export const SYSTEM_ENDPOINT: RuleEndpoint = {
  base: 'rspamd/system-rules/',
  list: 'system-rules',
  key: ['rspamd', 'system-rules'],
};

/** Query string of a list (ky leaves out the undefined ones). */
export type RuleListParams = {
  q?: string;
  action?: string;
  pattern_type?: string;
  enabled?: 'true' | 'false';
  owner?: string;
  cursor?: string;
  page_size: string;
};

export interface RulePage<T> {
  results: T[];
  next_cursor: string | null;
}

const rulePath = (ep: RuleEndpoint, id: string) => `${ep.base}${encodeURIComponent(id)}/`;
const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});
const DRY_RUN = { dry_run: 'true' };

/** GET <base>: one keyset page, newest first. */
export function listRules<T>(ep: RuleEndpoint, query: RuleListParams, signal?: AbortSignal): Promise<RulePage<T>> {
  return api.get(ep.base, { searchParams: query, ...withSignal(signal) }).json<RulePage<T>>();
}

/** GET <base><id>/ (404 when unknown, or of another family). */
export function getRule<T>(ep: RuleEndpoint, id: string, signal?: AbortSignal): Promise<T> {
  return api.get(rulePath(ep, id), withSignal(signal)).json<T>();
}

/** POST <base>: 201 the rule as stored; with `dryRun`, the rule as it would be stored, nothing saved. */
export function createRule<T>(ep: RuleEndpoint, body: object, dryRun = false, signal?: AbortSignal): Promise<T> {
  return api
    .post(ep.base, { json: body, ...(dryRun ? { searchParams: DRY_RUN } : {}), ...withSignal(signal) })
    .json<T>();
}

/** PATCH <base><id>/ with the changed fields; with `dryRun`, validated and normalised only. */
export function updateRule<T>(
  ep: RuleEndpoint,
  id: string,
  body: object,
  dryRun = false,
  signal?: AbortSignal,
): Promise<T> {
  return api
    .patch(rulePath(ep, id), { json: body, ...(dryRun ? { searchParams: DRY_RUN } : {}), ...withSignal(signal) })
    .json<T>();
}

/** DELETE <base><id>/ → 204. */
export async function deleteRule(ep: RuleEndpoint, id: string): Promise<void> {
  await api.delete(rulePath(ep, id));
}

/** POST <base>bulk/: the same change on each id; one result per id (`ok` or `not_found`). */
export function bulkRules(ep: RuleEndpoint, body: RuleBulkRequest): Promise<RuleBulkResponse> {
  return api.post(`${ep.base}bulk/`, { json: body }).json<RuleBulkResponse>();
}

/** GET /api/rspamd/status/: per list, when Rspamd last fetched it and whether the last change is live. */
export function getRspamdStatus(signal?: AbortSignal): Promise<RspamdStatus> {
  return api.get('rspamd/status/', withSignal(signal)).json<RspamdStatus>();
}
