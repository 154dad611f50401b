import {
  ApiError,
  DOMAIN_HAS_USERS_MESSAGE,
  Domain,
  DomainCreate,
  DomainDetail,
  DomainList,
  DomainListQuery,
  DomainUpdate,
} from '@qc/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { currentAuth, requireAuthHook, requireRoleHook } from '../auth/authenticate';
import { actorOf } from '../history/audit.service';
import { changeDomain, createDomain, domainDetail, domainsPage, removeDomain } from './domains.service';

const IdParams = z.object({ id: z.string().min(1).max(64) });

/** Who acts, from where (request.ip honours X-Forwarded-For only from QC_TRUSTED_PROXIES). */
const actor = (request: FastifyRequest) => actorOf(currentAuth(request), request.ip ?? null);

export const domainsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const security = [{ bearer: [] }];
  // Role checked before the query or body is validated: a domain_admin or user learns nothing but 403.
  const adminOnly = [requireAuthHook(ctx), requireRoleHook('admin')];
  const tags = ['domains'];

  app.get(
    '/api/domains/',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Domains, sorted by name, with their users count (admin; keyset pages)',
        description:
          '`q` matches the start of the name (A-label; complete labels may be typed as U-labels). ' +
          'Pass `next_cursor` back as `cursor` with the same `q`.',
        security,
        querystring: DomainListQuery,
        response: { 200: DomainList, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => domainsPage(ctx.db, request.query),
  );

  app.post(
    '/api/domains/',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Create a domain (admin)',
        description:
          'The name is stored IDNA-normalised (A-label, lower case, no final dot): `bücher.example` becomes ' +
          '`xn--bcher-kva.example`. Not a valid host name → 400 `errors.name`; taken → 409 `domain_taken`.',
        security,
        body: DomainCreate,
        response: { 201: Domain, 400: ApiError, 401: ApiError, 403: ApiError, 409: ApiError },
      },
    },
    async (request, reply) => reply.code(201).send(await createDomain(ctx.db, actor(request), request.body)),
  );

  app.get(
    '/api/domains/:id/',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'A domain and its first users by e-mail (admin)',
        security,
        params: IdParams,
        response: { 200: DomainDetail, 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request) => domainDetail(ctx.db, request.params.id),
  );

  app.patch(
    '/api/domains/:id/',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Rename a domain and/or change its description (admin)',
        description: 'Same name rules as creation; taken → 409 `domain_taken`.',
        security,
        params: IdParams,
        body: DomainUpdate,
        response: { 200: Domain, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError },
      },
    },
    async (request) => changeDomain(ctx.db, actor(request), request.params.id, request.body),
  );

  app.delete(
    '/api/domains/:id/',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Delete a domain without users (admin)',
        description: `409 \`domain_has_users\` while a user belongs to it: "${DOMAIN_HAS_USERS_MESSAGE}".`,
        security,
        params: IdParams,
        response: { 204: z.null().describe('Deleted'), 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError },
      },
    },
    async (request, reply) => {
      await removeDomain(ctx.db, actor(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
