import type { LoginResponse, Role, TokenPair, UserSource } from '@qc/contracts';
import type { AppContext } from '../../app-context';
import type { Config } from '../../config';
import { normaliseAddress } from '../../lib/addresses';
import { HttpError, unauthorized } from '../../lib/http-error';
import type { Directory } from '../directory/directory';
import { directoryAllowsRefresh, directorySignIn } from '../directory/directory-sign-in';
import { idTime, newId } from '../../lib/ids';
import { findSecuritySubject } from '../security/security.repository';
import {
  logSecurityEvent,
  recordSecurityEvent,
  sendSecurityNotice,
  type RequestOrigin,
} from '../security/security-events';
import { findUserByEmail, type UserRow } from '../users/users.repository';
import {
  findSessionByRefreshHash,
  findSessionContext,
  insertSession,
  markRotated,
  recordLastLogin,
  revokeFamily,
  type SessionContextRow,
} from './auth.repository';
import type { TokenClaims } from './tokens';
import { generateRefreshToken, hashRefreshToken, openGracePair, sealGracePair } from './refresh-tokens';

export interface AuthContext {
  sessionId: string;
  familyId: string;
  user: SessionContextRow;
}

type AuthDeps = Pick<AppContext, 'db' | 'config' | 'passwords' | 'tokens' | 'mailer'> & {
  directory?: AppContext['directory'];
};

const invalidCredentials = () => unauthorized('invalid_credentials', 'Invalid e-mail or password.');
const invalidRefresh = () => unauthorized('token_invalid', 'The refresh token is not valid.');

/**
 * A refresh token row. Each rotation gives a new lifetime, but never past the sign-in's maximum
 * age (the family id is the first row's id, made when the password was given).
 */
function sessionRow(
  deps: Pick<AuthDeps, 'config'>,
  id: string,
  user: { id: string; source: UserSource },
  familyId: string,
  refresh: string,
  now: number,
) {
  const { refreshTtl } = deps.config;
  const sessionMaxAge = maxSessionAge(deps.config, user.source);
  const userId = user.id;
  return {
    id,
    user_id: userId,
    family_id: familyId,
    refresh_hash: hashRefreshToken(refresh),
    created_at: now,
    expires_at: Math.min(now + refreshTtl * 1000, idTime(familyId) + sessionMaxAge * 1000),
    rotated_at: null,
    replaced_by: null,
    grace_pair: null,
    revoked_at: null,
  };
}

/**
 * How long a sign-in lasts at most. A single sign-on account is never looked up at the provider
 * again, so someone removed there (or out of the admins' group) keeps a session this long at most:
 * QC_OIDC_SESSION_MAX_AGE, shorter than the console's own.
 */
export function maxSessionAge(config: Pick<Config, 'sessionMaxAge' | 'oidc'>, source: UserSource): number {
  return source === 'oidc' && config.oidc
    ? Math.min(config.sessionMaxAge, config.oidc.sessionMaxAge)
    : config.sessionMaxAge;
}

/**
 * Starts a new sign-in (a new token family): every path that issues tokens after a password
 * (login, second factor, set-up) comes here, so it records the user's last sign-in.
 */
export async function startSession(
  deps: Pick<AuthDeps, 'db' | 'config' | 'tokens'>,
  user: { id: string; source: UserSource },
): Promise<TokenPair> {
  const now = Date.now();
  const id = newId(now);
  const refresh = generateRefreshToken();
  await deps.db.transaction().execute(async (trx) => {
    await insertSession(trx, sessionRow(deps, id, user, id, refresh, now));
    await recordLastLogin(trx, user.id, now);
  });
  return { access: await deps.tokens.signAccess(user.id, id), refresh };
}

/**
 * Two-factor is mandatory for this account: an administrator required it (mfa_required, which stays
 * set once it is on: it means "must have it", so it cannot be turned off), or its role is in
 * QC_MFA_REQUIRED_ROLES.
 */
export function mfaMandatory(config: Pick<Config, 'mfaRequiredRoles'>, user: { mfa_required: number; role: Role }) {
  return user.mfa_required === 1 || config.mfaRequiredRoles.includes(user.role);
}

/** A failed sign-in: the log always, the history only for an existing account. */
async function signInFailed(
  deps: AuthDeps,
  origin: RequestOrigin,
  account: string,
  user: UserRow | null,
  code: string,
) {
  const subject = user ? ((await findSecuritySubject(deps.db, { id: user.id })) ?? null) : null;
  await recordSecurityEvent(deps.db, origin, { name: 'login_failed', account, subject, code });
}

export async function login(
  deps: AuthDeps,
  rawEmail: string,
  password: string,
  origin: RequestOrigin,
): Promise<LoginResponse> {
  const account = normaliseAddress(rawEmail); // the route's schema did it already; direct callers too
  const known = await findUserByEmail(deps.db, account);
  // A local account keeps its own password beside the directory (the way back in when it is down).
  const user =
    deps.directory && known?.source !== 'local'
      ? await viaDirectory(deps, deps.directory, account, password, origin, known)
      : await viaPassword(deps, account, password, origin, known);
  // Told only to someone who knows the password, so it reveals nothing to a guesser.
  if (user.is_active !== 1) {
    await signInFailed(deps, origin, account, user, 'account_inactive');
    throw unauthorized('account_inactive', 'This account is disabled.');
  }
  return afterFirstFactor(deps, user, { mfaMet: false });
}

/**
 * The login answer once the first factor is given (a password, or the OpenID Provider's word): a
 * session, or the console's own second factor first. `mfaMet`: the provider did a second factor
 * that QC_OIDC_TRUST_MFA lets count, so neither the code nor its set-up is asked.
 */
export async function afterFirstFactor(
  deps: Pick<AuthDeps, 'db' | 'config' | 'tokens'>,
  user: Pick<UserRow, 'id' | 'mfa_enabled' | 'mfa_required' | 'role' | 'source'>,
  { mfaMet }: { mfaMet: boolean },
): Promise<LoginResponse> {
  if (mfaMet) return startSession(deps, user);
  if (user.mfa_enabled === 1) {
    return { requires_2fa: true, partial_token: await deps.tokens.signPartial(user.id) };
  }
  // No access before two-factor is set up: the set-up token opens only the two set-up routes.
  if (mfaMandatory(deps.config, user)) {
    return { requires_2fa_setup: true, partial_token: await deps.tokens.signSetup(user.id) };
  }
  return startSession(deps, user);
}

async function viaPassword(
  deps: AuthDeps,
  account: string,
  password: string,
  origin: RequestOrigin,
  user: UserRow | undefined,
): Promise<UserRow> {
  if (!user) {
    await deps.passwords.verifyDummy(password);
    logSecurityEvent(origin, { name: 'login_failed', account, subject: null });
    throw invalidCredentials();
  }
  // A directory account without the directory (QC_LDAP_URL unset) has no password here to match.
  const local = user.source === 'local';
  if (!(await deps.passwords.verify(local ? user.password_hash : '', password))) {
    await signInFailed(deps, origin, account, user, 'invalid_credentials');
    throw invalidCredentials();
  }
  return user;
}

async function viaDirectory(
  deps: AuthDeps,
  directory: Directory,
  account: string,
  password: string,
  origin: RequestOrigin,
  known: UserRow | undefined,
): Promise<UserRow> {
  let user: UserRow | null;
  try {
    user = await directorySignIn(deps, directory, account, password, origin);
  } catch (err) {
    if (err instanceof HttpError && err.statusCode < 500)
      await signInFailed(deps, origin, account, known ?? null, err.code);
    throw err;
  }
  if (!user) {
    if (known) await signInFailed(deps, origin, account, known, 'invalid_credentials');
    else logSecurityEvent(origin, { name: 'login_failed', account, subject: null });
    throw invalidCredentials();
  }
  return user;
}

/**
 * Rotation (DESIGN §4): a live token is replaced by a new pair. A replaced token presented again
 * within QC_REFRESH_GRACE (concurrent tabs) gets the very same pair back; later, it is treated as
 * stolen and the whole family is revoked — the newest tokens included.
 */
export async function refresh(deps: AuthDeps, token: string, origin: RequestOrigin): Promise<TokenPair> {
  const now = Date.now();
  const hash = hashRefreshToken(token);
  let row = await findSessionByRefreshHash(deps.db, hash);
  if (!row || row.revoked_at !== null || row.user_active !== 1) throw invalidRefresh();

  if (row.replaced_by === null) {
    if (row.expires_at <= now) throw unauthorized('token_expired', 'The refresh token has expired.');
    // A directory account is looked up again: removed, disabled or changed there ends the session.
    if (deps.directory && !(await directoryAllowsRefresh(deps, deps.directory, row.user_id, origin))) {
      throw unauthorized('session_revoked', 'The session has ended.');
    }
    const id = newId(now);
    const next = generateRefreshToken();
    const pair = { access: await deps.tokens.signAccess(row.user_id, id), refresh: next };
    const current = row;
    const won = await deps.db.transaction().execute(async (trx) => {
      const sealed = sealGracePair(deps.config.secretKey, token, current.id, pair);
      if (!(await markRotated(trx, current.id, id, now, sealed))) return false;
      await insertSession(
        trx,
        sessionRow(deps, id, { id: current.user_id, source: current.user_source }, current.family_id, next, now),
      );
      return true;
    });
    if (won) return pair;
    // A concurrent request rotated it first: answer like any reuse within the grace period.
    row = await findSessionByRefreshHash(deps.db, hash);
    if (!row || row.revoked_at !== null) throw invalidRefresh();
  }

  if (row.rotated_at !== null && row.grace_pair && now - row.rotated_at < deps.config.refreshGrace * 1000) {
    const pair = openGracePair(deps.config.secretKey, token, row.id, row.grace_pair);
    if (pair) return pair;
  }
  // A stolen token, or a restored copy of the browser: the owner hears of it either way (once: of
  // two racing reuses, only the one that revoked the family tells).
  const revoked = await revokeFamily(deps.db, row.family_id, now);
  const subject = revoked ? await findSecuritySubject(deps.db, { id: row.user_id }) : undefined;
  if (subject) {
    await recordSecurityEvent(deps.db, origin, { name: 'refresh_reuse', account: subject.email, subject });
    void sendSecurityNotice(deps, origin, 'refresh_reuse', subject);
  }
  throw unauthorized('token_reused', 'The refresh token was already used; the session has been ended.');
}

/** Ends the sign-in the refresh token belongs to (and that of the caller's access token, if any). */
export async function logout(deps: AuthDeps, token: string, caller: AuthContext | null): Promise<void> {
  const now = Date.now();
  const row = await findSessionByRefreshHash(deps.db, hashRefreshToken(token));
  if (row) await revokeFamily(deps.db, row.family_id, now);
  if (caller && caller.familyId !== row?.family_id) await revokeFamily(deps.db, caller.familyId, now);
}

const BEARER = /^Bearer ([A-Za-z0-9_\-.]+)$/;

/** Access token → session → user, checked on every request (one primary-key query). */
export async function authenticate(
  deps: Pick<AuthDeps, 'db' | 'tokens'>,
  authorization: string | undefined,
): Promise<AuthContext> {
  const match = BEARER.exec(authorization ?? '');
  if (!match) throw unauthorized('not_authenticated', 'Authentication credentials were not provided.');
  return sessionOf(deps, await deps.tokens.verify(match[1]!, 'access'));
}

/** The bearer token of a request that may be an access token or another kind (`types`), verified. */
export async function bearerClaims(
  deps: Pick<AuthDeps, 'tokens'>,
  authorization: string | undefined,
  types: readonly TokenClaims['typ'][],
): Promise<TokenClaims> {
  const match = BEARER.exec(authorization ?? '');
  if (!match) throw unauthorized('not_authenticated', 'Authentication credentials were not provided.');
  return deps.tokens.verify(match[1]!, types);
}

/** An access token's session, checked as on every request (revoked, another user's, deactivated: 401). */
export async function sessionOf(deps: Pick<AuthDeps, 'db'>, claims: TokenClaims): Promise<AuthContext> {
  const row = await findSessionContext(deps.db, claims.sid!);
  if (!row || row.revoked_at !== null || row.user_id !== claims.sub || row.is_active !== 1) {
    throw unauthorized('session_revoked', 'The session has ended.');
  }
  return { sessionId: row.session_id, familyId: row.family_id, user: row };
}
