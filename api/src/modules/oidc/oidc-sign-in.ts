import { createHmac, randomBytes } from 'node:crypto';
import type { LoginResponse } from '@qc/contracts';
import type { AppContext } from '../../app-context';
import { HttpError, unauthorized } from '../../lib/http-error';
import { deriveKey } from '../../lib/keys';
import { afterFirstFactor } from '../auth/auth.service';
import type { RequestOrigin } from '../security/security-events';
import { provisionAccount } from '../users/external-accounts.service';
import { findUserById } from '../users/users.repository';
import { OidcError, type OidcClient } from './oidc-client';
import { amrShowsSecondFactor, personFromClaims } from './oidc-person';

/**
 * Single sign-on (issue 32, DESIGN §4.2 "OIDC"). The start keeps the flow's secrets server-side,
 * bound to a cookie of the browser that started it; the callback takes them back exactly once,
 * checks the provider's answer, makes or updates the account and hands the browser a ticket; the
 * page trades the ticket (same browser, once, within a minute) for the usual login answer. No
 * token ever travels in a URL.
 */

export const FLOW_TTL_MS = 10 * 60_000;
export const TICKET_TTL_MS = 60_000;
const BROWSER_KEY = /^[A-Za-z0-9_-]{43}$/;

type Deps = Pick<AppContext, 'db' | 'config' | 'tokens'>;

/** Stored as an HMAC, so a copy of the database opens no flow and redeems no ticket. */
const digest = (secretKey: string, purpose: string, value: string) =>
  createHmac('sha256', deriveKey(secretKey, `sso:${purpose}`))
    .update(value)
    .digest('base64url');

const newSecret = () => randomBytes(32).toString('base64url');

/** The browser's key from its cookie, or a new one (the start sets it). */
export const browserKeyOr = (value: string | undefined) => (value && BROWSER_KEY.test(value) ? value : newSecret());

async function pruneExpired(deps: Deps, now: number) {
  await deps.db.deleteFrom('oidc_flows').where('expires_at', '<', now).execute();
  await deps.db.deleteFrom('sso_tickets').where('expires_at', '<', now).execute();
}

/** Where to send the browser; its flow is kept for FLOW_TTL_MS. */
export async function startSignIn(deps: Deps, oidc: OidcClient, browserKey: string): Promise<string> {
  const request = await oidc.authorizationRequest();
  const now = Date.now();
  await pruneExpired(deps, now);
  await deps.db
    .insertInto('oidc_flows')
    .values({
      state_hash: digest(deps.config.secretKey, 'state', request.state),
      browser_hash: digest(deps.config.secretKey, 'browser', browserKey),
      nonce: request.nonce,
      code_verifier: request.codeVerifier,
      created_at: now,
      expires_at: now + FLOW_TTL_MS,
    })
    .execute();
  return request.url;
}

/** The provisioning refusals as /login reads them. */
function refusalCode(err: HttpError): OidcError {
  const code =
    err.code === 'directory_address_conflict'
      ? 'address_conflict'
      : err.code === 'account_inactive'
        ? 'account_inactive'
        : 'no_domain';
  return new OidcError(code, err.detail);
}

/**
 * The provider's answer (the callback's query string) turned into a ticket for this browser, or
 * OidcError. The flow is taken once, whatever happens next: a second callback with the same state
 * finds nothing.
 */
export async function finishSignIn(
  deps: Deps,
  oidc: OidcClient,
  query: string,
  browserKey: string | undefined,
  origin: RequestOrigin,
): Promise<string> {
  const state = new URLSearchParams(query).get('state');
  if (!state) throw new OidcError('invalid_response', 'the callback carries no state');
  const now = Date.now();
  const flow = await deps.db
    .deleteFrom('oidc_flows')
    .where('state_hash', '=', digest(deps.config.secretKey, 'state', state))
    .returningAll()
    .executeTakeFirst();
  if (!flow || flow.expires_at <= now)
    throw new OidcError('expired', 'no sign-in in progress has this state (unknown, used or expired)');
  // Another browser's flow (a link someone was sent: login CSRF) is nobody's here.
  if (!browserKey || flow.browser_hash !== digest(deps.config.secretKey, 'browser', browserKey)) {
    throw new OidcError('expired', 'the sign-in was started in another browser');
  }
  const claims = await oidc.redeem(query, { state, nonce: flow.nonce, codeVerifier: flow.code_verifier });
  const oidcConfig = deps.config.oidc!;
  const person = personFromClaims(claims, oidcConfig);
  let user;
  try {
    ({ user } = await provisionAccount(deps.db, person, origin));
  } catch (err) {
    if (err instanceof HttpError) throw refusalCode(err);
    throw err;
  }
  if (user.is_active !== 1) throw new OidcError('account_inactive', `${user.email} is disabled in the console`);
  const ticket = newSecret();
  await deps.db
    .insertInto('sso_tickets')
    .values({
      ticket_hash: digest(deps.config.secretKey, 'ticket', ticket),
      browser_hash: flow.browser_hash,
      user_id: user.id,
      mfa_met: oidcConfig.trustMfa && amrShowsSecondFactor(claims.amr) ? 1 : 0,
      created_at: now,
      expires_at: Date.now() + TICKET_TTL_MS,
    })
    .execute();
  return ticket;
}

const ticketInvalid = () =>
  unauthorized('sso_ticket_invalid', 'This sign-in ticket is unknown, used already or expired: sign in again.');

/** The login answer for a ticket: once, within TICKET_TTL_MS, in the browser the sign-in started in. */
export async function exchangeTicket(
  deps: Deps,
  ticket: string,
  browserKey: string | undefined,
): Promise<LoginResponse> {
  const row = await deps.db
    .deleteFrom('sso_tickets')
    .where('ticket_hash', '=', digest(deps.config.secretKey, 'ticket', ticket))
    .returningAll()
    .executeTakeFirst();
  if (!row || row.expires_at <= Date.now()) throw ticketInvalid();
  if (!browserKey || row.browser_hash !== digest(deps.config.secretKey, 'browser', browserKey)) throw ticketInvalid();
  const user = await findUserById(deps.db, row.user_id);
  // Disabled meanwhile (by an administrator, within the ticket's minute).
  if (!user || user.is_active !== 1) throw unauthorized('account_inactive', 'This account is disabled.');
  return afterFirstFactor(deps, user, { mfaMet: row.mfa_met === 1 });
}
