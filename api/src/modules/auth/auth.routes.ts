import { ApiError, LoginRequest, LoginResponse, LogoutRequest, RefreshRequest, TokenPair } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { findSecuritySubject } from '../security/security.repository';
import { originOf, recordSecurityEvent } from '../security/security-events';
import { authenticate, login, logout, refresh } from './auth.service';
import { createLoginLimiter } from './login-limiter';

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const limiter = createLoginLimiter(ctx.db, ctx.config.loginRate, ctx.config.secretKey, async (account, request) => {
    const subject = (await findSecuritySubject(ctx.db, { email: account })) ?? null;
    await recordSecurityEvent(ctx.db, originOf(request), { name: 'account_locked', account, subject });
  });

  app.post(
    '/api/auth/login/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        description:
          'Returns a token pair; a second-factor challenge (`requires_2fa`) when the account has MFA ' +
          'enabled; or, when two-factor is mandatory for the account (its `mfa_required`, or its role in ' +
          'QC_MFA_REQUIRED_ROLES, by default admin and domain_admin) and not set up yet, a set-up challenge ' +
          '(`requires_2fa_setup`) whose ' +
          '`partial_token`, as `Authorization: Bearer`, is accepted only by POST /api/users/me/mfa/setup/ ' +
          'and /enable/ (elsewhere: 403 mfa_setup_required). Failed attempts and the first one over the ' +
          'account’s budget are security events (log, and history for an existing account).',
        body: LoginRequest,
        response: { 200: LoginResponse, 400: ApiError, 401: ApiError, 429: ApiError },
      },
    },
    async (request, reply) => {
      const budget = await limiter.consume(request);
      const answer = await login(ctx, request.body.email, request.body.password, originOf(request));
      await limiter.succeeded(budget, request, reply);
      return answer;
    },
  );

  app.post(
    '/api/auth/refresh/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Rotate the refresh token',
        description:
          'A replaced token presented after QC_REFRESH_GRACE ends its sign-in (401 token_reused): a ' +
          'security event, and the account’s owner is told by e-mail.',
        body: RefreshRequest,
        response: { 200: TokenPair, 400: ApiError, 401: ApiError },
      },
    },
    async (request) => refresh(ctx, request.body.refresh, originOf(request)),
  );

  app.post(
    '/api/auth/logout/',
    {
      schema: {
        tags: ['auth'],
        summary: 'End the sign-in this refresh token belongs to',
        body: LogoutRequest,
        response: { 204: z.null().describe('Signed out'), 400: ApiError },
      },
    },
    async (request, reply) => {
      // The access token is optional here (it may have expired); when valid, its session ends too.
      const caller = request.headers.authorization
        ? await authenticate(ctx, request.headers.authorization).catch(() => null)
        : null;
      await logout(ctx, request.body.refresh, caller);
      return reply.code(204).send(null);
    },
  );
};
