import {
  ApiError,
  FILTER_TYPES,
  RspamdFilter,
  RspamdFilterCreate,
  RspamdFilterList,
  RspamdFilterListQuery,
  RspamdFilterUpdate,
  RspamdStatus,
  RuleBulkRequest,
  RuleBulkResponse,
} from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { apanelRoutes } from './apanel.routes';
import { bulkFilters, changeFilter, createFilter, filterDetail, filtersPage, removeFilter } from './filters.service';
import { rspamdStatus } from './lists.repository';
import {
  actor,
  adminOnly,
  BULK_TEXT,
  CHANGE_TEXT,
  CONFLICT_TEXT,
  DRY_RUN_TEXT,
  isDryRun,
  REGEX_TEXT,
  security,
  tags,
} from './route-docs';
import { DryRunQuery } from './rules-common';
import { systemRulesRoutes } from './system-rules.routes';

const TypeParams = z.object({
  type: z.enum(FILTER_TYPES, { error: `Unknown filter type: one of ${FILTER_TYPES.join(', ')}` }),
});
const FilterParams = TypeParams.extend({ id: z.string().min(1).max(64) });

const FAMILIES_TEXT =
  "Families (`type`): `domains` = the envelope sender's domain, `ips` = the connecting client's IP, " +
  "`users` = the envelope sender's address, `special` = the Subject header (exact: the whole subject, " +
  'compared case-insensitively; wildcard; regex). ';

const STORED_TEXT =
  'Stored forms (what `value` holds and Rspamd is given): domains as IDNA A-labels in lower case ' +
  '(`bücher.example` → `xn--bcher-kva.example`), wildcards with `*` and `?` only; addresses in lower case ' +
  '(`@bad.example` → wildcard `*@bad.example`); IPs canonical (no leading zeros, IPv6 compressed lower ' +
  'case, `::ffff:192.0.2.1` → `192.0.2.1`), a network as `address/prefix` with its host bits zero ' +
  '(`10.0.0.1/24` is refused: the network is `10.0.0.0/24`), a /32 or /128 stored as the exact address ' +
  'and `192.0.2.*` as the cidr `192.0.2.0/24`; subjects in lower case. The stored `pattern_type` may thus ' +
  'differ from the one sent. An invalid value is 400 with `errors.value`. ';

export const rspamdRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const onRequest = adminOnly(ctx);
  const base = '/api/rspamd/filters/:type/';

  app.get(
    base,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Filters of one family, newest first (admin; keyset pages)',
        description:
          FAMILIES_TEXT +
          '`q` is a part of the value or description (any case); `action`, `pattern_type` and `enabled` filter. ' +
          'Pass `next_cursor` back as `cursor` with the same filters.',
        security,
        params: TypeParams,
        querystring: RspamdFilterListQuery,
        response: { 200: RspamdFilterList, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => filtersPage(ctx.db, request.params.type, request.query),
  );

  app.post(
    base,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Create a filter in one family (admin)',
        description:
          FAMILIES_TEXT + STORED_TEXT + REGEX_TEXT + ' ' + CONFLICT_TEXT + ' ' + DRY_RUN_TEXT + ' ' + CHANGE_TEXT,
        security,
        params: TypeParams,
        querystring: DryRunQuery,
        body: RspamdFilterCreate,
        response: { 200: RspamdFilter, 201: RspamdFilter, 400: ApiError, 401: ApiError, 403: ApiError, 409: ApiError },
      },
    },
    async (request, reply) => {
      const dryRun = isDryRun(request.query);
      const filter = await createFilter(ctx.db, actor(request), request.params.type, request.body, dryRun);
      return reply.code(dryRun ? 200 : 201).send(filter);
    },
  );

  app.get(
    `${base}:id/`,
    {
      onRequest,
      schema: {
        tags,
        summary: 'One filter (admin)',
        description: 'A filter of another family at this path is 404, as is an unknown id.',
        security,
        params: FilterParams,
        response: { 200: RspamdFilter, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request) => filterDetail(ctx.db, request.params.type, request.params.id),
  );

  app.patch(
    `${base}:id/`,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Change a filter, or enable or disable it (admin)',
        description:
          'Any of the creation fields; `{"enabled": false}` disables it (Rspamd no longer applies it). ' +
          'Same value rules as creation. ' +
          CONFLICT_TEXT +
          ' ' +
          DRY_RUN_TEXT +
          ' Nothing changed: no write and no history. ' +
          CHANGE_TEXT,
        security,
        params: FilterParams,
        querystring: DryRunQuery,
        body: RspamdFilterUpdate,
        response: { 200: RspamdFilter, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError },
      },
    },
    async (request) =>
      changeFilter(
        ctx.db,
        actor(request),
        request.params.type,
        request.params.id,
        request.body,
        isDryRun(request.query),
      ),
  );

  app.delete(
    `${base}:id/`,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Delete a filter (admin)',
        description: CHANGE_TEXT,
        security,
        params: FilterParams,
        response: { 204: z.null().describe('Deleted'), 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request, reply) => {
      await removeFilter(ctx.db, actor(request), request.params.type, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}bulk/`,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Delete, enable or disable several filters of one family (admin)',
        description: BULK_TEXT,
        security,
        params: TypeParams,
        body: RuleBulkRequest,
        response: { 200: RuleBulkResponse, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => bulkFilters(ctx.db, actor(request), request.params.type, request.body),
  );

  app.get(
    '/api/rspamd/status/',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Per list Rspamd fetches: its enabled rules, last change, last fetch, and whether it is live (admin)',
        description:
          'One entry per list (`filters-domains`, `filters-ips`, `filters-users`, `filters-special`, ' +
          '`apanel-filters`, `system-rules`): `entries` = enabled rules, `changed_at` = the last change ' +
          '(deletes and disables too), `fetched_at` = when Rspamd last fetched one of its maps, `live` = every ' +
          'map of the list has been fetched since the last change (false when none ever was).',
        security,
        response: { 200: RspamdStatus, 401: ApiError, 403: ApiError },
      },
    },
    async () => rspamdStatus(ctx.db),
  );

  await app.register(apanelRoutes, { ctx });
  await app.register(systemRulesRoutes, { ctx });
};
