import { AdminUser, AdminUserList, ApiError, CurrentUser, UserCreate, UserListQuery, UserUpdate } from '@qc/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { currentAuth, requireAuthHook, requireRoleHook } from '../auth/authenticate';
import { currentUser } from '../profile/profile.service';
import { notifyMfaReset, originOf, recordPasswordChanged } from '../security/security-events';
import { createInviter } from './invitations.service';
import { invitationRoutes } from './invitations.routes';
import {
  createManagedUser,
  deleteManagedUser,
  managerOf,
  requireInScope,
  resetManagedUserMfa,
  toAdminUser,
  updateManagedUser,
} from './users-admin.service';
import { listManagedUsers } from './users-list.service';
import { findAdminUser, findPendingEmails, type AdminUserRow } from './users.repository';

const UserIdParams = z.object({ id: z.string().max(64) });

const SCOPE =
  'An admin manages every user; a domain_admin only the `user`s of their own domain (anyone else, ' +
  'themselves included, is 404 here: their own account is /api/users/me/); a user gets 403.';

export const usersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const security = [{ bearer: [] }];
  // Authentication and role first (onRequest): a user or an anonymous caller learns nothing of the
  // routes' schemas.
  const managers = { onRequest: [requireAuthHook(ctx), requireRoleHook('domain_admin')] };
  /** Who acts, from where (request.ip honours X-Forwarded-For only from QC_TRUSTED_PROXIES). */
  const manager = (request: FastifyRequest) => managerOf(currentAuth(request), request.ip ?? null);
  const answer = async (row: AdminUserRow): Promise<AdminUser> => {
    const pending = await findPendingEmails(ctx.db, [row.id], Date.now());
    return toAdminUser(row, pending.get(row.id) ?? null, ctx.config.mfaRequiredRoles);
  };
  const inviter = createInviter(ctx);

  app.get(
    '/api/users/me/',
    {
      onRequest: requireAuthHook(ctx),
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        security,
        response: { 200: CurrentUser, 401: ApiError },
      },
    },
    // The session lookup already joined the user and domain; only a pending e-mail change is read.
    async (request) => currentUser(ctx.db, currentAuth(request).user),
  );

  app.get(
    '/api/users/',
    {
      ...managers,
      schema: {
        tags: ['users'],
        summary: 'Users, in keyset pages',
        description:
          `${SCOPE} \`q\` matches the start of the e-mail, username, first or last name (any case). ` +
          'Pass `next_cursor` back as `cursor` with the same query.',
        security,
        querystring: UserListQuery,
        response: { 200: AdminUserList, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => listManagedUsers(ctx.db, manager(request), request.query, ctx.config.mfaRequiredRoles),
  );

  app.post(
    '/api/users/',
    {
      ...managers,
      schema: {
        tags: ['users'],
        summary: 'Create a user',
        description:
          `${SCOPE} A domain_admin creates only \`user\`s of their own domain (\`domain_id\` left out: ` +
          'theirs; anything else 403). Without `password` an invitation link (single use, expiring after ' +
          'QC_INVITATION_TTL) is e-mailed; when that e-mail cannot be sent the user is not created (502 ' +
          'email_send_failed). E-mail taken, or another account’s username: 409 email_taken; username taken, ' +
          'or another account’s e-mail: 409 username_taken. Unknown domain, or a domain_admin without one: ' +
          '400 errors.domain_id.',
        security,
        body: UserCreate,
        response: { 201: AdminUser, 400: ApiError, 401: ApiError, 403: ApiError, 409: ApiError, 502: ApiError },
      },
    },
    async (request, reply) => {
      const by = manager(request);
      const row = await createManagedUser({ ...ctx, inviter }, by, request.body);
      const created = await findAdminUser(ctx.db, row.id);
      return reply.code(201).send(await answer(created!));
    },
  );

  app.get(
    '/api/users/:id/',
    {
      ...managers,
      schema: {
        tags: ['users'],
        summary: 'A user',
        description: `${SCOPE} Unknown or outside the caller’s scope: 404.`,
        security,
        params: UserIdParams,
        response: { 200: AdminUser, 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request) => answer(await requireInScope(ctx.db, manager(request), request.params.id)),
  );

  app.patch(
    '/api/users/:id/',
    {
      ...managers,
      schema: {
        tags: ['users'],
        summary: 'Update a user',
        description:
          `${SCOPE} A change of role, domain, password or mfa_required, or a deactivation, ends the ` +
          'user’s sessions at once. A domain_admin never changes a role or a domain (403). Nobody ' +
          'deactivates or demotes themselves (400 cannot_change_self); the last active admin stays (409 ' +
          'last_admin). External users keep their username and e-mail (400 naming the field) unless the ' +
          'same request sets is_external to false. Only the names of the changed fields reach the history.',
        security,
        params: UserIdParams,
        body: UserUpdate,
        response: { 200: AdminUser, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError },
      },
    },
    async (request) => {
      const by = manager(request);
      const updated = await updateManagedUser(ctx, by, request.params.id, request.body);
      // Once committed: the security event (log line, history row) and the owner's notice.
      if (request.body.password !== undefined) {
        await recordPasswordChanged(ctx, originOf(request), updated.id, by.actor ?? undefined);
      }
      return answer(updated);
    },
  );

  app.delete(
    '/api/users/:id/',
    {
      ...managers,
      schema: {
        tags: ['users'],
        summary: 'Delete a user',
        description:
          `${SCOPE} Nobody deletes themselves (400 cannot_change_self); the last active admin stays ` +
          '(409 last_admin). The history keeps the e-mail and role of what they did.',
        security,
        params: UserIdParams,
        response: {
          204: z.null().describe('Deleted'),
          400: ApiError,
          401: ApiError,
          403: ApiError,
          404: ApiError,
          409: ApiError,
        },
      },
    },
    async (request, reply) => {
      await deleteManagedUser(ctx.db, manager(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/api/users/:id/mfa/reset/',
    {
      ...managers,
      schema: {
        tags: ['users'],
        summary: 'Reset a user’s two-factor authentication',
        description: `${SCOPE} The secret and backup codes are removed and the user’s sessions end; the user is told by e-mail.`,
        security,
        params: UserIdParams,
        response: { 204: z.null().describe('Reset'), 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request, reply) => {
      const by = manager(request);
      const user = await resetManagedUserMfa(ctx.db, by, request.params.id);
      // Once committed: the security log line and the owner's notice (the history row is mfa_reset).
      await notifyMfaReset(ctx, originOf(request), user.id, by.actor ?? undefined);
      return reply.code(204).send(null);
    },
  );

  await app.register(invitationRoutes, { ctx });
};
