import { ApiError } from '@qc/contracts';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { notFound } from '../../lib/http-error';
import { noneMatch } from '../mailstack/mailstack.routes';
import { findMap, RSPAMD_MAPS } from './map-builder';
import { checkMapsAccess, createAllowList, createMapSource, notModifiedSince } from './maps.service';

const httpDate = (ms: number) => new Date(ms).toUTCString();

/**
 * Rspamd polls every map every few seconds (about 30 maps): an answer (200, 304) is one debug line,
 * not Fastify's two info lines; a refusal (4xx: a wrong secret, an unknown map) stays a warning. A
 * 5xx is logged by the error handler.
 */
function logMapAnswer(log: FastifyBaseLogger, request: FastifyRequest, reply: FastifyReply) {
  const line = { reqId: request.id, req: request, res: reply, responseTime: reply.elapsedTime };
  if (reply.statusCode < 400) log.debug(line, 'Rspamd map answered');
  else if (reply.statusCode < 500) log.warn(line, 'Rspamd map request refused');
}

/**
 * GET and HEAD /api/rspamd/maps/<map>: the console's Rspamd rules as the maps Rspamd polls
 * (mailstack/rspamd/local.d/multimap.conf, rspamd.lua). Rspamd 3.4 asks with HEAD, then GET, and
 * sends the ETag and Last-Modified it got: a strong ETag (hash of the body) decides first, then
 * If-Modified-Since at one-second resolution against the list's last change; Expires tells it when
 * to ask again. The body is built whole before anything is sent, and never empty.
 */
export const rspamdMapsRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  const settings = ctx.config.rspamdMaps;
  const allowed = createAllowList(settings.allow);
  const source = createMapSource(ctx.db);
  // Fastify's own request lines (info) off for this route; an api that logs less keeps its level.
  const logLevel = ['error', 'fatal', 'silent'].includes(ctx.config.logLevel) ? ctx.config.logLevel : 'warn';

  app.get(
    '/api/rspamd/maps/:map',
    {
      logLevel,
      onResponse: async (request, reply) => logMapAnswer(app.log, request, reply),
      onRequest: async (request) => {
        checkMapsAccess(settings, allowed, request.socket.remoteAddress, request.headers.authorization);
      },
      schema: {
        tags: ['rspamd'],
        summary: 'A map of the Rspamd rules, as Rspamd fetches it (service secret: QC_RSPAMD_MAPS_TOKEN)',
        description:
          'For Rspamd only: HTTP basic auth whose password is QC_RSPAMD_MAPS_TOKEN (any user name), from an ' +
          'address of QC_RSPAMD_MAPS_ALLOW (the connection, never X-Forwarded-For). Plain-text multimap maps ' +
          '(`filters-<family>-<exact|radix|regex>-<action>`: one `<key> filter:<id>` line per enabled filter after a ' +
          '`# qconsole <map> version <n>` line) and three JSON maps (`apanel-filters.json`, `system-rules.json`, ' +
          '`sender-lists.json`: the whitelists and blacklists as `[owner, sender, w|b, id]` entries). ' +
          'A strong ETag; `If-None-Match` decides first, else `If-Modified-Since` (Last-Modified is the last change ' +
          'of the list, deletes and disables included): 304. Expires = now + QC_RSPAMD_MAPS_EXPIRES. 503 ' +
          '`maps_disabled` while QC_RSPAMD_MAPS_TOKEN is unset; a database error is a 5xx (Rspamd keeps its copy). ' +
          `Maps: ${RSPAMD_MAPS.map((m) => m.name).join(', ')}.`,
        params: z.object({ map: z.string().max(100) }),
        security: [{ rspamdMaps: [] }],
        response: {
          200: z.string(),
          304: z.null(),
          401: ApiError,
          403: ApiError,
          404: ApiError,
          500: ApiError,
          503: ApiError,
        },
      },
    },
    async (request, reply) => {
      const spec = findMap(request.params.map);
      if (!spec) throw notFound('No such map.');
      const map = await source.get(spec);
      const now = Date.now();
      reply.headers({
        etag: map.etag,
        'last-modified': httpDate(Math.floor(map.changedAt / 1000) * 1000),
        expires: httpDate(now + settings.expiresSeconds * 1000),
      });
      // RFC 9110 §13.2.2: If-Modified-Since only counts when If-None-Match is absent. Two changes
      // in one second share a Last-Modified; the ETag still tells them apart.
      const inm = request.headers['if-none-match'];
      const unchanged =
        inm !== undefined
          ? noneMatch(inm, map.etag)
          : notModifiedSince(request.headers['if-modified-since'], map.changedAt);
      if (unchanged || request.method === 'GET') source.recordFetch(spec, map.version, request.log, now);
      if (unchanged) return reply.code(304).send(null);
      return reply
        .type(spec.format === 'json' ? 'application/json; charset=utf-8' : 'text/plain; charset=utf-8')
        .send(map.body);
    },
  );
};
