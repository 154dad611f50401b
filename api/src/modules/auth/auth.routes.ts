import { ApiError, LoginRequest, LoginResponse, LogoutRequest, RefreshRequest, TokenPair } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { authenticate, login, logout, refresh } from './auth.service';
import { createLoginLimiter } from './login-limiter';

export const authRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const limiter = createLoginLimiter(ctx.db, ctx.config.loginRate, ctx.config.secretKey);

  app.post(
    '/api/auth/login/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Sign in with e-mail and password',
        description: 'Returns a token pair, or a second-factor challenge when the account has MFA enabled.',
        body: LoginRequest,
        response: { 200: LoginResponse, 400: ApiError, 401: ApiError, 429: ApiError },
      },
    },
    async (request, reply) => {
      const budget = await limiter.consume(request);
      const answer = await login(ctx, request.body.email, request.body.password);
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
        body: RefreshRequest,
        response: { 200: TokenPair, 400: ApiError, 401: ApiError },
      },
    },
    async (request) => refresh(ctx, request.body.refresh),
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
