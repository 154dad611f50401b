import { ApiError, HistoryList, HistoryListQuery } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { historyPage } from './history.service';

export const historyRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/history/',
    {
      onRequest: requireAuthHook(ctx),
      schema: {
        tags: ['history'],
        summary: 'Downloads, releases and deletes of quarantined e-mails, newest first (keyset pages)',
        description:
          'A user sees their own actions and those on their mail, a domain_admin those of their domain’s users ' +
          'and on their domain’s mail, an admin all. `ip_address` is null unless the caller is an admin, the ' +
          'actor or the actor’s domain_admin. ' +
          'Pass `next_cursor` back as `cursor` with the same filters.',
        security: [{ bearer: [] }],
        querystring: HistoryListQuery,
        response: { 200: HistoryList, 400: ApiError, 401: ApiError },
      },
    },
    async (request) => historyPage(ctx.db, currentAuth(request), request.query),
  );
};
