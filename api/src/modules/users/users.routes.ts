import { ApiError, CurrentUser } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { toCurrentUser } from './users.service';

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
    // The session lookup already joined the user and domain: no second query.
    async (request) => toCurrentUser(currentAuth(request).user),
  );
};
