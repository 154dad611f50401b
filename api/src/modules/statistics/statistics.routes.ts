import { ApiError, Statistics, StatisticsQuery } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { statisticsFor } from './statistics.service';

export const statisticsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/statistics/',
    {
      onRequest: requireAuthHook(ctx),
      schema: {
        tags: ['statistics'],
        summary: 'Per-day quarantined / released / deleted counts and risk levels the caller may see',
        description:
          'Scoped like the dashboard: an admin sees all, a domain_admin their domain, a user their own address. ' +
          'Days are UTC. `?days=2|7|30|90|180|365` (the last N days, today included) or `?date_from&date_to` ' +
          '(inclusive; dates or ISO date-times, each taken as its UTC day; at most 366 days); default: the ' +
          'last 7 days. Counts are recipient rows; risk levels by Rspamd score: low < 5 ≤ medium < 10 ≤ high ' +
          '< 15 ≤ critical (RISK_THRESHOLDS).',
        security: [{ bearer: [] }],
        querystring: StatisticsQuery,
        response: { 200: Statistics, 400: ApiError, 401: ApiError },
      },
    },
    async (request) => statisticsFor(ctx.db, currentAuth(request), request.query),
  );
};
