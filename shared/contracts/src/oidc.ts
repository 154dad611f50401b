import { z } from 'zod';

/**
 * Single sign-on with OpenID Connect (issue 32, DESIGN §4.2 "OIDC"). The browser goes to
 * GET /api/auth/oidc/start/, signs in at the provider, comes back through the callback to
 * `/login/sso#ticket=…` and trades the single-use ticket for the usual login answer; a failure comes
 * back as `/login?sso_error=<one of SSO_ERRORS>`.
 */
export const OidcInfo = z.object({
  enabled: z.boolean(),
  /** The button's text: "Sign in with <label>" (QC_OIDC_LABEL). */
  label: z.string().nullable(),
  /**
   * The provider's sign-out page (RP-initiated logout, back to /login), when it offers one and has
   * been reached once: the host sends an OIDC account there after ending the console session.
   */
  end_session_url: z.string().nullable(),
});
export type OidcInfo = z.infer<typeof OidcInfo>;

export const SSO_TICKET_MAX = 128;
export const SsoExchangeRequest = z.object({ ticket: z.string().min(1).max(SSO_TICKET_MAX) });
export type SsoExchangeRequest = z.infer<typeof SsoExchangeRequest>;

/** Why a single sign-on came back to /login (`?sso_error=`); each has a message in both languages. */
export const SSO_ERRORS = [
  'cancelled', // the person cancelled (or refused consent) at the provider
  'no_domain', // none of the person's addresses is in a console domain: nothing created
  'address_conflict', // an address of the person belongs to another console account
  'account_inactive', // the console account is disabled
  'email_not_verified', // the provider does not vouch for the e-mail address
  'provider_unreachable', // the provider did not answer (the local sign-in still works)
  'clock_skew', // the ID token's times do not fit this server's clock
  'invalid_response', // state, nonce, signature, audience, issuer… did not check out: nothing done
  'expired', // the sign-in took too long, or was started in another browser: start again
  'provider_error', // the provider answered with an error of its own
  'not_configured', // single sign-on is not set up (QC_OIDC_ISSUER unset)
  'rate_limited', // too many sign-ins started from this address: wait a little
] as const;
export type SsoError = (typeof SSO_ERRORS)[number];
