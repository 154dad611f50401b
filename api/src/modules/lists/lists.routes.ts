import { ApiError, ListClearQuery, ListClearResponse, ListCreate, ListEntry, ListPage, ListQuery } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { actor } from '../rspamd/route-docs';
import { clearList, createEntry, listPage, removeEntry } from './lists.service';

const security = [{ bearer: [] }];
const tags = ['lists'];
const IdParams = z.object({ id: z.string().min(1).max(64) });

const OWNER_TEXT =
  "Whose list: without `scope`, the caller's own (`user`). `user_id` names a user's list (their " +
  "domain_admin: the plain users of their domain; an admin: anyone); `scope=domain` a domain's (a " +
  'domain_admin: their own, `domain_id` optional; an admin: `domain_id` required); `scope=global` every ' +
  "recipient's (admin). Beyond the caller's role: 403; an unknown user or domain, or one outside a " +
  "domain_admin's domain: 404. ";

const CHANGE_TEXT =
  'Every change bumps the `sender-lists` map Rspamd reads (same transaction) and is written to the ' +
  'history (`list_add`, `list_remove`, `list_clear`; category `lists`), read by the actor, admins and the ' +
  "domain_admin of the owner's domain.";

export const listsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const onRequest = requireAuthHook(ctx);

  app.get(
    '/api/lists/',
    {
      onRequest,
      schema: {
        tags,
        summary: "One owner's whitelist or blacklist, newest first (keyset pages)",
        description:
          OWNER_TEXT +
          '`q` is a part of the address (any case); `total` counts the entries of this owner and kind. ' +
          'Pass `next_cursor` back as `cursor` with the same query.',
        security,
        querystring: ListQuery,
        response: { 200: ListPage, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request) => listPage(ctx.db, currentAuth(request), request.query),
  );

  app.post(
    '/api/lists/',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Add a sender (address or @domain) to a whitelist or blacklist',
        description:
          OWNER_TEXT +
          'Stored as lower case with the domain as IDNA A-label (`Jane@Bücher.example` → ' +
          '`jane@xn--bcher-kva.example`); `@domain` covers every sender of that domain. Anything else (no @, ' +
          'a local part over 64 octets, over 254 characters, an invalid domain) is 400 with `errors.address` ' +
          '"Invalid format". One entry per owner and address: 409 `list_exists` (already on this list) or ' +
          '`list_conflict` (on the other list), the detail naming that entry (`#<id> <address>`). ' +
          CHANGE_TEXT,
        security,
        body: ListCreate,
        response: { 201: ListEntry, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError, 409: ApiError },
      },
    },
    async (request, reply) => {
      const entry = await createEntry(ctx.db, currentAuth(request), actor(request), request.body);
      return reply.code(201).send(entry);
    },
  );

  app.delete(
    '/api/lists/:id/',
    {
      onRequest,
      schema: {
        tags,
        summary: 'Remove one entry',
        description: `An entry of a list the caller may not manage is 404, as an unknown one. ${CHANGE_TEXT}`,
        security,
        params: IdParams,
        response: { 204: z.null().describe('Removed'), 401: ApiError, 404: ApiError },
      },
    },
    async (request, reply) => {
      await removeEntry(ctx.db, currentAuth(request), actor(request), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/api/lists/',
    {
      onRequest,
      schema: {
        tags,
        summary: "Clear one owner's list of one kind",
        description:
          OWNER_TEXT +
          '200 with the number of entries removed; an empty list: `{deleted: 0}`, nothing written (no history ' +
          `row). ${CHANGE_TEXT}`,
        security,
        querystring: ListClearQuery,
        response: { 200: ListClearResponse, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request) => clearList(ctx.db, currentAuth(request), actor(request), request.query),
  );
};
