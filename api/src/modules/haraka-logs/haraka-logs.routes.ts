import {
  ApiError,
  HarakaLogPage,
  HarakaLogQuery,
  HarakaLogsPerDay,
  HarakaStatsQuery,
  HarakaSummary,
  LogsSubject,
  HarakaUuidLogs,
  LOG_LIMITS,
  LogIngestRequest,
  LogIngestResponse,
  UUID_LOG_LINES,
} from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { HttpError } from '../../lib/http-error';
import { requireAuthHook, requireRoleHook } from '../auth/authenticate';
import { checkIngestToken } from '../quarantine/ingest.service';
import { ingestLogs, logsPerDay, logSummary, searchLogs, uuidLogs } from './haraka-logs.service';

/** Largest ingest body: LOG_LIMITS.batch lines of a typical size, with room for long ones. */
export const LOG_INGEST_BODY_LIMIT = 16 * 1024 * 1024;

const tooLarge = (detail: string) => new HttpError(413, 'payload_too_large', detail);
const tags = ['haraka'];
const security = [{ bearer: [] }];
const UuidParams = z.object({ uuid: LogsSubject });

export const harakaLogsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Role checked before the query is validated: a domain_admin or user learns nothing but 403.
  const adminOnly = [requireAuthHook(ctx), requireRoleHook('admin')];

  app.post(
    '/api/haraka/logs/ingest/',
    {
      bodyLimit: LOG_INGEST_BODY_LIMIT,
      onRequest: async (request) => {
        // Before the body is read: a wrong token or an announced oversize body costs nothing.
        checkIngestToken(ctx.config.ingestToken, request.headers.authorization);
        const length = Number(request.headers['content-length']);
        if (Number.isFinite(length) && length > LOG_INGEST_BODY_LIMIT) throw tooLarge('The batch is too large.');
      },
      preValidation: async (request) => {
        // Too many lines is a 413 (send smaller batches), not a 400 naming the array.
        const lines = (request.body as { lines?: unknown } | null)?.lines;
        if (Array.isArray(lines) && lines.length > LOG_LIMITS.batch) {
          throw tooLarge(`At most ${LOG_LIMITS.batch} lines per batch.`);
        }
      },
      schema: {
        tags,
        summary: 'Store Haraka log lines (service token: QC_INGEST_TOKEN)',
        description:
          `JSON \`{lines: [{id, ts, level, hostname, uuid?, origin?, message}]}\`, at most ${LOG_LIMITS.batch} ` +
          `lines (413 above, and above ${LOG_INGEST_BODY_LIMIT / 1024 / 1024} MiB). 202 \`{accepted, duplicates, ` +
          'refused}` once committed: `id` is unique per line for its hostname (the shipper’s `<boot id>:<seq>`), so a ' +
          'line resent after an outage is counted in `duplicates` and stored once. Levels map to the four ' +
          'severities (DEBUG, INFO → INFO; NOTICE; WARN, WARNING → WARN; ERROR, CRIT, ALERT, EMERG → ERROR); ' +
          'PROTOCOL and DATA lines (the SMTP dialogue, message and AUTH content) are never stored: counted in ' +
          '`refused`. Any other level is kept as INFO with the level at the start of the message (`[LEVEL] …`). ' +
          'Hostnames are stored in lower case, Haraka uuids in upper case (any other uuid, e.g. `-`: none). ' +
          '401 without or with a wrong token; 503 `ingest_disabled` when QC_INGEST_TOKEN is unset.',
        body: LogIngestRequest,
        security: [{ ingest: [] }],
        response: { 202: LogIngestResponse, 400: ApiError, 401: ApiError, 413: ApiError, 415: ApiError, 503: ApiError },
      },
    },
    async (request, reply) => reply.code(202).send(await ingestLogs(ctx, request.body.lines)),
  );

  app.get(
    '/api/haraka/logs/',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Haraka log lines, newest first, within a time window (admin)',
        description:
          'Always bounded by time: without dates the last 24 h; `date_to` alone: the 24 h before it; `date_from` ' +
          `alone: from it to now; at most ${LOG_LIMITS.searchDays} days (400 naming date_from beyond, or when ` +
          'reversed). Dates: ISO 8601 date-times, or dates (a UTC day, inclusive). `severity`: one or several, ' +
          'comma-separated; `hostname`: exact (case-insensitive); `uuid`: a connection (its transactions too) or ' +
          'a transaction `<connection>.<n>`; `q`: a part of the message (case-insensitive), searched within the ' +
          'window; a control character typed as the pages show it (`\\r`, `\\n`, `\\t`, `\\xHH`, `\\uHHHH`) also ' +
          'finds the lines holding that character (messages are stored as received). Pass `next_cursor` back as ' +
          '`cursor` with the same filters. `window`: what was searched.',
        security,
        querystring: HarakaLogQuery,
        response: { 200: HarakaLogPage, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => searchLogs(ctx, request.query),
  );

  app.get(
    '/api/haraka/logs/:uuid/',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary:
          'Every line of one Haraka connection or transaction, or of one quarantined e-mail, oldest first (admin)',
        description:
          'A connection uuid gives its own lines and those of all its transactions (`<uuid>.<n>`); a transaction ' +
          'uuid, its lines only; a quarantined e-mail’s id, those of the transaction it was received in. ' +
          `At most ${UUID_LOG_LINES} lines (\`truncated\` when there were more; the oldest ` +
          'are kept). `transactions`: per transaction, its outcome read from the lines (haraka-plugin-qconsole’s ' +
          '"quarantined", "discarded", "rejected by", "deferred"; Haraka’s `queue code=OK|DENY*|DENYSOFT*` and ' +
          'hook DENY*; the disconnect line of a one-transaction connection) and the quarantined e-mail it became ' +
          '(by its uuid, or a sender’s retry matched to a copy stored earlier). 400 `errors.uuid` when malformed; ' +
          '404 `logs_not_found` when no line has it (or no e-mail has that id).',
        security,
        params: UuidParams,
        response: { 200: HarakaUuidLogs, 400: ApiError, 401: ApiError, 403: ApiError, 404: ApiError },
      },
    },
    async (request) => uuidLogs(ctx, request.params.uuid),
  );

  app.get(
    '/api/haraka/statistics/summary/',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Haraka log totals over the last N days (admin)',
        description:
          '`?days=2|7|30|90|180|365` (default 7): the last N UTC days, today included. From the rollups kept at ' +
          'ingest (never a scan of the lines): totals by severity, the 10 hostnames with the most lines, the 10 ' +
          'origins (plugins, core) with the most ERROR then WARN lines, and lines per UTC hour of the day.',
        security,
        querystring: HarakaStatsQuery,
        response: { 200: HarakaSummary, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => logSummary(ctx, request.query.days),
  );

  app.get(
    '/api/haraka/statistics/logs-per-day/',
    {
      onRequest: adminOnly,
      schema: {
        tags,
        summary: 'Haraka log lines per UTC day and severity (admin)',
        description:
          '`?days=2|7|30|90|180|365` (default 7): one entry per UTC day, oldest first, days without lines ' +
          'included (zeros). From the rollups kept at ingest.',
        security,
        querystring: HarakaStatsQuery,
        response: { 200: HarakaLogsPerDay, 400: ApiError, 401: ApiError, 403: ApiError },
      },
    },
    async (request) => logsPerDay(ctx, request.query.days),
  );
};
