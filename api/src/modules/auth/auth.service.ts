import type { LoginResponse, TokenPair } from '@qc/contracts';
import type { AppContext } from '../../app-context';
import { unauthorized } from '../../lib/http-error';
import { idTime, newId } from '../../lib/ids';
import { findUserByEmail } from '../users/users.repository';
import {
  findSessionByRefreshHash,
  findSessionContext,
  insertSession,
  markRotated,
  revokeFamily,
  type SessionContextRow,
} from './auth.repository';
import { generateRefreshToken, hashRefreshToken, openGracePair, sealGracePair } from './refresh-tokens';

export interface AuthContext {
  sessionId: string;
  familyId: string;
  user: SessionContextRow;
}

type AuthDeps = Pick<AppContext, 'db' | 'config' | 'passwords' | 'tokens'>;

const invalidCredentials = () => unauthorized('invalid_credentials', 'Invalid e-mail or password.');
const invalidRefresh = () => unauthorized('token_invalid', 'The refresh token is not valid.');

/**
 * A refresh token row. Each rotation gives a new lifetime, but never past the sign-in's maximum
 * age (the family id is the first row's id, made when the password was given).
 */
function sessionRow(deps: AuthDeps, id: string, userId: string, familyId: string, refresh: string, now: number) {
  const { refreshTtl, sessionMaxAge } = deps.config;
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

/** Starts a new sign-in (a new token family). */
export async function startSession(deps: AuthDeps, userId: string): Promise<TokenPair> {
  const now = Date.now();
  const id = newId(now);
  const refresh = generateRefreshToken();
  await insertSession(deps.db, sessionRow(deps, id, userId, id, refresh, now));
  return { access: await deps.tokens.signAccess(userId, id), refresh };
}

export async function login(deps: AuthDeps, rawEmail: string, password: string): Promise<LoginResponse> {
  const user = await findUserByEmail(deps.db, rawEmail.trim().toLowerCase());
  if (!user) {
    await deps.passwords.verifyDummy(password);
    throw invalidCredentials();
  }
  if (!(await deps.passwords.verify(user.password_hash, password))) throw invalidCredentials();
  // Told only to someone who knows the password, so it reveals nothing to a guesser.
  if (user.is_active !== 1) throw unauthorized('account_inactive', 'This account is disabled.');
  if (user.mfa_enabled === 1) {
    return { requires_2fa: true, partial_token: await deps.tokens.signPartial(user.id) };
  }
  return startSession(deps, user.id);
}

/**
 * Rotation (DESIGN §4): a live token is replaced by a new pair. A replaced token presented again
 * within QC_REFRESH_GRACE (concurrent tabs) gets the very same pair back; later, it is treated as
 * stolen and the whole family is revoked — the newest tokens included.
 */
export async function refresh(deps: AuthDeps, token: string): Promise<TokenPair> {
  const now = Date.now();
  const hash = hashRefreshToken(token);
  let row = await findSessionByRefreshHash(deps.db, hash);
  if (!row || row.revoked_at !== null || row.user_active !== 1) throw invalidRefresh();

  if (row.replaced_by === null) {
    if (row.expires_at <= now) throw unauthorized('token_expired', 'The refresh token has expired.');
    const id = newId(now);
    const next = generateRefreshToken();
    const pair = { access: await deps.tokens.signAccess(row.user_id, id), refresh: next };
    const current = row;
    const won = await deps.db.transaction().execute(async (trx) => {
      const sealed = sealGracePair(deps.config.secretKey, token, current.id, pair);
      if (!(await markRotated(trx, current.id, id, now, sealed))) return false;
      await insertSession(trx, sessionRow(deps, id, current.user_id, current.family_id, next, now));
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
  await revokeFamily(deps.db, row.family_id, now);
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
export async function authenticate(deps: AuthDeps, authorization: string | undefined): Promise<AuthContext> {
  const match = BEARER.exec(authorization ?? '');
  if (!match) throw unauthorized('not_authenticated', 'Authentication credentials were not provided.');
  const claims = await deps.tokens.verify(match[1]!, 'access');
  const row = await findSessionContext(deps.db, claims.sid!);
  if (!row || row.revoked_at !== null || row.user_id !== claims.sub || row.is_active !== 1) {
    throw unauthorized('session_revoked', 'The session has ended.');
  }
  return { sessionId: row.session_id, familyId: row.family_id, user: row };
}
