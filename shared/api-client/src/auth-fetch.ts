import { getAccessToken, refreshTokens, useSession } from '@qc/auth';

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
 * fetch used by the ky instance: adds the Bearer header; on a 401 (not /api/auth/*) it asks
 * @qc/auth for ONE refresh (single flight, shared by every concurrent caller and tab) and replays
 * the request once. If the refresh fails, or there is no refresh token, the session is expired
 * (tokens cleared; the host then shows /login) and the original 401 is returned to the caller.
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
      useSession.getState().expireSession(error);
      return first;
    }
    // Replayed once: a second 401 goes back to the caller as is.
    return doFetch(withBearer(replay, fresh), init);
  };
}

export const authFetch = createAuthFetch();
