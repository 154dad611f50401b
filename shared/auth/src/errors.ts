/** Spec §4: the internal message when a refresh is needed but no refresh token is stored. */
export const NO_REFRESH_TOKEN_MESSAGE = 'No refresh token available';
/** Spec §5: verifying the second factor without a partial token. */
export const NO_PARTIAL_TOKEN_MESSAGE = 'Jeton partiel non disponible';

/**
 * An auth call failed. `status` is the HTTP status (0: no answer), `code` the API error code,
 * `retryAfter` the seconds a 429's Retry-After asks to wait (null: not said).
 */
export class AuthError extends Error {
  readonly status: number;
  readonly code: string;
  readonly retryAfter: number | null;
  constructor(message: string, status: number, code: string, retryAfter: number | null = null) {
    super(message);
    this.name = 'AuthError';
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

export class NoRefreshTokenError extends AuthError {
  constructor() {
    super(NO_REFRESH_TOKEN_MESSAGE, 0, 'no_refresh_token');
    this.name = 'NoRefreshTokenError';
  }
}

export function isAuthError(e: unknown): e is AuthError {
  return e instanceof AuthError;
}
