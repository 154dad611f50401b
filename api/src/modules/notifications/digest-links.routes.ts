import { normalizeIP } from '@fastify/rate-limit';
import { ApiError, DigestActOutcome, DigestLinkInfo } from '@qc/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../app-context';
import { createAttemptCounter } from '../auth/attempt-counter';
import { throwIfLimited } from '../auth/attempt-limiter';
import { actOnLink, linkInfo } from './digest-links.service';
import { verifyDigestLink } from './digest-link';

const TokenParams = z.object({ token: z.string().min(1).max(1024) });

/**
 * The confirm page's POST sends no body (or `{}`); a mail client's RFC 8058 one-click unsubscribe
 * sends the form `List-Unsubscribe=One-Click`. The token alone says what to do.
 */
const ActBody = z
  .object({ 'List-Unsubscribe': z.literal('One-Click').optional() })
  .strict()
  .nullish();

/** 409: the first POST's outcome (null while it is still under way). */
export const DigestLinkUsed = ApiError.extend({ outcome: DigestActOutcome.nullable() });

/** 303 of a browser to the console's confirm page. */
const SeeOther = z.null().describe('A browser (Accept: text/html) is sent to the confirm page /digest/{token}');

export const digestLinksRoutes: FastifyPluginAsyncZod<{ ctx: AppContext }> = async (app, { ctx }) => {
  // Anonymous (the token is the credential): a token whose signature does not hold counts against
  // the client address's budget, the size of the sign-in one (QC_LOGIN_RATE_IP_MAX per
  // QC_LOGIN_RATE_WINDOW). A genuine link does not: many users behind one office address, or a mail
  // provider's one-click unsubscribe (RFC 8058) from its few addresses, must not lock each other out;
  // a genuine link is single use anyway.
  const perIp = createAttemptCounter(ctx.db, {
    name: 'digest-link',
    max: ctx.config.loginRate.ipMax,
    windowSeconds: ctx.config.loginRate.windowSeconds,
  });
  const limit = async (ip: string, token: string) => {
    if (verifyDigestLink(ctx.config.secretKey, token)) return;
    throwIfLimited([await perIp(normalizeIP(ip))], 'Too many attempts. Try again later.');
  };

  // RFC 8058's one-click POST is form-encoded; Fastify parses no forms by default. Scoped to this
  // plugin: every other route still answers 415 to a form.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );

  app.get(
    '/api/digest/:token/',
    {
      schema: {
        tags: ['notifications'],
        summary: 'What a digest link would do (public; changes nothing)',
        description:
          'The token of a digest e-mail’s link is the credential. Never acts (mail scanners prefetch links): ' +
          '`state` ready | used (with the first `outcome`) | expired | invalid (tampered, unknown, a deactivated ' +
          'account, a message no longer the recipient’s: nothing told about it). A browser (Accept: text/html) ' +
          'is sent 303 to the console’s confirm page `/digest/{token}`. Tokens that are not genuine are limited ' +
          'per client address like sign-ins (429).',
        params: TokenParams,
        response: { 200: DigestLinkInfo, 303: SeeOther, 400: ApiError, 429: ApiError },
      },
    },
    async (request, reply) => {
      await limit(request.ip, request.params.token);
      if (request.headers.accept?.includes('text/html')) {
        const page = `${ctx.config.publicUrl}/digest/${encodeURIComponent(request.params.token)}`;
        return reply.redirect(page, 303);
      }
      return linkInfo(ctx, request.params.token);
    },
  );

  app.post(
    '/api/digest/:token/',
    {
      schema: {
        tags: ['notifications'],
        summary: 'Act on a digest link, once (public; the token is the credential)',
        description:
          'release (the normal release through the relay: its answer in `relay_response`), allow_sender (the ' +
          'sender into the recipient’s whitelist, or their domain’s for a domain digest), delete, unsubscribe ' +
          '(notifications off). As the link’s user with their rights now; each action writes its usual history ' +
          'row. 200 with the outcome: `already_done` when released or deleted by other means; `failed` when the ' +
          'relay refused (`relay_response`) or another release is under way: the link is not spent, try again. ' +
          '404 `digest_link_invalid` (tampered, unknown, deactivated account, message no longer theirs); 409 ' +
          '`digest_link_used` with the first `outcome`; 410 `digest_link_expired`; 503 `relay_not_configured`. ' +
          'Of concurrent POSTs one acts. RFC 8058: the form `List-Unsubscribe=One-Click` is accepted.',
        consumes: ['application/json', 'application/x-www-form-urlencoded'],
        params: TokenParams,
        body: ActBody,
        response: {
          200: DigestActOutcome,
          400: ApiError,
          404: ApiError,
          409: DigestLinkUsed,
          410: ApiError,
          429: ApiError,
          503: ApiError,
        },
      },
    },
    async (request) => {
      await limit(request.ip, request.params.token);
      return actOnLink(ctx, request.params.token, request.ip ?? null, request.log);
    },
  );
};
