import { useSession } from '@qc/auth';
import { notify } from '@qc/ui-state';
import type { TFunction } from 'i18next';
import { showLoginPage } from '../../../app/location';
import { ssoExchangeErrorMessage } from './sso-messages';

interface SentTicket {
  ticket: string;
  /** The api answered (or did not): the ticket is spent either way. */
  settled: boolean;
}
/** The last ticket sent: each is single-use, and StrictMode runs the page's effect twice. */
let last: SentTicket | null = null;

/**
 * Trades the ticket for a session. Signed in: the host's guard leaves /login/sso for the remembered
 * origin (as after a password). A second factor to give or to set up: /login, whose step the session
 * state draws. Refused or failed: /login with the reason. Without a ticket: /login.
 */
export function signInWithTicket(ticket: string | null, t: TFunction, onStart?: () => void) {
  if (ticket && last?.ticket === ticket) {
    if (last.settled) showLoginPage(); // a spent ticket is never sent again
    return;
  }
  if (!ticket) {
    showLoginPage();
    return;
  }
  const run: SentTicket = { ticket, settled: false };
  last = run;
  onStart?.();
  void useSession
    .getState()
    .exchangeSsoTicket(ticket)
    .then(
      (outcome) => {
        if (outcome === 'authenticated') notify({ type: 'success', title: t('login.success') });
        else showLoginPage();
      },
      (error: unknown) => {
        notify({ type: 'error', title: ssoExchangeErrorMessage(error, t) });
        showLoginPage();
      },
    )
    .finally(() => {
      run.settled = true;
    });
}

/** For tests: forget the tickets sent. */
export function forgetSentTicketForTests() {
  last = null;
}
