/**
 * @qc/auth: MF singleton (one instance on the page). Token storage, JWT expiry check, the session
 * store (zustand), the single-flight refresh (across tabs), role predicates and <RequireRole>.
 */
export {
  ACCESS_TOKEN_KEY,
  REFRESH_TOKEN_KEY,
  getAccessToken,
  getRefreshToken,
  setTokens,
  clearTokens,
} from './token.storage';
export { decodeJwtPayload, getTokenExpiry, isTokenExpired } from './jwt';
export {
  AuthError,
  NoRefreshTokenError,
  isAuthError,
  NO_REFRESH_TOKEN_MESSAGE,
  NO_PARTIAL_TOKEN_MESSAGE,
} from './errors';
export { AUTH_PATHS, fetchOidcInfo } from './auth.http';
export { refreshTokens, isRefreshing, REFRESH_LOCK_NAME } from './refresh';
export {
  useSession,
  resetSessionForTests,
  endsSession,
  type SessionState,
  type LoginOutcome,
  type SecondFactorMethod,
} from './session.store';
export { roleSatisfies, hasRole, useHasRole, RequireRole, type RequireRoleProps } from './roles';
