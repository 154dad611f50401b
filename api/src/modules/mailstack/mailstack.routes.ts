import { ApiError } from '@qc/contracts';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createHash } from 'node:crypto';
import { domainToASCII } from 'node:url';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { checkIngestToken } from '../quarantine/ingest.service';
import { listDomainNames } from './mailstack.repository';

const MailstackDomains = z.object({
  domains: z.array(z.string()).describe('A-label (punycode), lower case, sorted by code point'),
});

/**
 * The list as the mail stack matches it: A-labels, lower case, no trailing dot, each once, sorted by
 * code point (not by the database's collation, which differs between SQLite and PostgreSQL and
 * would change the ETag of the same list).
 */
export function mailstackDomains(names: readonly string[]): string[] {
  const out = new Set<string>();
  for (const name of names) {
    const ascii = domainToASCII(name.trim().replace(/\.$/, ''));
    if (ascii) out.add(ascii);
  }
  return [...out].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

/** RFC 9110 §13.1.2: If-None-Match uses the weak comparison; `*` matches any current answer. */
export function noneMatch(header: string | undefined, etag: string): boolean {
  if (!header) return false;
  const opaque = etag.replace(/^W\//, '');
  return header.split(',').some((tag) => {
    const t = tag.trim();
    return t === '*' || t.replace(/^W\//, '') === opaque;
  });
}

/** The exact bytes the ETag names: a string is sent as is, not serialized again. */
function sendJsonText(reply: FastifyReply, body: string) {
  return reply.type('application/json; charset=utf-8').send(body);
}

export const mailstackRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get(
    '/api/mailstack/domains/',
    {
      onRequest: async (request) => {
        checkIngestToken(ctx.config.ingestToken, request.headers.authorization);
      },
      schema: {
        tags: ['mailstack'],
        summary: 'The domains the mail stack accepts mail for (service token: QC_INGEST_TOKEN)',
        description:
          "Polled by haraka-plugin-qconsole, which refuses RCPT for any other domain. The console's domains, " +
          'A-label lower case, sorted. A strong ETag; `If-None-Match` with it answers 304. HEAD answers the same ' +
          'headers. 503 `ingest_disabled` when QC_INGEST_TOKEN is unset; a database error is a 5xx (the plugin ' +
          'then keeps the list it has).',
        security: [{ ingest: [] }],
        response: { 200: MailstackDomains, 304: z.null(), 401: ApiError, 500: ApiError, 503: ApiError },
      },
    },
    async (request, reply) => {
      const body = JSON.stringify({ domains: mailstackDomains(await listDomainNames(ctx.db)) });
      const etag = `"${createHash('sha256').update(body).digest('base64url')}"`;
      reply.header('etag', etag);
      if (noneMatch(request.headers['if-none-match'], etag)) return reply.code(304).send(null);
      return sendJsonText(reply, body);
    },
  );
};
