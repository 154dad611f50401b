import { Readable } from 'node:stream';
import { ApiError, HistoryExportQuery, HistoryList, HistoryListQuery } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { createBudgets } from '../../lib/budget';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { EXPORT_MAX_ROWS, exportFilename, historyCsv } from './history.export';
import { historyPage } from './history.service';

/**
 * A search of the history: a page asked for one person's actions (`user`, typed as an e-mail or
 * id). The action, category and date selectors and plain paging are not: browsing the trail never
 * meets the search budget (shared with the quarantine list's searches).
 */
export function isHistorySearch(query: HistoryListQuery): boolean {
  return Boolean(query.user);
}

export const historyRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { searches } = createBudgets(ctx.db, ctx.config.budgets);
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
          'Pass `next_cursor` back as `cursor` with the same filters. A page asked with `user` is a search: beyond ' +
          'QC_BUDGET_SEARCHES per user and minute (shared with the quarantine list), 429 `rate_limited` with Retry-After.',
        security: [{ bearer: [] }],
        querystring: HistoryListQuery,
        response: { 200: HistoryList, 400: ApiError, 401: ApiError, 429: ApiError },
      },
    },
    async (request) => {
      const auth = currentAuth(request);
      if (isHistorySearch(request.query)) await searches(auth.user.user_id);
      return historyPage(ctx.db, auth, request.query);
    },
  );
  app.get(
    '/api/history/export/',
    {
      onRequest: requireAuthHook(ctx),
      schema: {
        tags: ['history'],
        summary: 'The filtered history as CSV (UTF-8 with BOM), streamed, newest first',
        description:
          'The rows GET /api/history/ would list with the same filters and the same scope, every page, up to ' +
          `${EXPORT_MAX_ROWS} rows. Cells a spreadsheet would read as a formula are prefixed with an apostrophe. ` +
          'Every export spends one of QC_BUDGET_SEARCHES (429 `rate_limited` with Retry-After beyond).',
        security: [{ bearer: [] }],
        querystring: HistoryExportQuery,
        response: {
          // A stream: Fastify does not serialize it.
          200: { description: 'The CSV file', content: { 'text/csv': { schema: z.file() } } },
          400: ApiError,
          401: ApiError,
          429: ApiError,
        },
      },
    },
    async (request, reply) => {
      const auth = currentAuth(request);
      // An export reads up to every page at once: it costs as a search, whatever its filters.
      await searches(auth.user.user_id);
      return (
        reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${exportFilename()}"`)
          .header('cache-control', 'no-store')
          .header('x-row-limit', String(EXPORT_MAX_ROWS))
          // A stream, not the File the schema documents for OpenAPI: Fastify pipes it as it comes.
          .send(Readable.from(historyCsv(ctx.db, auth, request.query)) as never)
      );
    },
  );
};
