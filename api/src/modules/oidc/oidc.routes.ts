import { normalizeIP } from '@fastify/rate-limit';
import { ApiError, LoginResponse, OidcInfo, SsoExchangeRequest, type SsoError } from '@qc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { HttpError } from '../../lib/http-error';
import { createAttemptCounters } from '../auth/attempt-counter';
import { throwIfLimited } from '../auth/attempt-limiter';
import { cookieValue } from '../auth/device-proof';
import { originOf } from '../security/security-events';
import { classify, OidcError } from './oidc-client';
import { browserKeyOr, exchangeTicket, finishSignIn, FLOW_TTL_MS, startSignIn } from './oidc-sign-in';

const tags = ['auth'];

/**
 * Single sign-on (issue 32, DESIGN §4.2 "OIDC"). Every redirect goes to a fixed place of this
 * console (QC_PUBLIC_URL) or to the provider's own authorization endpoint: no parameter of any
 * request chooses where the browser goes.
 */
export const oidcRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { publicUrl } = ctx.config;
  // Sign-ins started per client address (an IPv6 /64 as one), given back when one comes back signed in.
  const starts = createAttemptCounters(ctx.db, [
    { name: 'sso-start', max: ctx.config.loginRate.ipMax, windowSeconds: ctx.config.loginRate.windowSeconds },
  ]);
  const clientKey = (request: FastifyRequest) => [normalizeIP(request.ip || 'unknown')];
  // The browser's key for its flows and tickets. On https a __Host- cookie (Secure, Path=/, no
  // Domain): a sibling subdomain cannot plant one (login CSRF). On loopback http, this path only.
  const https = publicUrl.startsWith('https:');
  const cookieName = https ? '__Host-qc_sso' : 'qc_sso';
  const cookieAttributes = https ? 'Path=/; Secure' : 'Path=/api/auth/oidc/';
  const noStore = (reply: FastifyReply) =>
    reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
  const backToLogin = (reply: FastifyReply, code: SsoError) =>
    noStore(reply).redirect(`${publicUrl}/login?sso_error=${code}`, 302);
  const browserKeyOf = (request: FastifyRequest) => cookieValue(request.headers.cookie, cookieName);
  const failed = (request: FastifyRequest, reply: FastifyReply, err: OidcError, step: string) => {
    request.log.warn(
      { event: 'sso_failed', step, code: err.code, err: err.message },
      `single sign-on ${step}: ${err.code}`,
    );
    return backToLogin(reply, err.code);
  };

  app.get(
    '/api/auth/oidc/',
    {
      schema: {
        tags,
        summary: 'Whether single sign-on is offered, and its button’s label',
        description:
          '`end_session_url`: the provider’s sign-out page (RP-initiated logout, back to /login), once its ' +
          'metadata has been read; the host sends an OIDC account there after POST /api/auth/logout/.',
        response: { 200: OidcInfo },
      },
    },
    async () => ({
      enabled: ctx.oidc !== null,
      label: ctx.config.oidc?.label ?? null,
      end_session_url: ctx.oidc?.endSessionUrl() ?? null,
    }),
  );

  app.get(
    '/api/auth/oidc/start/',
    {
      schema: {
        tags,
        summary: 'Go to the OpenID Provider (a browser navigation)',
        description:
          '302 to the provider’s authorization endpoint (code flow, PKCE S256, state, nonce), with the ' +
          '`__Host-qc_sso` cookie (`qc_sso` on loopback http) that binds the sign-in to this browser; on failure 302 to ' +
          '/login?sso_error=not_configured|provider_unreachable|rate_limited. Query parameters are ignored.',
        response: { 302: z.null().describe('To the provider, or back to /login') },
      },
    },
    async (request, reply) => {
      if (!ctx.oidc) return backToLogin(reply, 'not_configured');
      try {
        throwIfLimited(
          (await starts.tally(clientKey(request))).map((t) => t.wait),
          'Too many sign-ins started.',
        );
      } catch (err) {
        if (err instanceof HttpError && err.statusCode === 429) return backToLogin(reply, 'rate_limited');
        throw err;
      }
      const browserKey = browserKeyOr(browserKeyOf(request));
      let url: string;
      try {
        url = await startSignIn(ctx, ctx.oidc, browserKey);
      } catch (err) {
        return failed(request, reply, classify(err), 'start');
      }
      // Lax: the provider's redirect back is a top-level navigation from another site.
      reply.header(
        'set-cookie',
        `${cookieName}=${browserKey}; ${cookieAttributes}; Max-Age=${FLOW_TTL_MS / 1000}; HttpOnly; SameSite=Lax`,
      );
      return noStore(reply).redirect(url, 302);
    },
  );

  app.get(
    '/api/auth/oidc/callback/',
    {
      schema: {
        tags,
        summary: 'The provider’s redirect back (a browser navigation)',
        description:
          'Checks the state (single use, this browser’s), redeems the code with the PKCE verifier, checks the ' +
          'ID token (issuer, audience, signature, expiry, nonce) and the e-mail’s verification, makes or updates ' +
          'the account, then 302 to /login/sso#ticket=… (single use, 60 s). Any failure: 302 to ' +
          '/login?sso_error=<code>, nothing created.',
        response: { 302: z.null().describe('To /login/sso with a ticket, or back to /login') },
      },
    },
    async (request, reply) => {
      if (!ctx.oidc) return backToLogin(reply, 'not_configured');
      const raw = request.raw.url ?? '';
      const query = raw.includes('?') ? raw.slice(raw.indexOf('?') + 1) : '';
      try {
        const ticket = await finishSignIn(ctx, ctx.oidc, query, browserKeyOf(request), originOf(request));
        await starts.refund(clientKey(request));
        return noStore(reply).redirect(`${publicUrl}/login/sso#ticket=${ticket}`, 302);
      } catch (err) {
        if (err instanceof OidcError) return failed(request, reply, err, 'callback');
        throw err;
      }
    },
  );

  app.post(
    '/api/auth/oidc/exchange/',
    {
      schema: {
        tags,
        summary: 'Trade the single sign-on ticket for the login answer',
        description:
          'Once, within 60 s, from the browser that started the sign-in: the same answers as ' +
          'POST /api/auth/login/ (a token pair, or the console’s second factor first unless QC_OIDC_TRUST_MFA ' +
          'and the provider’s `amr` say it was done). 401 `sso_ticket_invalid`, `account_inactive`.',
        body: SsoExchangeRequest,
        response: { 200: LoginResponse, 400: ApiError, 401: ApiError, 404: ApiError },
      },
    },
    async (request) => {
      if (!ctx.oidc) throw new HttpError(404, 'oidc_not_configured', 'Single sign-on is not configured.');
      return exchangeTicket(ctx, request.body.ticket, browserKeyOf(request));
    },
  );
};
