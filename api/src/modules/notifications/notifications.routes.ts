import {
  ApiError,
  NotificationDefaults,
  NotificationSettings,
  NotificationSettingsUpdate,
  TestDigestResponse,
} from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { HttpError } from '../../lib/http-error';
import { createAttemptCounter } from '../auth/attempt-counter';
import { throwIfLimited } from '../auth/attempt-limiter';
import { currentAuth, requireAuthHook, requireRoleHook } from '../auth/authenticate';
import { sendTestDigest } from './digest.service';
import { getDefaults, getSettings, saveDefaults, saveSettings } from './notifications.service';

/** A test digest per user: 3 per 10 minutes (each one is an e-mail through the relay). */
export const TEST_DIGEST_RATE = { max: 3, windowSeconds: 600 };

/** 502 of a test digest the relay did not take: what it answered. */
export const TestDigestFailure = ApiError.extend({ relay_response: z.string().nullable() });

// An SMTP reply ("550 5.7.1 …"), as opposed to a connection error.
const SMTP_REPLY = /^[2-5]\d\d[ -]/;

class TestDigestFailedError extends HttpError {
  constructor(readonly relayResponse: string | null) {
    const refused = relayResponse !== null && SMTP_REPLY.test(relayResponse);
    super(
      502,
      refused ? 'relay_refused' : 'relay_unreachable',
      refused ? 'The mail relay refused the test digest.' : 'The mail relay could not be reached.',
    );
  }

  override toBody() {
    return { ...super.toBody(), relay_response: this.relayResponse };
  }
}

const SETTINGS_TEXT =
  'The values are the console’s defaults (`is_default`) until the user saves their own; an admin’s change ' +
  'of the defaults reaches every user who has not. `last_sent`: when the newest digest went out; ' +
  '`last_attempt_failed` and `last_error`: the relay refused the latest one (retried at the next run). ';

export const notificationsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const authed = requireAuthHook(ctx);
  const security = [{ bearer: [] }];
  const tags = ['notifications'];
  const perUser = createAttemptCounter(ctx.db, { name: 'test-digest', ...TEST_DIGEST_RATE });

  app.get(
    '/api/users/me/notifications/',
    {
      onRequest: authed,
      schema: {
        tags,
        summary: 'The signed-in user’s quarantine notification settings',
        description: SETTINGS_TEXT,
        security,
        response: { 200: NotificationSettings, 401: ApiError },
      },
    },
    async (request) => getSettings(ctx.db, currentAuth(request).user),
  );

  app.put(
    '/api/users/me/notifications/',
    {
      onRequest: authed,
      schema: {
        tags,
        summary: 'Save the signed-in user’s quarantine notification settings',
        description:
          SETTINGS_TEXT +
          'Every field; an unknown one, a frequency other than daily|weekly|monthly|never, a time other than ' +
          '"HH:MM" or a time zone this server does not know: 400 naming it. `domain_digest: true` only for a ' +
          'domain_admin (else 400 `errors.domain_digest`). Answers the saved settings. Not in the history.',
        security,
        body: NotificationSettingsUpdate,
        response: { 200: NotificationSettings, 400: ApiError, 401: ApiError },
      },
    },
    async (request) => saveSettings(ctx.db, currentAuth(request).user, request.body),
  );

  app.post(
    '/api/users/me/notifications/test/',
    {
      onRequest: authed,
      schema: {
        tags,
        summary: 'Send the signed-in user a digest of what is pending for them now',
        description:
          `At most ${TEST_DIGEST_RATE.max} per ${TEST_DIGEST_RATE.windowSeconds / 60} minutes per user (429). ` +
          '503 `relay_not_configured` when QC_SMTP_URL is unset; 502 `relay_refused` | `relay_unreachable` with ' +
          'the relay’s answer in `relay_response`.',
        security,
        response: { 200: TestDigestResponse, 401: ApiError, 429: ApiError, 502: TestDigestFailure, 503: ApiError },
      },
    },
    async (request) => {
      const { user } = currentAuth(request);
      if (!ctx.config.smtpUrl) throw new HttpError(503, 'relay_not_configured', 'No mail relay is configured.');
      throwIfLimited([await perUser(user.user_id)], 'Too many test digests. Try again later.');
      const result = await sendTestDigest({ ...ctx, log: request.log }, user.user_id);
      if (!result.sent && result.relay_response !== null) throw new TestDigestFailedError(result.relay_response);
      return result;
    },
  );

  app.get(
    '/api/notifications/defaults/',
    {
      onRequest: [authed, requireRoleHook('admin')],
      schema: {
        tags,
        summary: 'The notification settings of every user who has not saved their own (admin)',
        description: 'Out of the box: enabled, daily at 08:00, Europe/Paris.',
        security,
        response: { 200: NotificationDefaults, 401: ApiError, 403: ApiError },
      },
    },
    async () => getDefaults(ctx.db),
  );

  app.put(
    '/api/notifications/defaults/',
    {
      onRequest: [authed, requireRoleHook('admin')],
      schema: {
        tags,
        summary: 'Change the notification defaults (admin): applies at once to every user without their own',
        description:
          'Every field; an unknown one or a bad value: 400 naming it. Not in the history (the row keeps who ' +
          'changed it last).',
        security,
        body: NotificationDefaults,
        response: { 200: NotificationDefaults, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => saveDefaults(ctx.db, currentAuth(request).user.user_id, request.body),
  );
};
