import { ApiError, Health } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context';
import { HttpError } from '../../lib/http-error';
import { pingDatabase } from './health.repository';

export const healthRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/health/',
    {
      schema: {
        tags: ['health'],
        summary: 'Liveness: 200 when the database answers',
        response: { 200: Health, 503: ApiError },
      },
    },
    async (request) => {
      try {
        await pingDatabase(ctx.db);
      } catch (err) {
        request.log.error({ err }, 'health check: database unavailable');
        throw new HttpError(503, 'database_unavailable', 'The database is not answering.');
      }
      return { status: 'ok' as const };
    },
  );
};
