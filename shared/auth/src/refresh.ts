import type { TokenPair } from '@qc/contracts';
import { AUTH_PATHS, postJson } from './auth.http';
import { AuthError, NoRefreshTokenError } from './errors';
import { isTokenExpired } from './jwt';
import { getAccessToken, getRefreshToken, setTokens } from './token.storage';

/**
 * A refresh the api has not answered after this long is given up (a network error for the caller):
 * a hung call would otherwise hold the single flight, and every later request, forever.
 */
export const REFRESH_TIMEOUT_MS = 20_000;

/** Name of the Web Lock that serialises refreshes across the tabs of this origin. */
export const REFRESH_LOCK_NAME = 'qc-auth-refresh';

let inflight: Promise<string> | null = null;

interface LockManagerLike {
  request<T>(name: string, callback: () => Promise<T>): Promise<T>;
}

function lockManager(): LockManagerLike | null {
  const locks = (globalThis.navigator as { locks?: LockManagerLike } | undefined)?.locks;
  return locks && typeof locks.request === 'function' ? locks : null;
}

async function rotate(staleAccess: string | null): Promise<string> {
  // Re-read storage: another tab (or an earlier refresh in this one) may already hold a new pair.
  const current = getAccessToken();
  if (current && current !== staleAccess && !isTokenExpired(current)) return current;
  const refresh = getRefreshToken();
  if (!refresh) throw new NoRefreshTokenError();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), REFRESH_TIMEOUT_MS);
  let pair: TokenPair;
  try {
    pair = await postJson<TokenPair>(AUTH_PATHS.refresh, { refresh }, null, abort.signal);
  } finally {
    clearTimeout(timer);
  }
  if (!pair || typeof pair.access !== 'string')
    throw new AuthError('Malformed refresh answer', 200, 'bad_refresh_answer');
  // Rotation: the server answers a new refresh token too; store both (DESIGN §4).
  setTokens({ access: pair.access, refresh: pair.refresh ?? refresh });
  return pair.access;
}

/**
 * One refresh for many callers (spec §4, DESIGN §7): concurrent callers in this tab share one
 * promise; across tabs the Web Locks API serialises them and the tab that waited re-reads storage
 * and uses the pair the first tab stored instead of spending the refresh token again.
 *
 * @param staleAccess the access token the caller found wanting (rejected by a 401, expired or
 *   missing). A stored token different from it and not expired is returned without a refresh.
 * @returns the new access token. Rejects with NoRefreshTokenError ('No refresh token available')
 *   or an AuthError (status 0: no answer within REFRESH_TIMEOUT_MS); the caller decides to sign
 *   out, which only a refusal justifies (see endsSession in the session store).
 */
export function refreshTokens(staleAccess: string | null = getAccessToken()): Promise<string> {
  if (inflight) return inflight;
  const locks = lockManager();
  const run = () => rotate(staleAccess);
  const p = (locks ? locks.request(REFRESH_LOCK_NAME, run) : run()).finally(() => {
    if (inflight === p) inflight = null;
  });
  inflight = p;
  return p;
}

/** For tests: whether a refresh is in flight in this tab. */
export function isRefreshing(): boolean {
  return inflight !== null;
}
