import { ApiError, EmailConfirmRequest, PasswordChangeRequest, ProfileResponse, ProfileUpdate } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { createAttemptCounter } from '../auth/attempt-counter';
import { throwIfLimited, type ReauthLimiter } from '../auth/attempt-limiter';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { originOf } from '../security/security-events';
import { changePassword, confirmEmail, updateProfile } from './profile.service';

export const profileRoutes: FastifyPluginAsyncZod<{ ctx: AppContext; reauth: ReauthLimiter }> = async (
  app,
  { ctx, reauth },
) => {
  // Authentication first (onRequest): an anonymous caller gets 401 whatever its body.
  const authed = { onRequest: requireAuthHook(ctx) };
  const security = [{ bearer: [] }];
  // Username changes say when a name is taken (409): their own per-user budget (the size of the
  // password-check one, QC_REAUTH_RATE_MAX per QC_LOGIN_RATE_WINDOW) keeps that from being a fast
  // way to list usernames, without eating into the password checks.
  const usernameChanges = createAttemptCounter(ctx.db, {
    name: 'username-change',
    max: ctx.config.reauthMax,
    windowSeconds: ctx.config.loginRate.windowSeconds,
  });

  app.patch(
    '/api/users/me/',
    {
      ...authed,
      schema: {
        tags: ['users'],
        summary: 'Update the signed-in user’s profile',
        description:
          'Username (1–150 letters, digits, @ . + - _; unique, and not another account’s e-mail address: ' +
          '409 username_taken), e-mail, first and last ' +
          'name. A new e-mail needs `current_password` (missing: 400 validation_error, wrong: 400 ' +
          'invalid_password, both with errors.current_password; nothing changes) and takes effect only ' +
          'when the link sent to it is confirmed (`pending_email` until then); the address in effect is ' +
          'told of the request. Whether the new address already belongs to an account is not revealed: ' +
          'the answer is the same, and that address gets a notice instead of a link. External users can ' +
          'change only their first and last name. Asking for a new e-mail counts against ' +
          'QC_REAUTH_RATE_MAX (shared with the other password checks); username changes have their own ' +
          'budget of the same size (429 beyond either).',
        security,
        body: ProfileUpdate,
        response: { 200: ProfileResponse, 400: ApiError, 401: ApiError, 409: ApiError, 429: ApiError, 502: ApiError },
      },
    },
    async (request) => {
      const auth = currentAuth(request);
      // Each new address gets a mail: asking for one counts against the user's budget of sensitive
      // attempts, so nobody signed in can flood third-party inboxes.
      const email = request.body.email?.toLowerCase();
      // It also bounds the guesses at current_password that an e-mail change carries.
      if (email !== undefined && email !== auth.user.email) await reauth(auth.user.user_id);
      const username = request.body.username;
      if (username !== undefined && username !== auth.user.username) {
        throwIfLimited([await usernameChanges(auth.user.user_id)], 'Too many username changes. Try again later.');
      }
      return updateProfile(ctx, auth, request.body, request.log);
    },
  );

  app.post(
    '/api/users/me/email/confirm/',
    {
      ...authed,
      schema: {
        tags: ['users'],
        summary: 'Confirm a new e-mail address with the token from the link sent to it',
        description: 'Single use, expires (QC_EMAIL_CHANGE_TTL). Ends the user’s other sessions.',
        security,
        body: EmailConfirmRequest,
        response: { 200: ProfileResponse, 400: ApiError, 401: ApiError, 409: ApiError },
      },
    },
    async (request) => confirmEmail(ctx, currentAuth(request), request.body.token),
  );

  app.post(
    '/api/users/me/password/',
    {
      ...authed,
      schema: {
        tags: ['users'],
        summary: 'Change the signed-in user’s password',
        description:
          'A wrong current password is 400 with errors.current_password (never 401). Ends the user’s other ' +
          'sessions; a security event, and the owner is told by e-mail.',
        security,
        body: PasswordChangeRequest,
        response: { 204: z.null().describe('Changed'), 400: ApiError, 401: ApiError, 429: ApiError },
      },
    },
    async (request, reply) => {
      const auth = currentAuth(request);
      await reauth(auth.user.user_id);
      await changePassword(ctx, auth, request.body, originOf(request));
      return reply.code(204).send(null);
    },
  );
};
