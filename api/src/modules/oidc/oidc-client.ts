import * as client from 'openid-client';
import type { SsoError } from '@qc/contracts';
import type { OidcConfig } from '../../config';
import { isLoopbackHost } from '../../config-env';

/**
 * The console as an OpenID Connect client (issue 32), on openid-client: authorization code with
 * PKCE S256, state and nonce, a confidential client (client_secret_basic). The provider's metadata
 * is discovered on first use and kept; a failed discovery is tried again at the next sign-in.
 */

/** A sign-in that failed, with the code /login shows (`?sso_error=`) and what the log says. */
export class OidcError extends Error {
  constructor(
    readonly code: SsoError,
    message: string,
  ) {
    super(message);
    this.name = 'OidcError';
  }
}

/** What the checked ID token says (every claim, as the provider put them). */
export type IdTokenClaims = Record<string, unknown> & { iss: string; sub: string };

export interface AuthorizationRequest {
  url: string;
  state: string;
  nonce: string;
  codeVerifier: string;
}

export interface OidcClient {
  /** Where to send the browser, with the secrets the callback must check against. */
  authorizationRequest(): Promise<AuthorizationRequest>;
  /**
   * The callback's parameters (its query string) checked against the flow, the code redeemed, the
   * ID token checked (issuer, audience, signature, expiry, nonce). Throws OidcError.
   */
  redeem(query: string, flow: { state: string; nonce: string; codeVerifier: string }): Promise<IdTokenClaims>;
  /** The provider's RP-initiated logout page, back to /login; null when it offers none or is not reached yet. */
  endSessionUrl(): string | null;
}

/**
 * fetch's own failures (refused, reset, timed out), by name: they may come from another realm than
 * this module's, and openid-client then wraps them (jest's sandbox does that).
 */
const isTransportError = (err: unknown) =>
  ['TypeError', 'TimeoutError', 'AbortError'].includes((err as { name?: string } | undefined)?.name ?? '');

/** How an error of openid-client (or of fetch under it) reads for the person at /login. */
export function classify(err: unknown): OidcError {
  if (err instanceof OidcError) return err;
  const e = err as { name?: string; code?: string; error?: string; error_description?: string; message?: string };
  const message = e.message ?? String(err);
  if (isTransportError(err) || isTransportError((err as { cause?: unknown }).cause)) {
    return new OidcError('provider_unreachable', `the provider did not answer: ${message}`);
  }
  if (err instanceof client.AuthorizationResponseError) {
    // The provider sent the browser back with an error: the person cancelled, or it refused.
    const cancelled = e.error === 'access_denied' || e.error === 'consent_required' || e.error === 'login_required';
    return new OidcError(
      cancelled ? 'cancelled' : 'provider_error',
      `the provider answered ${e.error}${e.error_description ? `: ${e.error_description}` : ''}`,
    );
  }
  if (err instanceof client.ResponseBodyError) {
    return new OidcError(
      'invalid_response',
      `the token endpoint refused: ${e.error} ${e.error_description ?? ''}`.trim(),
    );
  }
  if (e.code === 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED') {
    return new OidcError('clock_skew', `the ID token's times do not fit this clock: ${message}`);
  }
  if (e.code === 'OAUTH_RESPONSE_IS_NOT_CONFORM' || e.code === 'OAUTH_RESPONSE_IS_NOT_JSON') {
    return new OidcError('provider_unreachable', `the provider's answer is not what it should be: ${message}`);
  }
  return new OidcError('invalid_response', `the provider's answer did not check out: ${message}`);
}

export function createOidcClient(config: OidcConfig, publicUrl: string): OidcClient {
  const redirectUri = `${publicUrl}/api/auth/oidc/callback/`;
  const insecure = new URL(config.issuer).protocol === 'http:' && isLoopbackHost(new URL(config.issuer).hostname);
  let discovered: Promise<client.Configuration> | null = null;
  let known: client.Configuration | null = null;

  const configuration = (): Promise<client.Configuration> => {
    discovered ??= client
      .discovery(
        new URL(config.issuer),
        config.clientId,
        { client_secret: config.clientSecret, id_token_signed_response_alg: 'RS256' },
        client.ClientSecretBasic(config.clientSecret),
        {
          timeout: Math.ceil(config.timeoutMs / 1000),
          // Without it openid-client trusts the ID token for having come over TLS: check its signature too.
          execute: [client.enableNonRepudiationChecks, ...(insecure ? [client.allowInsecureRequests] : [])],
        },
      )
      .then((c) => {
        // A multi-tenant Entra ID issuer (`common`, `organizations`) names no tenant: people of any
        // tenant would be let in. The provider must be the one configured, exactly.
        const discoveredIssuer = c.serverMetadata().issuer;
        if (discoveredIssuer !== config.issuer) {
          throw new OidcError(
            'provider_error',
            `the provider calls itself ${discoveredIssuer}, not QC_OIDC_ISSUER ${config.issuer} (a multi-tenant issuer is not accepted)`,
          );
        }
        return (known = c);
      })
      .catch((err: unknown) => {
        discovered = null; // tried again at the next sign-in
        throw classify(err);
      });
    return discovered;
  };
  configuration().catch(() => {}); // early, so sign-out knows the logout page; a failure waits for a sign-in

  return {
    async authorizationRequest() {
      const c = await configuration();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const nonce = client.randomNonce();
      const url = client.buildAuthorizationUrl(c, {
        redirect_uri: redirectUri,
        scope: config.scopes.join(' '),
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: 'S256',
        state,
        nonce,
      });
      return { url: url.href, state, nonce, codeVerifier };
    },

    async redeem(query, flow) {
      const c = await configuration();
      // The callback's address as registered at the provider, never the request's Host header.
      const current = new URL(`${redirectUri}${query ? `?${query}` : ''}`);
      try {
        const tokens = await client.authorizationCodeGrant(c, current, {
          pkceCodeVerifier: flow.codeVerifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        });
        return tokens.claims() as IdTokenClaims;
      } catch (err) {
        throw classify(err);
      }
    },

    endSessionUrl() {
      if (!known?.serverMetadata().end_session_endpoint) return null;
      return client.buildEndSessionUrl(known, {
        client_id: config.clientId,
        post_logout_redirect_uri: `${publicUrl}/login`,
      }).href;
    },
  };
}
