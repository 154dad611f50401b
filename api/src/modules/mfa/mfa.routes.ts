import {
  ApiError,
  BackupCodesResponse,
  MfaEnableRequest,
  MfaEnableResponse,
  MfaSetupResponse,
  PasswordRequest,
  TokenPair,
  VerifyTotpRequest,
} from '@qc/contracts';
import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { createAttemptCounter } from '../auth/attempt-counter';
import { throwIfLimited, type ReauthLimiter } from '../auth/attempt-limiter';
import { bearerClaims, sessionOf } from '../auth/auth.service';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { issuedAtMs } from '../auth/tokens';
import { originOf } from '../security/security-events';
import {
  disableMfa,
  enableMfa,
  regenerateBackupCodes,
  setupMfa,
  verifySecondFactor,
  type MfaCaller,
} from './mfa.service';

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
      return verifySecondFactor(ctx, claims, request.body, originOf(request));
    },
  );

  // Authentication first (onRequest): an anonymous caller gets 401 whatever its body.
  const authed = { onRequest: requireAuthHook(ctx) };
  const security = [{ bearer: [] }];

  // The set-up routes also take the set-up token of a `requires_2fa_setup` sign-in (and only they
  // do: anywhere else it is 403 mfa_setup_required). An access token is checked as everywhere.
  const callers = new WeakMap<FastifyRequest, MfaCaller>();
  const sessionOrSetup = {
    onRequest: async (request: FastifyRequest) => {
      const claims = await bearerClaims(ctx, request.headers.authorization, ['access', 'setup']);
      if (claims.typ === 'setup') {
        callers.set(request, { userId: claims.sub, familyId: null, issuedAtMs: issuedAtMs(claims) });
        return;
      }
      request.auth = await sessionOf(ctx, claims);
      callers.set(request, { userId: request.auth.user.user_id, familyId: request.auth.familyId });
    },
  };
  const callerOf = (request: FastifyRequest): MfaCaller => {
    const caller = callers.get(request);
    if (!caller) throw new Error('the set-up hook did not run');
    return caller;
  };

  app.post(
    '/api/users/me/mfa/setup/',
    {
      ...sessionOrSetup,
      schema: {
        tags: ['mfa'],
        summary: 'Start two-factor setup: a new pending secret and its otpauth:// URL',
        description:
          'MFA stays off until POST /api/users/me/mfa/enable/ gets a code from this secret, within ' +
          'QC_MFA_SETUP_TTL. Bearer: an access token, or the set-up token of a `requires_2fa_setup` sign-in.',
        security,
        response: { 200: MfaSetupResponse, 401: ApiError, 409: ApiError },
      },
    },
    async (request) => setupMfa(ctx, callerOf(request)),
  );

  app.post(
    '/api/users/me/mfa/enable/',
    {
      ...sessionOrSetup,
      schema: {
        tags: ['mfa'],
        summary: 'Enable two-factor authentication with a code from the pending secret',
        description:
          'Returns the backup codes (shown once). Ends the user’s other sessions. With the set-up token of ' +
          'a `requires_2fa_setup` sign-in, the answer also carries the new session’s `access` and `refresh`. ' +
          'A set-up older than QC_MFA_SETUP_TTL is 400 mfa_setup_expired (start it again).',
        security,
        body: MfaEnableRequest,
        response: { 200: MfaEnableResponse, 400: ApiError, 401: ApiError, 409: ApiError, 429: ApiError },
      },
    },
    async (request) => {
      const caller = callerOf(request);
      await reauth(caller.userId);
      return enableMfa(ctx, caller, request.body.totp_code, originOf(request));
    },
  );

  app.post(
    '/api/users/me/mfa/disable/',
    {
      ...authed,
      schema: {
        tags: ['mfa'],
        summary: 'Disable two-factor authentication (password required)',
        description:
          'A wrong password is 400 with errors.password; a single sign-on account (no console password) sends ' +
          '`totp_code` instead (a wrong one: 400 invalid_code). Ends the user’s other sessions; the owner is told ' +
          'by e-mail. Refused (409 mfa_required) when two-factor is mandatory for the account.',
        security,
        body: PasswordRequest,
        response: { 204: z.null().describe('Disabled'), 400: ApiError, 401: ApiError, 409: ApiError, 429: ApiError },
      },
    },
    async (request, reply) => {
      const auth = currentAuth(request);
      await reauth(auth.user.user_id);
      await disableMfa(ctx, auth, request.body, originOf(request));
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
        description:
          'A wrong password is 400 with errors.password; a single sign-on account (no console password) sends ' +
          '`totp_code` instead (a wrong one: 400 invalid_code). Ends the user’s other sessions.',
        security,
        body: PasswordRequest,
        response: { 200: BackupCodesResponse, 400: ApiError, 401: ApiError, 409: ApiError, 429: ApiError },
      },
    },
    async (request) => {
      const auth = currentAuth(request);
      await reauth(auth.user.user_id);
      return regenerateBackupCodes(ctx, auth, request.body);
    },
  );
};
