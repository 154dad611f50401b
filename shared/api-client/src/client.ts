import type { CurrentUser, DashboardCounts } from '@qc/contracts';
import ky, { type HTTPError, type KyInstance } from 'ky';
import { authFetch } from './auth-fetch';

export const API_PREFIX = '/api';

/** The app's ky instance (bundled into each app). Retries are react-query's business, not ky's. */
export const api: KyInstance = ky.create({
  // The API is always on the console's origin (DESIGN §4), also for a remote served from elsewhere.
  ...(typeof location !== 'undefined' ? { baseUrl: `${location.origin}/` } : {}),
  prefix: API_PREFIX,
  retry: 0,
  timeout: 30_000,
  headers: { Accept: 'application/json' },
  fetch: authFetch,
});

/**
 * For calls that wait on the mail relay: a release (the relay may take minutes to answer) and a bulk
 * release (up to 500 of them, four at a time). The 30 s default would give up while the server goes
 * on, and show a connection error for an action that then completes.
 */
export const LONG_ACTION_TIMEOUT_MS = 10 * 60_000;

/** GET /api/users/me/ */
export function getCurrentUser(): Promise<CurrentUser> {
  return api.get('users/me/').json<CurrentUser>();
}

/** GET /api/dashboard/: counts of what the caller may see. */
export function getDashboardCounts(): Promise<DashboardCounts> {
  return api.get('dashboard/').json<DashboardCounts>();
}

export interface ApiErrorInfo {
  /** HTTP status, 0 when no answer came. */
  status: number;
  code: string;
  detail: string;
  errors?: Record<string, string>;
  /** Seconds a 429's Retry-After asks to wait (absent: not said). */
  retryAfter?: number;
}

/**
 * ky's own guards compare an error with their class (instanceof, else the class's name, which the
 * minifier renames): the host's copy of ky did not know an error thrown by a remote's copy, so the
 * host's query client took a remote's 404 for a network failure and asked again. These go by the
 * name ky gives its errors.
 */
const kyErrorNamed = (error: unknown, name: string): error is Error => error instanceof Error && error.name === name;
export const isHTTPError = (error: unknown): error is HTTPError =>
  kyErrorNamed(error, 'HTTPError') && 'response' in error;

/** Normalises any error of a call into {status, code, detail} (the API's error body when there is one). */
export function readApiError(error: unknown): ApiErrorInfo {
  if (isHTTPError(error)) {
    const data = error.data as { detail?: unknown; code?: unknown; errors?: unknown } | undefined;
    const retryAfter = Number(error.response.headers.get('retry-after') ?? NaN);
    return {
      status: error.response.status,
      code: typeof data?.code === 'string' ? data.code : `http_${error.response.status}`,
      detail: typeof data?.detail === 'string' ? data.detail : error.message,
      ...(data?.errors && typeof data.errors === 'object' ? { errors: data.errors as Record<string, string> } : {}),
      ...(Number.isFinite(retryAfter) && retryAfter > 0 ? { retryAfter } : {}),
    };
  }
  if (kyErrorNamed(error, 'TimeoutError')) return { status: 0, code: 'timeout', detail: error.message };
  if (kyErrorNamed(error, 'NetworkError')) return { status: 0, code: 'network_error', detail: error.message };
  return { status: 0, code: 'unknown', detail: error instanceof Error ? error.message : String(error) };
}

/**
 * A 429's wait as the message says it: seconds up to two minutes, else whole minutes (a per-minute
 * budget of the api waits at most 60 s; a sign-in or feedback limit may ask for much longer).
 */
function rateLimitWait(retryAfter: number): { unit: 'seconds' | 'minutes'; count: number } {
  return retryAfter <= 120
    ? { unit: 'seconds', count: Math.ceil(retryAfter) }
    : { unit: 'minutes', count: Math.ceil(retryAfter / 60) };
}

/**
 * The `common` i18n key and values of a 429 that asks to wait `retryAfter` seconds (unsaid: none);
 * also for a refusal reported inside an answer (a step's `retry_after`).
 */
export function rateLimitedMessage(retryAfter?: number | null): [key: string, values: { count?: number }] {
  if (!retryAfter) return ['errors.rate_limited', {}];
  const { unit, count } = rateLimitWait(retryAfter);
  return [`errors.rate_limited_${unit}`, { count }];
}

/** The i18n values of errorMessageKey's text (a 429's wait: `count`); pass them with the key. */
export function errorMessageValues(error: unknown): { count?: number } {
  const { status, retryAfter } = readApiError(error);
  return status === 429 ? rateLimitedMessage(retryAfter)[1] : {};
}

/**
 * The `common` i18n key for an error, by status (the API's `detail` is English; the UI translates).
 * A 429 that says how long to wait needs errorMessageValues(error) for its `count`.
 */
export function errorMessageKey(error: unknown): string {
  const { status, code, retryAfter } = readApiError(error);
  if (code === 'network_error') return 'errors.network';
  if (code === 'timeout') return 'errors.timeout';
  if (status === 401) return 'errors.unauthenticated';
  if (status === 403) return 'errors.forbidden';
  if (status === 404) return 'errors.not_found';
  if (status === 429) return rateLimitedMessage(retryAfter)[0];
  // 503 database_unavailable (with Retry-After) while the api's database is unreachable; 502/504
  // from a proxy while the api restarts: temporary, said as such, not as a server fault.
  if (code === 'database_unavailable' || status === 502 || status === 503 || status === 504)
    return 'errors.unavailable';
  if (status >= 500) return 'errors.server';
  return 'errors.unknown';
}
