import { isAuthError } from '@qc/auth';
import type { TFunction } from 'i18next';
import { registerSsoStrings } from '../../../i18n/sso';
import { loginErrorKey, loginErrorMessage } from '../login-errors';

// Lazy "sso" chunk: it brings its own texts.
registerSsoStrings();

/**
 * SSO_ERRORS of @qc/contracts (a test checks they are the same): not imported from there, so this
 * chunk carries no zod.
 */
export const SSO_ERROR_CODES = [
  'cancelled',
  'no_domain',
  'address_conflict',
  'account_inactive',
  'email_not_verified',
  'provider_unreachable',
  'clock_skew',
  'invalid_response',
  'expired',
  'provider_error',
  'not_configured',
  'rate_limited',
] as const;

/** The translation key of `/login?sso_error=<code>`; a code this console does not know reads as a failure. */
export function ssoErrorKey(code: string): string {
  return `host:sso.errors.${(SSO_ERROR_CODES as readonly string[]).includes(code) ? code : 'unknown'}`;
}

/**
 * A failed ticket exchange: the network, a rate limit or the api's own failures read as after a
 * password; a refused ticket (401 sso_ticket_invalid: used, unknown, over 60 s) means "start again".
 */
export function ssoExchangeErrorMessage(error: unknown, t: TFunction): string {
  if (isAuthError(error) && error.code === 'oidc_not_configured') return t(ssoErrorKey('not_configured'));
  return loginErrorKey(error, 'password') === 'host:login.error'
    ? t(ssoErrorKey('expired'))
    : loginErrorMessage(error, 'password', t);
}
