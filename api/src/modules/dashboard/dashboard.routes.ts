import { ApiError, DashboardCounts } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { dashboardFor } from './dashboard.service';

export const dashboardRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/dashboard/',
    {
      onRequest: requireAuthHook(ctx),
      schema: {
        tags: ['dashboard'],
        summary: 'Pending, released and deleted counts the caller may see',
        security: [{ bearer: [] }],
        response: { 200: DashboardCounts, 401: ApiError },
      },
    },
    async (request) => dashboardFor(ctx.db, currentAuth(request)),
  );
};
