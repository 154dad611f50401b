import { isAuthError } from '@qc/auth';

/** The translated key to show for a failed sign-in step (spec §8; the API `detail` is never shown). */
export function loginErrorKey(error: unknown, step: 'password' | 'totp'): string {
  if (isAuthError(error)) {
    if (error.code === 'no_partial_token') return 'host:login.partial_token_missing';
    if (error.status === 429) return 'host:login.rate_limited';
    if (error.status === 0 && error.code === 'network_error') return 'common:errors.network';
    if (error.status >= 500) return 'common:errors.server';
  }
  return step === 'password' ? 'host:login.error' : 'host:login.totp_error';
}
