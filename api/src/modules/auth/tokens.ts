import { randomBytes } from 'node:crypto';
import { errors, jwtVerify, SignJWT } from 'jose';
import { deriveKey } from '../../lib/keys';
import { HttpError, unauthorized } from '../../lib/http-error';

export const JWT_ISSUER = 'quarantine-console';
export const JWT_AUDIENCE = 'quarantine-console-api';
// Pinned: a token whose header names another algorithm ("none", RS256 with the key as a public key…)
// is refused before its signature is even looked at.
const ALGORITHM = 'HS256';
const VERIFIED_CACHE_SIZE = 10_000;

/**
 * access: a session's; partial: between password and second factor (verify-totp only); setup:
 * between password and a two-factor set-up the account must do first (the set-up routes only).
 */
export type TokenType = 'access' | 'partial' | 'setup';

export interface TokenClaims {
  typ: TokenType;
  sub: string;
  /** Session row that issued an access token; partial tokens have none. */
  sid?: string;
  /** Partial tokens: their id, so each is used once (mfa_partial_tokens). */
  jti?: string;
  /**
   * Partial and set-up tokens: when they were issued, in ms (iat is in seconds): a challenge
   * issued before the account's credentials changed (users.credentials_at) is refused.
   */
  ims?: number;
  iat: number;
  exp: number;
}

/**
 * When a sign-in challenge was issued, in ms. A token without `ims` (signed before it existed) is
 * taken as issued at the end of its `iat` second, so a change in that same second does not refuse it.
 */
export const issuedAtMs = (claims: TokenClaims): number => claims.ims ?? claims.iat * 1000 + 999;

export interface TokenService {
  signAccess(userId: string, sessionId: string): Promise<string>;
  signPartial(userId: string): Promise<string>;
  signSetup(userId: string): Promise<string>;
  /**
   * Verifies signature, algorithm, iss, aud, iat, exp and that `typ` is one of those expected; 401
   * otherwise, or 403 mfa_setup_required for a set-up token where it is not accepted.
   */
  verify(token: string, typ: TokenType | readonly TokenType[]): Promise<TokenClaims>;
}

const REQUIRED_CLAIMS: Record<TokenType, string[]> = {
  access: ['sub', 'iat', 'exp', 'typ', 'sid'],
  partial: ['sub', 'iat', 'exp', 'typ', 'jti'],
  setup: ['sub', 'iat', 'exp', 'typ'],
};

/** A set-up token opens only the two-factor set-up: said as such, so the client knows why. */
const setupRequired = () =>
  new HttpError(403, 'mfa_setup_required', 'Two-factor authentication must be set up before anything else.');

export function jwtKey(secret: string): Uint8Array {
  return deriveKey(secret, 'jwt-hs256');
}

export function createTokenService(
  secret: string,
  ttl: { access: number; partial: number; setup?: number },
): TokenService {
  const raw = jwtKey(secret);
  // Imported once: given bytes, jose imports a CryptoKey on every call (~7 % of a list request).
  const keyPromise = crypto.subtle.importKey('raw', new Uint8Array(raw), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  const sign = async (claims: Record<string, unknown>, userId: string, seconds: number) =>
    new SignJWT(claims)
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject(userId)
      .setIssuedAt()
      .setExpirationTime(`${seconds}s`)
      .sign(await keyPromise);

  // Tokens already verified, by their exact text (unforgeable): a client sends the same access token
  // with every request, and the signature check was ~10 % of a list request. Only the expiry is
  // checked again; revocation is the session lookup's job, on every request.
  const verified = new Map<string, TokenClaims>();
  const remember = (token: string, claims: TokenClaims) => {
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value!);
    verified.set(token, claims);
  };

  return {
    signAccess: (userId, sessionId) => sign({ typ: 'access', sid: sessionId }, userId, ttl.access),
    // jti makes each challenge distinct: verify-totp records it, so a partial token is used once.
    signPartial: (userId) =>
      sign({ typ: 'partial', jti: randomBytes(16).toString('base64url'), ims: Date.now() }, userId, ttl.partial),
    signSetup: (userId) => sign({ typ: 'setup', ims: Date.now() }, userId, ttl.setup ?? ttl.partial),

    async verify(token, expected) {
      const types: readonly TokenType[] = typeof expected === 'string' ? [expected] : expected;
      const known = verified.get(token);
      if (known && types.includes(known.typ)) {
        if (known.exp * 1000 <= Date.now()) throw unauthorized('token_expired', 'The token has expired.');
        return known;
      }
      let payload;
      try {
        ({ payload } = await jwtVerify(token, await keyPromise, {
          algorithms: [ALGORITHM],
          issuer: JWT_ISSUER,
          audience: JWT_AUDIENCE,
          requiredClaims: ['sub', 'iat', 'exp', 'typ'],
        }));
      } catch (err) {
        if (err instanceof errors.JWTExpired) throw unauthorized('token_expired', 'The token has expired.');
        throw unauthorized('token_invalid', 'The token is not valid.');
      }
      const typ = payload.typ as TokenType;
      // No kind of token passes as another: a partial or set-up token is never an access token.
      if (!types.includes(typ)) {
        if (typ === 'setup') throw setupRequired();
        throw unauthorized('token_invalid', 'The token is not valid.');
      }
      if (
        REQUIRED_CLAIMS[typ].some(
          (claim) => typeof payload[claim] !== (claim === 'iat' || claim === 'exp' ? 'number' : 'string'),
        )
      )
        throw unauthorized('token_invalid', 'The token is not valid.');
      remember(token, payload as unknown as TokenClaims);
      return payload as unknown as TokenClaims;
    },
  };
}
