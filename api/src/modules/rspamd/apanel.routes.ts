import {
  ApanelFilter,
  ApanelFilterList,
  ApanelFilterListQuery,
  ApiError,
  RuleBulkRequest,
  RuleBulkResponse,
} from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import {
  ApanelCreateBody,
  ApanelUpdateBody,
  apanelDetail,
  apanelsPage,
  bulkApanels,
  changeApanel,
  createApanel,
  removeApanel,
} from './apanel.service';
import { actor, adminOnly, BULK_TEXT, CHANGE_TEXT, DRY_RUN_TEXT, isDryRun, security, tags } from './route-docs';
import { DryRunQuery } from './rules-common';

const IdParams = z.object({ id: z.string().min(1).max(64) });

const PATTERNS_TEXT =
  '`from` and `to` are envelope address patterns, stored in lower case: an address, `@domain` (stored ' +
  '`*@domain`), a wildcard with `*` and `?` only, or `*` alone (anyone); invalid → 400 `errors.from` / ' +
  '`errors.to`. `owner_id`: null or absent = a system filter; else an active user (400 `errors.owner_id` ' +
  'otherwise), and the filter is for mail to that user: `to` is their address (empty or `*` means it; ' +
  'another address → 400 `errors.to`). One filter per from → to pair: a second one is 409 ' +
  '`filter_exists` (same action) or `filter_conflict` (another action), the detail naming the other ' +
  'filter `#<id> <from> → <to> (<action>, "<description>")`. ';

export const apanelRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const onRequest = adminOnly(ctx);
  const base = '/api/rspamd/apanel-filters/';

  app.get(
    base,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Control-panel filters, newest first (admin; keyset pages)',
        description:
          '`q` is a part of from, to or the description (any case); `action`, `enabled` and `owner` ' +
          '(`system`, or a user id) filter. Pass `next_cursor` back as `cursor` with the same filters.',
        security,
        querystring: ApanelFilterListQuery,
        response: { 200: ApanelFilterList, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => apanelsPage(ctx.db, request.query),
  );

  app.post(
    base,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Create a control-panel filter: a sender → recipient pair and an action (admin)',
        description: PATTERNS_TEXT + DRY_RUN_TEXT + ' ' + CHANGE_TEXT,
        security,
        querystring: DryRunQuery,
        body: ApanelCreateBody,
        response: { 200: ApanelFilter, 201: ApanelFilter, 400: ApiError, 401: ApiError, 403: ApiError, 409: ApiError },
      },
    },
    async (request, reply) => {
      const dryRun = isDryRun(request.query);
      const filter = await createApanel(ctx.db, actor(request), request.body, dryRun);
      return reply.code(dryRun ? 200 : 201).send(filter);
    },
  );

  app.get(
    `${base}:id/`,
    {
      onRequest,
      schema: {
        tags,
        summary: 'One control-panel filter (admin)',
        security,
        params: IdParams,
        response: { 200: ApanelFilter, 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request) => apanelDetail(ctx.db, request.params.id),
  );

  app.patch(
    `${base}:id/`,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Change a control-panel filter, or enable or disable it (admin)',
        description:
          'Any of the creation fields. A new user owner without `to` makes the filter theirs (their address). ' +
          PATTERNS_TEXT +
          DRY_RUN_TEXT +
          ' Nothing changed: no write and no history. ' +
          CHANGE_TEXT,
        security,
        params: IdParams,
        querystring: DryRunQuery,
        body: ApanelUpdateBody,
        response: { 200: ApanelFilter, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError },
      },
    },
    async (request) => changeApanel(ctx.db, actor(request), request.params.id, request.body, isDryRun(request.query)),
  );

  app.delete(
    `${base}:id/`,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Delete a control-panel filter (admin)',
        description: CHANGE_TEXT,
        security,
        params: IdParams,
        response: { 204: z.null().describe('Deleted'), 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request, reply) => {
      await removeApanel(ctx.db, actor(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}bulk/`,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Delete, enable or disable several control-panel filters (admin)',
        description: BULK_TEXT,
        security,
        body: RuleBulkRequest,
        response: { 200: RuleBulkResponse, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => bulkApanels(ctx.db, actor(request), request.body),
  );
};
