import { normalizeIP } from '@fastify/rate-limit';
import { ApiError, InvitationAcceptRequest } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { createAttemptCounter } from '../auth/attempt-counter';
import { throwIfLimited } from '../auth/attempt-limiter';
import { currentAuth, requireAuthHook, requireRoleHook } from '../auth/authenticate';
import { acceptInvitation, resendInvitation } from './invitations.service';
import { managerOf } from './users-admin.service';

const UserIdParams = z.object({ id: z.string().max(64) });

/** The invitation of a user created without a password: sent again by their manager, accepted by them. */
export const invitationRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Anonymous (the token is the credential): every attempt counts against the client address's
  // budget, the size of the sign-in one (QC_LOGIN_RATE_IP_MAX per QC_LOGIN_RATE_WINDOW).
  const perIp = createAttemptCounter(ctx.db, {
    name: 'invitation',
    max: ctx.config.loginRate.ipMax,
    windowSeconds: ctx.config.loginRate.windowSeconds,
  });

  app.post(
    '/api/auth/invitation/',
    {
      schema: {
        tags: ['auth'],
        summary: 'Accept an invitation: set the password with the token of the e-mailed link',
        description:
          'Single use: the password is set and the link spent together (of two concurrent requests one ' +
          'wins). Unknown or used: 400 invitation_invalid; expired (QC_INVITATION_TTL): 400 ' +
          'invitation_expired. Attempts per client address are limited like sign-ins (429).',
        body: InvitationAcceptRequest,
        response: { 204: z.null().describe('Password set'), 400: ApiError, 429: ApiError },
      },
    },
    async (request, reply) => {
      throwIfLimited([await perIp(normalizeIP(request.ip))], 'Too many attempts. Try again later.');
      await acceptInvitation(ctx, request.body);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/users/:id/invitation/',
    {
      onRequest: [requireAuthHook(ctx), requireRoleHook('domain_admin')],
      schema: {
        tags: ['users'],
        summary: 'Send a user who has not set a password yet a new invitation link',
        description:
          'Admin, or the user’s domain_admin (otherwise 404). Their earlier links stop working once the ' +
          'new one is sent. Already a password: 409 invitation_not_pending; the e-mail not sent: 502 ' +
          'email_send_failed (the earlier links still work).',
        security: [{ bearer: [] }],
        params: UserIdParams,
        response: {
          204: z.null().describe('Sent'),
          401: ApiError,
          403: ApiError,
          404: ApiError,
          409: ApiError,
          502: ApiError,
        },
      },
    },
    async (request, reply) => {
      await resendInvitation(ctx, managerOf(currentAuth(request), request.ip ?? null), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
