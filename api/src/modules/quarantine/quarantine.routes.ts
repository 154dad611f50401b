import multipart from '@fastify/multipart';
import {
  ApiError,
  BULK_MAX_IDS,
  BulkRequest,
  BulkResponse,
  IngestResponse,
  QuarantineDetail,
  QuarantineList,
  isQuarantineSearch,
  QuarantineListQuery,
  ReleaseFailure,
  ReleaseInProgress,
  ReleaseRequest,
  ReleaseResponse,
  ReleaseToRequest,
} from '@qc/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { createBudgets } from '../../lib/budget';
import { sendDownload } from '../../lib/download';
import { HttpError } from '../../lib/http-error';
import { withinBodyLimit } from '../../lib/multipart';
import { currentAuth, requireAuthHook } from '../auth/authenticate';
import { bulkAction, bulkReleaseCount } from './bulk.service';
import {
  checkIngestToken,
  createMessageWriter,
  ingestMessage,
  ingestMultipartLimits,
  readIngestForm,
} from './ingest.service';
import { deleteMessage, downloadRaw, listQuarantine, quarantineDetail, type Actor } from './quarantine.service';
import { releaseMessage } from './release.service';
import { downloadAttachment } from './attachments.service';
import { releaseTo } from './release-to.service';

/** The form, for the OpenAPI document: the handler reads the multipart parts and checks them itself. */
const IngestForm = z.object({
  meta: z.string().describe('JSON: IngestMeta (DESIGN §4), as a text field or a file part'),
  message: z.file().describe('The raw message (message/rfc822), as received'),
});

const IdParams = z.object({ id: z.string().min(1).max(64) });

/**
 * A message's content is kept in no cache, not even the browser's own (the api's default is
 * `private, no-cache`: stored, revalidated). Set before the handler runs, so the errors of these
 * routes carry it too.
 */
export const NO_STORE = 'private, no-store';
const noStore = async (_request: FastifyRequest, reply: FastifyReply) => {
  reply.header('cache-control', NO_STORE);
};

/** The OpenAPI text of a budgeted route: what a refused call gets. */
const RATE_LIMITED = 'beyond the per-user budget per minute, 429 `rate_limited` with Retry-After';

/** The OpenAPI text of a release: what a relay silent past QC_RELEASE_ANSWER_MS gets. */
const RELEASING =
  '202 `{status: "releasing"}` when the relay has not answered within QC_RELEASE_ANSWER_MS (10 s): the attempt ' +
  'goes on and records its outcome (status, last delivery, history) as an answered one would.';

/** A release's answer: 200 with the relay's, or 202 while the relay has not answered. */
const releaseAnswer = <T extends { status: string }>(reply: FastifyReply, answer: T) =>
  reply.code(answer.status === 'releasing' ? 202 : 200).send(answer);

/** Who acts, from where (request.ip honours X-Forwarded-For only from QC_TRUSTED_PROXIES). */
const actorOf = (request: FastifyRequest): Actor => ({ auth: currentAuth(request), ip: request.ip ?? null });

export const quarantineRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const maxBytes = ctx.config.ingestMaxBytes;
  // Encapsulated: these limits apply to this plugin's routes only.
  await app.register(multipart, { limits: ingestMultipartLimits(maxBytes), throwFileSizeLimit: true });
  const security = [{ bearer: [] }];
  const auth = requireAuthHook(ctx);
  const writer = createMessageWriter(ctx.db);
  // Per account, spent before anything is done: a refused call writes no history row and releases nothing.
  const budgets = createBudgets(ctx.db, ctx.config.budgets);
  const userOf = (request: FastifyRequest) => currentAuth(request).user.user_id;
  const messageTooLarge = () => new HttpError(413, 'payload_too_large', 'The message is too large.');

  app.post(
    '/api/quarantine/ingest/',
    {
      bodyLimit: maxBytes,
      attachValidation: true, // the body schema documents the form; readIngestForm checks it
      onRequest: async (request) => {
        // Before the body is read: a wrong token or an announced oversize body costs nothing.
        checkIngestToken(ctx.config.ingestToken, request.headers.authorization);
        const length = Number(request.headers['content-length']);
        if (Number.isFinite(length) && length > maxBytes) throw messageTooLarge();
      },
      schema: {
        tags: ['quarantine'],
        summary: 'Store a quarantined message (service token: QC_INGEST_TOKEN)',
        description:
          'multipart/form-data: `meta` (JSON, DESIGN §4) and `message` (the raw bytes). 201 `{id}`, also when ' +
          'already stored (same Haraka uuid, or same envelope and bytes under a new uuid): the same id then, ' +
          'nothing stored twice. Sent only after the database committed. 400 with `errors` (fields `meta.*`, `message`); ' +
          '413 beyond QC_INGEST_MAX_BYTES; 503 `ingest_disabled` when QC_INGEST_TOKEN is unset.',
        consumes: ['multipart/form-data'],
        body: IngestForm,
        security: [{ ingest: [] }],
        response: {
          201: IngestResponse,
          400: ApiError,
          401: ApiError,
          413: ApiError,
          415: ApiError,
          503: ApiError,
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new HttpError(415, 'unsupported_media_type', 'Send the message as multipart/form-data.');
      }
      const arrival = writer.arrive();
      try {
        // A chunked body is cut at the limit: the parser alone would read a 500 MB part to its end.
        const { meta, raw } = await withinBodyLimit(
          request.raw,
          maxBytes,
          () => readIngestForm(request.parts()),
          messageTooLarge,
        );
        // DESIGN §4: 201 `{id}` either way; a retry (same uuid) or a resend (same envelope and
        // bytes) gets the id already stored, so Haraka's retries are idempotent.
        const { id } = await ingestMessage({ db: ctx.db, write: arrival.write }, meta, raw, request.log);
        return reply.code(201).send({ id });
      } finally {
        arrival.leave();
      }
    },
  );

  app.get(
    '/api/quarantine/',
    {
      onRequest: auth,
      schema: {
        tags: ['quarantine'],
        summary: 'Quarantined e-mails the caller may see, newest first (keyset pages)',
        description:
          'A user sees mail addressed to them, a domain_admin their domain’s, an admin all; `recipients` ' +
          'lists only those. `status` (default pending = still held: pending, releasing, release_failed, ' +
          'release_unknown) matches any visible recipient. Pass `next_cursor` back as `cursor` with the same filters. ' +
          `A page asked with \`q\`, \`sender\` or \`recipient\` is a search: ${RATE_LIMITED} (QC_BUDGET_SEARCHES).`,
        security,
        querystring: QuarantineListQuery,
        response: { 200: QuarantineList, 400: ApiError, 401: ApiError, 429: ApiError },
      },
    },
    async (request) => {
      if (isQuarantineSearch(request.query)) await budgets.searches(userOf(request));
      return listQuarantine(ctx, currentAuth(request), request.query);
    },
  );

  app.get(
    '/api/quarantine/:id/',
    {
      onRequest: [auth, noStore],
      schema: {
        tags: ['quarantine'],
        summary: 'One quarantined e-mail: every field of spec §3',
        description: 'Unknown, or none of its recipients is the caller’s: 404 `email_not_found`.',
        security,
        params: IdParams,
        response: { 200: QuarantineDetail, 401: ApiError, 404: ApiError },
      },
    },
    async (request) => quarantineDetail(ctx, currentAuth(request), request.params.id),
  );

  app.get(
    '/api/quarantine/:id/raw/',
    {
      onRequest: [auth, noStore],
      // Every GET is recorded as a download: a HEAD (link checkers, prefetch) must not be.
      exposeHeadRoute: false,
      schema: {
        tags: ['quarantine'],
        summary: 'The raw message as a download (audited)',
        description:
          'message/rfc822, as an attachment named after the subject (`filename*` in UTF-8, `filename` in ' +
          'ASCII). Recorded in the history (download). ' +
          `Every call counts, ${RATE_LIMITED} (QC_BUDGET_DOWNLOADS), nothing recorded.`,
        security,
        params: IdParams,
        response: {
          // Sent as a Buffer: Fastify does not serialize it.
          200: {
            description: 'The original bytes, as received',
            content: { 'message/rfc822': { schema: z.file() } },
          },
          401: ApiError,
          404: ApiError,
          410: ApiError.describe('raw_purged: retention removed the original bytes'),
          429: ApiError,
        },
      },
    },
    async (request, reply) => {
      await budgets.downloads(userOf(request));
      const { data, disposition } = await downloadRaw(ctx, actorOf(request), request.params.id);
      return sendDownload(reply, { type: 'message/rfc822', disposition, data });
    },
  );

  app.get(
    '/api/quarantine/:id/attachments/:index/',
    {
      onRequest: [auth, noStore],
      exposeHeadRoute: false,
      schema: {
        tags: ['quarantine'],
        summary: 'One attachment of the e-mail as a download (audited), never rendered',
        description:
          'The decoded bytes of attachment `index` (0-based, the order of the detail’s `attachments`), as ' +
          'application/octet-stream with Content-Disposition attachment and nosniff. Same scope as the raw ' +
          'download; recorded in the history (download). 404 `attachment_not_found` for an index it does not have. ' +
          `Every call counts, ${RATE_LIMITED} (QC_BUDGET_DOWNLOADS), nothing recorded.`,
        security,
        params: IdParams.extend({ index: z.coerce.number().int().min(0).max(100_000) }),
        response: {
          200: { description: 'The attachment', content: { 'application/octet-stream': { schema: z.file() } } },
          400: ApiError,
          401: ApiError,
          404: ApiError,
          410: ApiError.describe('raw_purged: retention removed the original bytes'),
          429: ApiError,
        },
      },
    },
    async (request, reply) => {
      await budgets.downloads(userOf(request));
      const { id, index } = request.params;
      const { data, disposition } = await downloadAttachment(ctx, actorOf(request), id, index);
      return sendDownload(reply, { type: 'application/octet-stream', disposition, data });
    },
  );

  app.post(
    '/api/quarantine/:id/release-to/',
    {
      onRequest: auth,
      schema: {
        tags: ['quarantine'],
        summary:
          'Send a copy to another address of the caller’s scope (admin: any; domain_admin: their domain; user: theirs)',
        description:
          'The original bytes with X-Quarantine-Released, through the release relay, to `address` only; the ' +
          'recipients’ statuses do not change. Recorded in the history (release) with the recipients and the address. ' +
          '400 `validation_error` for an address that is not valid, not of the domain_admin’s domain, or not one of ' +
          'a user’s own addresses (a mail to an alias sent to the primary; nothing sent). 502 `relay_refused` | `relay_unreachable` | `release_unknown`. 410 `raw_purged`, ' +
          `503 \`relay_not_configured\`. ${RELEASING} Every call counts, ${RATE_LIMITED} (QC_BUDGET_RELEASES).`,
        security,
        params: IdParams,
        body: ReleaseToRequest,
        response: {
          200: ReleaseResponse,
          202: ReleaseInProgress,
          400: ApiError,
          401: ApiError,
          403: ApiError,
          404: ApiError,
          410: ApiError,
          429: ApiError,
          502: ReleaseFailure,
          503: ApiError,
        },
      },
    },
    async (request, reply) => {
      await budgets.releases(userOf(request));
      const answer = await releaseTo(ctx, actorOf(request), request.params.id, request.body.address, {
        log: request.log,
      });
      return releaseAnswer(reply, answer);
    },
  );

  app.post(
    '/api/quarantine/:id/release/',
    {
      onRequest: auth,
      schema: {
        tags: ['quarantine'],
        summary: 'Release to the recipients the caller acts for (SMTP re-injection of the original bytes)',
        description:
          '200 `released` (or `partially_released`: the relay refused some recipients, they are release_failed). ' +
          '502 `relay_refused` | `relay_unreachable` (stays quarantined, retry allowed) | `release_unknown` ' +
          '(connection lost after DATA: retry only with `{confirm_resend: true}`). 409 `already_released`, ' +
          '`release_in_progress`, `confirm_resend_required`, `email_deleted`. 410 `raw_purged` (retention removed ' +
          'the original bytes). 503 `relay_not_configured`. ' +
          `${RELEASING} Every call counts, ${RATE_LIMITED} (QC_BUDGET_RELEASES), nothing released.`,
        security,
        params: IdParams,
        body: ReleaseRequest,
        response: {
          200: ReleaseResponse,
          202: ReleaseInProgress,
          400: ApiError,
          401: ApiError,
          404: ApiError,
          409: ApiError,
          410: ApiError,
          429: ApiError,
          502: ReleaseFailure,
          503: ApiError,
        },
      },
    },
    async (request, reply) => {
      await budgets.releases(userOf(request));
      const answer = await releaseMessage(ctx, actorOf(request), request.params.id, {
        confirmResend: request.body?.confirm_resend === true,
        log: request.log,
      });
      return releaseAnswer(reply, answer);
    },
  );

  app.post(
    '/api/quarantine/bulk/',
    {
      onRequest: auth,
      schema: {
        tags: ['quarantine'],
        summary: `Release or delete up to ${BULK_MAX_IDS} e-mails; the outcome of each id`,
        description:
          'Each id goes through the single-item route’s logic (scope, release claim, history row): `released`, ' +
          '`partially_released`, `deleted`, or `failed` with the `code` that route would have answered ' +
          '(`email_not_found` for unknown or not yours, `already_released`, `raw_purged`, `relay_refused`, …), ' +
          'or `releasing`: not settled within QC_RELEASE_ANSWER_MS (10 s) for the whole request, its outcome ' +
          'recorded once the relay answers. ' +
          'Always 200 once the request is valid; a repeated id is acted on once. A release spends one release ' +
          `per distinct id, all or none: ${RATE_LIMITED} (QC_BUDGET_RELEASES), none released.`,
        security,
        body: BulkRequest,
        response: { 200: BulkResponse, 400: ApiError, 401: ApiError, 429: ApiError },
      },
    },
    async (request) => {
      const releases = bulkReleaseCount(request.body);
      if (releases) await budgets.releases(userOf(request), releases);
      return bulkAction(ctx, actorOf(request), request.body, request.log);
    },
  );

  app.delete(
    '/api/quarantine/:id/',
    {
      onRequest: auth,
      schema: {
        tags: ['quarantine'],
        summary: 'Delete (soft) for the recipients the caller sees',
        description:
          'Held recipients (pending, release_failed, release_unknown) become deleted; the raw is kept until ' +
          'retention. 204, also when already deleted. 409 `already_released` / `release_in_progress`.',
        security,
        params: IdParams,
        response: { 204: z.null().describe('Deleted'), 401: ApiError, 404: ApiError, 409: ApiError },
      },
    },
    async (request, reply) => {
      await deleteMessage(ctx, actorOf(request), request.params.id);
      return reply.code(204).send(null);
    },
  );
};
