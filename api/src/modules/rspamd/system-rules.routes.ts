import {
  ApiError,
  RuleBulkRequest,
  RuleBulkResponse,
  SystemRule,
  SystemRuleCreate,
  SystemRuleList,
  SystemRuleListQuery,
  SystemRuleUpdate,
} from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import {
  actor,
  adminOnly,
  BULK_TEXT,
  CHANGE_TEXT,
  DRY_RUN_TEXT,
  isDryRun,
  REGEX_TEXT,
  security,
  tags,
} from './route-docs';
import { DryRunQuery } from './rules-common';
import {
  bulkSystemRules,
  changeSystemRule,
  createSystemRule,
  removeSystemRule,
  systemRuleDetail,
  systemRulesPage,
} from './system-rules.service';

const IdParams = z.object({ id: z.string().min(1).max(64) });

const PATTERNS_TEXT =
  'Every pattern given must match (at least one: else 400 `errors.patterns` "Pattern is required"): ' +
  '`from` and `to` are envelope address patterns (an address, `@domain` stored `*@domain`, `*` and `?` ' +
  'wildcards, `*` alone) or `/regex/flags`; `subject` is the whole subject compared case-insensitively ' +
  '(stored in lower case), with `*` and `?` wildcards, or `/regex/flags`; `ip` is an address or a CIDR ' +
  'network with its host bits zero (`192.0.2.*` is stored `192.0.2.0/24`). Empty or null: not used. ' +
  'An invalid pattern is 400 under its field. When several rules match, the strictest action wins: ' +
  'reject > soft_reject > greylist > add_header > accept. Two rules with the same patterns are refused: ' +
  '409 `filter_exists` (same action) or `filter_conflict` (another action), naming the other rule. ' +
  REGEX_TEXT +
  ' ';

export const systemRulesRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const onRequest = adminOnly(ctx);
  const base = '/api/rspamd/system-rules/';

  app.get(
    base,
    {
      onRequest,
      schema: {
        tags,
        summary: 'System rules, newest first (admin; keyset pages)',
        description:
          '`q` is a part of the name or of a pattern (any case); `action` and `enabled` filter. ' +
          'Pass `next_cursor` back as `cursor` with the same filters.',
        security,
        querystring: SystemRuleListQuery,
        response: { 200: SystemRuleList, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => systemRulesPage(ctx.db, request.query),
  );

  app.post(
    base,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Create a system rule: from, subject, to and ip patterns that must all match (admin)',
        description: PATTERNS_TEXT + DRY_RUN_TEXT + ' ' + CHANGE_TEXT,
        security,
        querystring: DryRunQuery,
        body: SystemRuleCreate,
        response: { 200: SystemRule, 201: SystemRule, 400: ApiError, 401: ApiError, 403: ApiError, 409: ApiError },
      },
    },
    async (request, reply) => {
      const dryRun = isDryRun(request.query);
      const filter = await createSystemRule(ctx.db, actor(request), request.body, dryRun);
      return reply.code(dryRun ? 200 : 201).send(filter);
    },
  );

  app.get(
    `${base}:id/`,
    {
      onRequest,
      schema: {
        tags,
        summary: 'One system rule (admin)',
        security,
        params: IdParams,
        response: { 200: SystemRule, 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request) => systemRuleDetail(ctx.db, request.params.id),
  );

  app.patch(
    `${base}:id/`,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Change a system rule, or enable or disable it (admin)',
        description:
          'Any of the creation fields; null or empty removes a pattern (one must remain). ' +
          PATTERNS_TEXT +
          DRY_RUN_TEXT +
          ' Nothing changed: no write and no history. ' +
          CHANGE_TEXT,
        security,
        params: IdParams,
        querystring: DryRunQuery,
        body: SystemRuleUpdate,
        response: { 200: SystemRule, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError },
      },
    },
    async (request) =>
      changeSystemRule(ctx.db, actor(request), request.params.id, request.body, isDryRun(request.query)),
  );

  app.delete(
    `${base}:id/`,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Delete a system rule (admin)',
        description: CHANGE_TEXT,
        security,
        params: IdParams,
        response: { 204: z.null().describe('Deleted'), 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request, reply) => {
      await removeSystemRule(ctx.db, actor(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.post(
    `${base}bulk/`,
    {
      onRequest,
      schema: {
        tags,
        summary: 'Delete, enable or disable several system rules (admin)',
        description: BULK_TEXT,
        security,
        body: RuleBulkRequest,
        response: { 200: RuleBulkResponse, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => bulkSystemRules(ctx.db, actor(request), request.body),
  );
};
