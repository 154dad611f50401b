import type { CurrentUser, LoginResponse, MfaEnableResponse, MfaSetupResponse, TokenPair } from '@qc/contracts';
import { create } from 'zustand';
import { AUTH_PATHS, fetchCurrentUser, postJson } from './auth.http';
import { AuthError, NO_PARTIAL_TOKEN_MESSAGE, NoRefreshTokenError } from './errors';
import { isTokenExpired } from './jwt';
import { refreshTokens } from './refresh';
import {
  ACCESS_TOKEN_KEY,
  clearTokens,
  getAccessToken,
  getRefreshToken,
  REFRESH_TOKEN_KEY,
  setTokens,
} from './token.storage';

export type LoginOutcome = 'authenticated' | 'requires_2fa' | 'requires_2fa_setup';
/** What the second-factor step sends: the authenticator's 6-digit code, or a single-use backup code. */
export type SecondFactorMethod = 'totp' | 'backup';

/** Spec §3 "Session state" plus the actions of spec §4. */
export interface SessionState {
  user: CurrentUser | null;
  isAuthenticated: boolean;
  isLoading: boolean;
  requires2FA: boolean;
  /**
   * Two-factor is mandatory for the account and not set up yet (issue 16): the password was right,
   * and `partialToken` is the set-up token, which opens only the set-up routes. Not in spec §3's list.
   */
  requires2FASetup: boolean;
  partialToken: string | null;
  /**
   * The last session ended on its own (its refresh was refused: expired or revoked), not by a
   * sign-out: the login page says so. Not in spec §3's list; cleared by the next sign-in.
   */
  expired: boolean;
  /**
   * The start-up check could not reach the api (network error, 5xx such as 503
   * database_unavailable, a malformed answer): the tokens are KEPT and the session is neither signed
   * in nor signed out. The host shows a "cannot reach the service" screen with Retry
   * (`retryStartUp`). Only a refusal (401/403, or no refresh token) signs out.
   */
  unreachable: boolean;
  /** Start-up check (spec §4). Safe to call more than once: runs once. */
  initialize: () => Promise<void>;
  /** Runs the start-up check again after it found the api unreachable (no-op otherwise). */
  retryStartUp: () => Promise<void>;
  /** Rejects with AuthError on failure (401 bad credentials, 429 rate limited...). */
  login: (email: string, password: string) => Promise<LoginOutcome>;
  /**
   * Single sign-on: trades the ticket the provider's round trip left in `/login/sso#ticket=` for
   * the same answer as `login` (same outcomes, same state). Rejects with AuthError (401
   * sso_ticket_invalid: unknown, used, or older than 60 s).
   */
  exchangeSsoTicket: (ticket: string) => Promise<LoginOutcome>;
  /**
   * Second factor: rejects with AuthError (code 'no_partial_token' without a partial token). When the
   * challenge is over (429: the partial token is burned; 401 token_invalid/token_expired), the step is
   * left: back to the password form.
   */
  verifyTotp: (code: string, method?: SecondFactorMethod) => Promise<void>;
  cancelTwoFactor: () => void;
  /**
   * The set-up step, with the set-up token as Bearer (never through the refresh-on-401 client). A
   * 401 (the token expired or the account changed) ends the step: back to the password form.
   */
  setupTwoFactor: () => Promise<MfaSetupResponse>;
  /** The first code turns two-factor on: the backup codes (to show once); the session is kept aside. */
  enableTwoFactor: (code: string) => Promise<string[]>;
  /** The backup codes were shown: signs in with the session the set-up gave. */
  finishTwoFactorSetup: () => Promise<void>;
  logout: () => Promise<void>;
  /** Keeps the user fresh (the shell re-reads /api/users/me/). */
  setUser: (user: CurrentUser) => void;
  /**
   * A refresh failed. Signs out (clears tokens and the user; the host then shows /login) ONLY when
   * the api refused the session (401/403: expired or revoked) or there is no refresh token (spec
   * §4). Any other failure (network, api restarting, 5xx) keeps both tokens and the session: the
   * caller shows its error, and the next request refreshes again. Returns whether it signed out.
   * Only a refusal marks the session `expired`. Without an `error` it signs out.
   */
  expireSession: (error?: unknown) => boolean;
  /** The login page told the user their session expired: it is not told again. */
  dismissExpired: () => void;
}

const signedOut = {
  user: null,
  isAuthenticated: false,
  isLoading: false,
  requires2FA: false,
  requires2FASetup: false,
  partialToken: null,
  expired: false,
  unreachable: false,
} as const;

/** Leaves the second-factor or set-up step (the password form is back). */
const noChallenge = { requires2FA: false, requires2FASetup: false, partialToken: null } as const;

/**
 * How long the start-up check waits for the current user: an api that accepts the connection but
 * never answers shows the "cannot reach the service" screen, not an endless spinner.
 */
export const START_UP_USER_TIMEOUT_MS = 20_000;

/** The current user, given up (a network error) after START_UP_USER_TIMEOUT_MS. */
async function currentUserWithin(access: string): Promise<CurrentUser> {
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), START_UP_USER_TIMEOUT_MS);
  try {
    return await fetchCurrentUser(access, abort.signal);
  } finally {
    clearTimeout(timer);
  }
}

/** How long a sign-out waits for the api to revoke the session before signing out locally anyway. */
export const LOGOUT_TIMEOUT_MS = 5_000;

/**
 * The api said no to the session (expired, revoked, a token it cannot read), as opposed to not
 * answering: any 4xx but a timeout (408) or "too many requests" (429), which say "not now".
 */
function isRefusal(error: unknown): boolean {
  return (
    error instanceof AuthError &&
    error.status >= 400 &&
    error.status < 500 &&
    error.status !== 408 &&
    error.status !== 429
  );
}

/**
 * Whether a failed refresh (or start-up check) ends the sign-in: a refusal, or no refresh token to
 * try (spec §4 'No refresh token available'). A network error, a 5xx (503 database_unavailable,
 * 502 from a proxy while the api restarts), a 408, a 429 or a malformed answer do not: the sign-in
 * is still valid and works again once the api answers.
 */
export function endsSession(error: unknown): boolean {
  return error instanceof NoRefreshTokenError || isRefusal(error);
}

let initPromise: Promise<void> | null = null;
/** The session two-factor set-up gave, held while its backup codes are shown (memory only). */
let setupPair: TokenPair | null = null;
let storageListener: ((e: StorageEvent) => void) | null = null;

export const useSession = create<SessionState>()((set, get) => {
  async function signIn(pair: TokenPair): Promise<void> {
    setTokens(pair);
    let user: CurrentUser;
    try {
      user = await fetchCurrentUser(pair.access);
    } catch (e) {
      clearTokens();
      set({ ...signedOut });
      throw e;
    }
    set({ ...noChallenge, user, isAuthenticated: true, isLoading: false, expired: false });
  }

  /** A sign-in's answer (password or single sign-on ticket): a session, or the step still needed. */
  async function applyLoginAnswer(res: LoginResponse): Promise<LoginOutcome> {
    if ('requires_2fa' in res && res.requires_2fa) {
      set({ requires2FA: true, partialToken: res.partial_token, isLoading: false });
      return 'requires_2fa';
    }
    if ('requires_2fa_setup' in res && res.requires_2fa_setup) {
      setupPair = null;
      set({ requires2FASetup: true, partialToken: res.partial_token, isLoading: false });
      return 'requires_2fa_setup';
    }
    await signIn(res as TokenPair);
    return 'authenticated';
  }

  async function startUp(): Promise<void> {
    try {
      let access = getAccessToken();
      if (!access || isTokenExpired(access)) access = await refreshTokens(access);
      let user: CurrentUser;
      try {
        user = await currentUserWithin(access);
      } catch (e) {
        // Valid by this clock yet refused: it expired on the way, or the clocks disagree. One
        // refresh, as for any other call (a revoked session fails it too).
        if (!(e instanceof AuthError && e.status === 401)) throw e;
        user = await currentUserWithin(await refreshTokens(access));
      }
      set({ user, isAuthenticated: true, isLoading: false, unreachable: false });
    } catch (e) {
      if (!endsSession(e)) {
        // The api could not be reached or could not answer (503 while its database is down): the
        // sign-in may be perfectly valid. Keep the tokens; the host offers Retry.
        set({ ...signedOut, unreachable: true });
        return;
      }
      // No refresh token, a refused refresh, or a refused user: signed out. "Expired" only when the
      // api refused a session there was.
      const hadSession = getRefreshToken() !== null;
      clearTokens();
      set({ ...signedOut, expired: hadSession && isRefusal(e) });
    }
  }

  async function postWithSetupToken<T>(path: string, body: unknown): Promise<T> {
    const { partialToken, requires2FASetup } = get();
    if (!partialToken || !requires2FASetup) throw new AuthError(NO_PARTIAL_TOKEN_MESSAGE, 0, 'no_partial_token');
    try {
      return await postJson<T>(path, body, partialToken);
    } catch (e) {
      if (e instanceof AuthError && e.status === 401) set(noChallenge);
      throw e;
    }
  }

  return {
    ...signedOut,
    isLoading: true,

    initialize: () => {
      if (typeof window !== 'undefined' && !storageListener) {
        // Another tab signed out (its refresh token is gone): follow it.
        storageListener = (e: StorageEvent) => {
          const { isAuthenticated, unreachable } = get();
          if (
            (e.key === REFRESH_TOKEN_KEY || e.key === null) &&
            !getRefreshToken() &&
            (isAuthenticated || unreachable)
          ) {
            set({ ...signedOut });
          } else if (e.key === ACCESS_TOKEN_KEY && e.newValue && unreachable) {
            // Another tab got through and stored a new pair: try again with it.
            void get().retryStartUp();
          }
        };
        window.addEventListener('storage', storageListener);
      }
      if (!initPromise) initPromise = startUp();
      return initPromise;
    },

    retryStartUp: () => {
      if (!get().unreachable) return initPromise ?? Promise.resolve();
      set({ isLoading: true, unreachable: false });
      initPromise = startUp();
      return initPromise;
    },

    login: async (email, password) =>
      applyLoginAnswer(await postJson<LoginResponse>(AUTH_PATHS.login, { email, password })),

    exchangeSsoTicket: async (ticket) =>
      applyLoginAnswer(await postJson<LoginResponse>(AUTH_PATHS.oidcExchange, { ticket })),

    verifyTotp: async (code, method = 'totp') => {
      const partialToken = get().partialToken;
      if (!partialToken) throw new AuthError(NO_PARTIAL_TOKEN_MESSAGE, 0, 'no_partial_token');
      let pair: TokenPair;
      try {
        pair = await postJson<TokenPair>(AUTH_PATHS.verifyTotp, {
          partial_token: partialToken,
          [method === 'backup' ? 'backup_code' : 'totp_code']: code,
        });
      } catch (e) {
        if (e instanceof AuthError && (e.status === 429 || e.code === 'token_invalid' || e.code === 'token_expired')) {
          set({ requires2FA: false, partialToken: null });
        }
        throw e;
      }
      await signIn(pair);
    },

    cancelTwoFactor: () => {
      setupPair = null;
      set(noChallenge);
    },

    setupTwoFactor: () => postWithSetupToken<MfaSetupResponse>(AUTH_PATHS.mfaSetup, {}),

    enableTwoFactor: async (code) => {
      const res = await postWithSetupToken<MfaEnableResponse>(AUTH_PATHS.mfaEnable, { totp_code: code });
      if (!res.access || !res.refresh) throw new AuthError('No session in the answer', 0, 'bad_response');
      setupPair = { access: res.access, refresh: res.refresh };
      return res.backup_codes;
    },

    finishTwoFactorSetup: async () => {
      const pair = setupPair;
      if (!pair) throw new AuthError(NO_PARTIAL_TOKEN_MESSAGE, 0, 'no_partial_token');
      setupPair = null;
      await signIn(pair);
    },

    logout: async () => {
      const refresh = getRefreshToken();
      const access = getAccessToken();
      if (refresh) {
        // An api that accepts the connection but never answers must not keep the user signed in
        // (nginx would wait minutes): past LOGOUT_TIMEOUT_MS the local sign-out goes ahead.
        const abort = new AbortController();
        const timer = setTimeout(() => abort.abort(), LOGOUT_TIMEOUT_MS);
        try {
          await postJson<void>(AUTH_PATHS.logout, { refresh }, access, abort.signal);
        } catch {
          /* the local sign-out happens anyway */
        } finally {
          clearTimeout(timer);
        }
      }
      clearTokens();
      set({ ...signedOut });
    },

    setUser: (user) => {
      const current = get().user;
      if (current && JSON.stringify(current) === JSON.stringify(user)) return;
      set({ user });
    },

    expireSession: (error) => {
      if (error !== undefined && !endsSession(error)) return false;
      const wasSignedIn = get().isAuthenticated;
      clearTokens();
      set({ ...signedOut, expired: wasSignedIn && isRefusal(error) });
      return true;
    },

    dismissExpired: () => set({ expired: false }),
  };
});

/** For tests: forget that the start-up check ran. */
export function resetSessionForTests(): void {
  initPromise = null;
  setupPair = null;
  if (storageListener && typeof window !== 'undefined') window.removeEventListener('storage', storageListener);
  storageListener = null;
  useSession.setState({ ...signedOut, isLoading: true });
}
