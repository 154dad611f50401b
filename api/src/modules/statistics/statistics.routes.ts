import { ApiError, Statistics, StatisticsQuery, StatisticsTops } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AppContext } from '../../app-context';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { statisticsFor, statisticsTops } from './statistics.service';

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
  app.get(
    '/api/statistics/tops/',
    {
      onRequest: requireAuthHook(ctx),
      schema: {
        tags: ['statistics'],
        summary: 'Top senders, recipients and Rspamd symbols, and (admin) per-domain counts, over a range',
        description:
          'Same query and scope as GET /api/statistics/ (a user: their own address; a domain_admin: their domain; ' +
          'an admin: all). Counted in quarantined recipient rows received in the range, from the rollup kept at ' +
          'ingest and by `stats:rebuild`. Symbols: those that added to the score. At most ' +
          'STATISTICS_TOP_LIMIT items a list; `domains` is null unless the caller is an admin.',
        security: [{ bearer: [] }],
        querystring: StatisticsQuery,
        response: { 200: StatisticsTops, 400: ApiError, 401: ApiError },
      },
    },
    async (request) => statisticsTops(ctx.db, currentAuth(request), request.query),
  );
};
