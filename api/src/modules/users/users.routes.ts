import { ApiError, CurrentUser } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { currentUser } from '../profile/profile.service';

export const usersRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/users/me/',
    {
      onRequest: requireAuthHook(ctx),
      schema: {
        tags: ['users'],
        summary: 'The signed-in user',
        security: [{ bearer: [] }],
        response: { 200: CurrentUser, 401: ApiError },
      },
    },
    // The session lookup already joined the user and domain; only a pending e-mail change is read.
    async (request) => currentUser(ctx.db, currentAuth(request).user),
  );
};
