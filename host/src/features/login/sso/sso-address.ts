import { SSO_LOGIN_PATH, takeStashedOrigin } from '../../../app/location';

/**
 * The ticket the single sign-on provider's round trip leaves in the address bar (DESIGN §4.2
 * "OIDC"): `/login/sso#ticket=…`, read once and wiped at once, so no history entry keeps it. In the
 * first chunk (called at start-up): tiny. A failure's `/login?sso_error=` is sso-error.ts's.
 */

/** undefined: not looked at yet. Memory only: the ticket is never written anywhere. */
let ticket: string | null | undefined;

/**
 * The ticket of `/login/sso#ticket=…`, or null. The first call (at start-up, and again by the page)
 * reads it and replaces the address with `/login/sso`, carrying the origin the user wanted.
 */
export function ssoTicket(): string | null {
  if (ticket === undefined) {
    if (window.location.pathname !== SSO_LOGIN_PATH) return null;
    ticket = new URLSearchParams(window.location.hash.slice(1)).get('ticket') || null;
    window.history.replaceState(takeStashedOrigin(), '', SSO_LOGIN_PATH);
  }
  return ticket;
}

/** For tests: look at the address again. */
export function forgetSsoTicketForTests() {
  ticket = undefined;
}
