import { getAccessToken, isAuthError, refreshTokens, useSession } from '@qc/auth';

/** Spec §4 / DESIGN §4: the refresh-on-401 never applies to the auth endpoints. */
export function isAuthPath(url: string): boolean {
  const base = typeof location !== 'undefined' ? location.href : 'http://localhost/';
  return new URL(url, base).pathname.startsWith('/api/auth/');
}

function withBearer(request: Request, token: string | null): Request {
  if (token) request.headers.set('Authorization', `Bearer ${token}`);
  return request;
}

/**
 * What the caller gets when the refresh could not be done but the sign-in is still valid (network
 * error, api restarting, 5xx such as 503 database_unavailable): the refresh's own failure, so the
 * page says "service unavailable" or "check your connection", not "your session has expired".
 * No answer at all → the TypeError fetch throws (ky's NetworkError); an answer → its status, code
 * and Retry-After (ky's HTTPError).
 */
function refreshFailure(error: unknown): Response {
  if (isAuthError(error) && error.status === 0) throw new TypeError('Failed to fetch');
  const headers: Record<string, string> = { 'Content-Type': 'application/json' };
  if (isAuthError(error) && error.status >= 400) {
    if (error.retryAfter) headers['Retry-After'] = String(error.retryAfter);
    return new Response(JSON.stringify({ detail: error.message, code: error.code }), {
      status: error.status,
      headers,
    });
  }
  // A 2xx with a body that is not a token pair (a proxy's page...): the service did not do its part.
  const detail = error instanceof Error ? error.message : 'Malformed refresh answer';
  return new Response(JSON.stringify({ detail, code: 'bad_refresh_answer' }), { status: 502, headers });
}

/**
 * fetch used by the ky instance: adds the Bearer header; on a 401 (not /api/auth/*) it asks
 * @qc/auth for ONE refresh (single flight, shared by every concurrent caller and tab) and replays
 * the request once. If the api refuses the refresh (401/403), or there is no refresh token, the
 * session is expired (tokens cleared; the host then shows /login) and the original 401 is returned
 * to the caller. If the refresh fails otherwise (network, 5xx), the tokens are kept and the caller
 * gets that failure (see refreshFailure): a later request refreshes again.
 */
export function createAuthFetch(baseFetch?: typeof fetch) {
  return async function authFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const doFetch = baseFetch ?? globalThis.fetch;
    const request = input instanceof Request ? input : new Request(input, init);
    const skip = isAuthPath(request.url);
    const used = getAccessToken();
    // Cloned before sending: a body can be read once, the replay needs its own copy.
    const replay = skip ? null : request.clone();
    const first = await doFetch(withBearer(request, used), init);
    if (first.status !== 401 || !replay) return first;
    let fresh: string;
    try {
      fresh = await refreshTokens(used);
    } catch (error) {
      if (useSession.getState().expireSession(error)) return first;
      return refreshFailure(error);
    }
    // Replayed once: a second 401 goes back to the caller as is.
    return doFetch(withBearer(replay, fresh), init);
  };
}

export const authFetch = createAuthFetch();
