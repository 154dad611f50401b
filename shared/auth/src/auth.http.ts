import type { CurrentUser, OidcInfo } from '@qc/contracts';
import { AuthError } from './errors';

/**
 * Plain fetch for the auth endpoints (spec §7: the refresh call uses a plain client without retry
 * handling). Kept out of ky so this singleton stays tiny on /login.
 */
export const AUTH_PATHS = {
  login: '/api/auth/login/',
  verifyTotp: '/api/auth/verify-totp/',
  refresh: '/api/auth/refresh/',
  logout: '/api/auth/logout/',
  me: '/api/users/me/',
  mfaSetup: '/api/users/me/mfa/setup/',
  mfaEnable: '/api/users/me/mfa/enable/',
  /** Single sign-on (DESIGN §4.2 "OIDC"): whether it is on, its button's label, the provider's sign-out. */
  oidc: '/api/auth/oidc/',
  /** A full-page navigation (not fetched): the api sends the browser on to the provider. */
  oidcStart: '/api/auth/oidc/start/',
  oidcExchange: '/api/auth/oidc/exchange/',
} as const;

async function errorFrom(res: Response): Promise<AuthError> {
  let detail = res.statusText || `HTTP ${res.status}`;
  let code = `http_${res.status}`;
  try {
    const body: unknown = await res.json();
    if (body && typeof body === 'object') {
      const b = body as { detail?: unknown; code?: unknown };
      if (typeof b.detail === 'string') detail = b.detail;
      if (typeof b.code === 'string') code = b.code;
    }
  } catch {
    /* not JSON */
  }
  const retryAfter = Number(res.headers.get('retry-after') ?? NaN);
  return new AuthError(detail, res.status, code, Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null);
}

/** The API is on the console's origin (DESIGN §4). */
function apiUrl(path: string): string {
  return typeof location !== 'undefined' ? new URL(path, location.origin).href : path;
}

async function send(path: string, init: RequestInit): Promise<Response> {
  let res: Response;
  try {
    res = await globalThis.fetch(apiUrl(path), { credentials: 'same-origin', ...init });
  } catch (e) {
    throw new AuthError(e instanceof Error ? e.message : 'Network error', 0, 'network_error');
  }
  if (!res.ok) throw await errorFrom(res);
  return res;
}

export async function postJson<T>(
  path: string,
  body: unknown,
  accessToken?: string | null,
  signal?: AbortSignal,
): Promise<T> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  if (accessToken) headers.Authorization = `Bearer ${accessToken}`;
  const res = await send(path, { method: 'POST', headers, body: JSON.stringify(body), signal });
  if (res.status === 204) return undefined as T;
  return (await res.json()) as T;
}

export async function fetchCurrentUser(accessToken: string, signal?: AbortSignal): Promise<CurrentUser> {
  const res = await send(AUTH_PATHS.me, {
    method: 'GET',
    signal,
    headers: { Accept: 'application/json', Authorization: `Bearer ${accessToken}` },
  });
  return (await res.json()) as CurrentUser;
}

/** GET /api/auth/oidc/ (public). Rejects with AuthError like the other calls. */
export async function fetchOidcInfo(signal?: AbortSignal): Promise<OidcInfo> {
  const res = await send(AUTH_PATHS.oidc, { method: 'GET', signal, headers: { Accept: 'application/json' } });
  return (await res.json()) as OidcInfo;
}
