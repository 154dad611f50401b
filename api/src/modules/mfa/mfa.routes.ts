import {
  ApiError,
  BackupCodesResponse,
  MfaEnableRequest,
  MfaSetupResponse,
  PasswordRequest,
  TokenPair,
  VerifyTotpRequest,
} from '@qc/contracts';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { createAttemptCounter } from '../auth/attempt-counter';
import { throwIfLimited, type ReauthLimiter } from '../auth/attempt-limiter';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { disableMfa, enableMfa, regenerateBackupCodes, setupMfa, verifySecondFactor } from './mfa.service';

const TOO_MANY_CODES = 'Too many code attempts. Try again later.';

export const mfaRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; reauth: ReauthLimiter }> = async (
  app,
  { ctx, reauth },
) => {
  const { mfaRate, loginRate } = ctx.config;
  // Like sign-in: every attempt counts before the code is checked, per account and per client IP.
  const { windowSeconds } = loginRate;
  const perIp = createAttemptCounter(ctx.db, { name: 'mfa-ip', max: mfaRate.ipMax, windowSeconds });
  const perAccount = createAttemptCounter(ctx.db, { name: 'mfa-user', max: mfaRate.accountMax, windowSeconds });

  app.post(
    '/api/auth/verify-totp/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Second sign-in step: a TOTP code or a backup code',
        description:
          'With the partial token of a `requires_2fa` login. Each partial token is used once and is burned ' +
          'after QC_MFA_MAX_FAILURES wrong codes; each TOTP step and each backup code is accepted once.',
        body: VerifyTotpRequest,
        response: { 200: TokenPair, 400: ApiError, 401: ApiError, 429: ApiError },
      },
    },
    async (request) => {
      throwIfLimited([await perIp(normalizeIP(request.ip))], TOO_MANY_CODES);
      const claims = await ctx.tokens.verify(request.body.partial_token, 'partial');
      throwIfLimited([await perAccount(claims.sub)], TOO_MANY_CODES);
      return verifySecondFactor(ctx, claims, request.body);
    },
  );

  // Authentication first (onRequest): an anonymous caller gets 401 whatever its body.
  const authed = { onRequest: requireAuthHook(ctx) };
  const security = [{ bearer: [] }];

  app.post(
    '/api/users/me/mfa/setup/',
    {
      ...authed,
      schema: {
        tags: ['mfa'],
        summary: 'Start two-factor setup: a new pending secret and its otpauth:// URL',
        description: 'MFA stays off until POST /api/users/me/mfa/enable/ gets a code from this secret.',
        security,
        response: { 200: MfaSetupResponse, 401: ApiError, 409: ApiError },
      },
    },
    async (request) => setupMfa(ctx, currentAuth(request)),
  );

  app.post(
    '/api/users/me/mfa/enable/',
    {
      ...authed,
      schema: {
        tags: ['mfa'],
        summary: 'Enable two-factor authentication with a code from the pending secret',
        description: 'Returns the backup codes (shown once). Ends the user’s other sessions.',
        security,
        body: MfaEnableRequest,
        response: { 200: BackupCodesResponse, 400: ApiError, 401: ApiError, 409: ApiError, 429: ApiError },
      },
    },
    async (request) => {
      const auth = currentAuth(request);
      await reauth(auth.user.user_id);
      return enableMfa(ctx, auth, request.body.totp_code);
    },
  );

  app.post(
    '/api/users/me/mfa/disable/',
    {
      ...authed,
      schema: {
        tags: ['mfa'],
        summary: 'Disable two-factor authentication (password required)',
        description: 'A wrong password is 400 with errors.password. Ends the user’s other sessions.',
        security,
        body: PasswordRequest,
        response: { 204: z.null().describe('Disabled'), 400: ApiError, 401: ApiError, 409: ApiError, 429: ApiError },
      },
    },
    async (request, reply) => {
      const auth = currentAuth(request);
      await reauth(auth.user.user_id);
      await disableMfa(ctx, auth, request.body.password);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/users/me/mfa/backup-codes/',
    {
      ...authed,
      schema: {
        tags: ['mfa'],
        summary: 'New backup codes (password required); the old ones stop working',
        description: 'A wrong password is 400 with errors.password. Ends the user’s other sessions.',
        security,
        body: PasswordRequest,
        response: { 200: BackupCodesResponse, 400: ApiError, 401: ApiError, 409: ApiError, 429: ApiError },
      },
    },
    async (request) => {
      const auth = currentAuth(request);
      await reauth(auth.user.user_id);
      return regenerateBackupCodes(ctx, auth, request.body.password);
    },
  );
};
