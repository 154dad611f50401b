import { isAuthError } from '@qc/auth';
import type { TFunction } from 'i18next';

/** The translated message of a failed sign-in step (spec §8; the API `detail` is never shown). */
export function loginErrorMessage(error: unknown, step: 'password' | 'totp', t: TFunction): string {
  // A 429 says how long to wait, in whole minutes (rounded up: "in 0 minutes" would be false).
  if (isAuthError(error) && error.status === 429 && error.retryAfter !== null) {
    return t('host:login.rate_limited_wait', { count: Math.ceil(error.retryAfter / 60) });
  }
  return t(loginErrorKey(error, step));
}

/** Sign-in refusals through the directory (issue 31) with a text of their own (`host:login.<code>`). */
const DIRECTORY_CODES = ['directory_unavailable', 'directory_no_domain', 'directory_address_conflict'];

/** The translation key of a failed sign-in step's message, when it needs no value. */
export function loginErrorKey(error: unknown, step: 'password' | 'totp'): string {
  if (isAuthError(error)) {
    if (error.code === 'no_partial_token') return 'host:login.partial_token_missing';
    // Before the 5xx rule: a 503 directory_unavailable says that local accounts still work.
    if (DIRECTORY_CODES.includes(error.code)) return `host:login.${error.code}`;
    if (error.status === 429) return 'host:login.rate_limited';
    if (error.status === 0 && error.code === 'network_error') return 'common:errors.network';
    // The api is up but cannot reach its database, or a proxy cannot reach the api: try again soon.
    if (error.status >= 502 && error.status <= 504) return 'common:errors.unavailable';
    if (error.status >= 500) return 'common:errors.server';
  }
  return step === 'password' ? 'host:login.error' : 'host:login.totp_error';
}
