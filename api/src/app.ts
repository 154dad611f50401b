import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { jsonSchemaTransform, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { AppContext } from './app-context';
import type { Config } from './config';
import { openMigratedDatabase, warnOfUnsafeDurability, type DatabaseHandle } from './db/database';
import { errorHandler } from './lib/error-handler';
import { redactHeaders, redactUrl } from './lib/log-redaction';
import { HttpError } from './lib/http-error';
import { registerCompression } from './lib/compression';
import { createSerializerCompiler } from './lib/serializer';
import { closeAfterAnswer } from './lib/lingering-close';
import { duplicateKey, strictBody } from './lib/strict-json';
import { createMailer, type Mailer } from './lib/mailer';
import { createPasswordHasher } from './lib/passwords';
import { createReauthLimiter } from './modules/auth/attempt-limiter';
import { authRoutes } from './modules/auth/auth.routes';
import { createTokenService } from './modules/auth/tokens';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes';
import { createDirectory } from './modules/directory/directory';
import { directoryRoutes } from './modules/directory/directory.routes';
import { createOidcClient } from './modules/oidc/oidc-client';
import { oidcRoutes } from './modules/oidc/oidc.routes';
import { domainsRoutes } from './modules/domains/domains.routes';
import { feedbackRoutes } from './modules/feedback/feedback.routes';
import { harakaLogsRoutes } from './modules/haraka-logs/haraka-logs.routes';
import { healthRoutes } from './modules/health/health.routes';
import { scheduleJobs } from './modules/jobs/jobs.service';
import { historyRoutes } from './modules/history/history.routes';
import { learningRoutes } from './modules/learning/learning.routes';
import { listsRoutes } from './modules/lists/lists.routes';
import { mailstackRoutes } from './modules/mailstack/mailstack.routes';
import { mfaRoutes } from './modules/mfa/mfa.routes';
import { digestLinksRoutes } from './modules/notifications/digest-links.routes';
import { notificationsRoutes } from './modules/notifications/notifications.routes';
import { rspamdMapsRoutes } from './modules/rspamd-maps/maps.routes';
import { preferencesRoutes } from './modules/preferences/preferences.routes';
import { profileRoutes } from './modules/profile/profile.routes';
import { quarantineRoutes } from './modules/quarantine/quarantine.routes';
import { inFlightReleases } from './modules/quarantine/release-inflight';
import { rspamdRoutes } from './modules/rspamd/rspamd.routes';
import { statisticsRoutes } from './modules/statistics/statistics.routes';
import { usersRoutes } from './modules/users/users.routes';
import { API_CSP, API_PREFIX, consoleCsp, DOCS_CSP, DOCS_PREFIX } from './modules/web/csp';
import { createRemotesSource } from './modules/web/remotes.service';
import { NO_CACHE, NOT_BUILT_PAGE, readShell, wantsSpaShell } from './modules/web/web.service';
import { webRoutes } from './modules/web/web.routes';

export interface BuildOptions {
  /** An open, migrated database; the app closes it on close. When absent: opened from config and migrated. */
  database?: DatabaseHandle;
  /** Where the console's own e-mails go. Default: QC_SMTP_URL, or the log when it is unset. */
  mailer?: Mailer;
  /** Run the scheduled jobs (retention) in this process; the server does, tests call the jobs directly. */
  scheduleJobs?: boolean;
  /** Where the log lines go (default: standard output); tests read them. */
  logStream?: { write(line: string): void };
}

/**
 * Behind a reverse proxy left out of QC_TRUSTED_PROXIES, every client has the proxy's address: one
 * sign-in budget for the whole site, and the proxy's address in the audit trail. Said once per
 * process, at the first request that shows it.
 */
function warnOfUntrustedProxy(app: FastifyInstance) {
  let warned = false;
  app.addHook('onRequest', async (request) => {
    if (warned || request.headers['x-forwarded-for'] === undefined) return;
    warned = true;
    request.log.warn(
      'X-Forwarded-For arrives but QC_TRUSTED_PROXIES is empty: every client counts as the proxy ' +
        '(one sign-in budget, one audit address for all). List the proxy there.',
    );
  });
}

/**
 * The request as its log line shows it. Links e-mailed by the console carry their secret in the
 * URL (`/invitation?token=…`, `/digest/<token>`), and a client may put one there (`?access_token=`):
 * no usable credential is written to the access log.
 */
export function requestForLog(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

/**
 * The request's path as the router matched it: percent-decoded. `/%61pi/users/me/` reaches the
 * route /api/users/me/, so it must get the api's headers and checks too (issue 21 item 7).
 */
export function routedPath(url: string): string {
  const path = url.split('?')[0]!;
  if (!path.includes('%')) return path;
  try {
    return decodeURIComponent(path);
  } catch {
    return path; // not decodable: refused by frameworkErrors before any hook
  }
}

/** `getQuarantineIdRaw` for GET /api/quarantine/:id/raw/. */
export function operationId(method: string, url: string): string {
  const words = url
    .replace(/^\/api\//, '')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return method.toLowerCase() + words.map((w) => w[0]!.toUpperCase() + w.slice(1)).join('');
}

export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      // `headers` too: whatever logs a request's or a call's headers goes through the same rule.
      serializers: { req: requestForLog, headers: redactHeaders },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    // X-Forwarded-For is honoured only from these addresses (request.ip, rate limits, audit).
    trustProxy: config.trustedProxies.length ? config.trustedProxies : false,
    // A digest link's signed token (issue 20) is a path parameter of ~250 characters; each route's
    // schema still bounds its own parameters.
    routerOptions: { maxParamLength: 1024 },
    // A path that cannot be decoded (/mail/%E0%A4%A) reaches no route or hook: a browser is sent to
    // the console's not-found page, anything else gets the api's error shape.
    frameworkErrors: (error, request, reply: FastifyReply) => {
      const urlPath = request.url.split('?')[0]!;
      if (wantsSpaShell(request.method, urlPath, request.headers.accept)) return reply.redirect('/not-found', 302);
      const status = error.statusCode && error.statusCode < 500 ? error.statusCode : 400;
      return reply
        .code(status)
        .headers({
          'content-security-policy': API_CSP,
          'x-content-type-options': 'nosniff',
          'cache-control': 'private, no-cache',
        })
        .send({ detail: 'The URL is not valid.', code: 'bad_request' });
    },
  }).withTypeProvider<ZodTypeProvider>();
  // Unknown body fields are refused (400 naming them), not dropped in silence: a caller would take
  // the answer for the fields' effect (issue 21 item 6).
  app.setValidatorCompiler<Parameters<typeof validatorCompiler>[0]['schema']>((route) =>
    validatorCompiler(route.httpPart === 'body' ? { ...route, schema: strictBody(route.schema) } : route),
  );
  // Compiled serializers; the tests (NODE_ENV=test) also check every answer against zod's.
  app.setSerializerCompiler(createSerializerCompiler({ check: process.env.NODE_ENV === 'test' }));

  const database = options.database ?? (await openMigratedDatabase(config.database, app.log));
  await warnOfUnsafeDurability(database, app.log);
  const jobs = options.scheduleJobs ? scheduleJobs({ db: database.db, config }, app.log) : null;
  const directory = config.ldap ? createDirectory(config.ldap, app.log) : null;
  app.addHook('onClose', async () => {
    await jobs?.stop(); // a run in progress finishes before the database closes
    await inFlightReleases(database.db).close(); // so do releases answered 202 (their outcome recorded)
    await directory?.close(); // its pooled connections, unbound
    await database.close();
  });

  const ctx: AppContext = {
    config,
    db: database.db,
    dialect: database.dialect,
    passwords: createPasswordHasher(config.argon2),
    tokens: createTokenService(config.secretKey, {
      access: config.accessTtl,
      partial: config.partialTtl,
      setup: config.mfaSetupTtl,
    }),
    mailer: options.mailer ?? createMailer(config, app.log),
    directory,
    oidc: config.oidc ? createOidcClient(config.oidc, config.publicUrl) : null,
  };
  const remotes = createRemotesSource(config, app.log);

  app.decorateRequest('auth', null);
  if (!config.trustedProxies.length) warnOfUntrustedProxy(app);
  app.setErrorHandler(errorHandler);

  // CSP is ours (pages: it follows the current remotes file); helmet sets the other headers.
  await app.register(helmet, { contentSecurityPolicy: false, frameguard: { action: 'deny' } });
  app.addHook('onRequest', async (request, reply) => {
    const path = routedPath(request.url);
    if (path.startsWith(DOCS_PREFIX)) return; // Swagger UI sets its own
    if (path.startsWith(API_PREFIX)) {
      // The api's answers need no remote origins: no look at the remotes file on their hot path.
      // Tokens, mail and counts: never from a shared cache, never reused unchecked. Not `no-store`
      // (RFC 6749 §5.1): Debian's Chromium 156 closes the page when DevTools reads a no-store
      // body, which breaks every browser test and trace that reads one (downloads keep theirs).
      reply.header('content-security-policy', API_CSP).header('cache-control', 'private, no-cache');
      return;
    }
    reply.header('content-security-policy', consoleCsp(await remotes.origins()));
  });
  // Every api body is JSON or multipart: a text/plain body gets the same 415 as any other type,
  // instead of a 400 saying that a string is not an object.
  app.removeContentTypeParser('text/plain');
  // Fastify's JSON parser (prototype-poisoning checks kept), and a body with a key given twice is
  // refused: last-wins would let `{"password":"a","password":"b"}` mean one thing here and another
  // to whatever read it before (a proxy, a WAF, a log).
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    parseJson(request, body as string, (err, value) => {
      if (err) return done(err, undefined);
      const key = duplicateKey(body as string);
      if (key === null) return done(null, value);
      done(new HttpError(400, 'validation_error', 'The request is not valid.', { [key]: 'Given more than once.' }));
    });
  });
  // An error answered before the body was read to its end (413 at the limit, 401 before an upload):
  // close the connection instead of letting Node read and discard the rest (500 MB, issue 21 item 4).
  app.addHook('onSend', async (request, reply) => {
    if (reply.statusCode < 400 || request.raw.complete) return;
    reply.header('connection', 'close');
    if (request.raw.socket) closeAfterAnswer(request.raw.socket);
  });
  // br or gzip for the api's JSON answers over 1 KB; static files come pre-compressed (issue 22).
  registerCompression(app, (request) => routedPath(request.url).startsWith(API_PREFIX));
  // `?status=a&status=b` would otherwise reach a schema as an array and be refused with a
  // type error that does not say what was wrong.
  app.addHook('preValidation', async (request) => {
    // The console's pages and files take any query string (a deep link is the browser's to keep).
    if (!routedPath(request.url).startsWith(API_PREFIX)) return;
    const query = request.query as Record<string, unknown> | undefined;
    for (const key in query) {
      if (Array.isArray(query[key])) {
        throw new HttpError(400, 'validation_error', 'The request is not valid.', {
          [key]: 'Given more than once.',
        });
      }
    }
  });

  // One budget per user for every password or code check of a signed-in user, whatever the route.
  const reauth = createReauthLimiter(database.db, config.reauthMax, config.loginRate.windowSeconds);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Quarantine Console API', version: '1.0.0' },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          ingest: { type: 'http', scheme: 'bearer', description: 'The service token QC_INGEST_TOKEN (Haraka plugin)' },
          rspamdMaps: { type: 'http', scheme: 'basic', description: 'Password QC_RSPAMD_MAPS_TOKEN (Rspamd maps)' },
        },
      },
    },
    // The document shows the bodies as validated: unknown fields refused (additionalProperties: false).
    transform: (data) =>
      jsonSchemaTransform({ ...data, schema: { ...data.schema, body: strictBody(data.schema.body) } }),
  });
  // Clients generated from the document name their calls after these: GET /api/quarantine/:id/raw/
  // → getQuarantineIdRaw.
  app.addHook('onRoute', (route) => {
    if (!route.url.startsWith('/api/') || !route.schema || typeof route.method !== 'string') return;
    route.schema.operationId ??= operationId(route.method, route.url);
  });
  await app.register(swaggerUi, { routePrefix: DOCS_PREFIX, staticCSP: DOCS_CSP, validatorUrl: false });
  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());

  await app.register(authRoutes, { ctx });
  await app.register(usersRoutes, { ctx });
  await app.register(domainsRoutes, { ctx });
  await app.register(directoryRoutes, { ctx });
  await app.register(oidcRoutes, { ctx });
  await app.register(rspamdRoutes, { ctx });
  await app.register(mfaRoutes, { ctx, reauth });
  await app.register(profileRoutes, { ctx, reauth });
  await app.register(preferencesRoutes, { ctx });
  await app.register(notificationsRoutes, { ctx });
  await app.register(digestLinksRoutes, { ctx });
  await app.register(feedbackRoutes, { ctx });
  await app.register(dashboardRoutes, { ctx });
  await app.register(quarantineRoutes, { ctx });
  await app.register(listsRoutes, { ctx });
  await app.register(learningRoutes, { ctx });
  await app.register(historyRoutes, { ctx });
  await app.register(statisticsRoutes, { ctx });
  await app.register(harakaLogsRoutes, { ctx });
  await app.register(healthRoutes, { ctx });
  await app.register(mailstackRoutes, { ctx });
  await app.register(rspamdMapsRoutes, { ctx });
  await app.register(webRoutes, { ctx, remotes });

  app.setNotFoundHandler(async (request, reply) => {
    const urlPath = routedPath(request.url);
    if (wantsSpaShell(request.method, urlPath, request.headers.accept)) {
      const shell = await readShell(config.staticDir);
      reply.header('cache-control', NO_CACHE).type('text/html; charset=utf-8');
      return shell ? reply.send(shell) : reply.status(503).send(NOT_BUILT_PAGE);
    }
    return reply.status(404).send({ detail: 'Not found.', code: 'not_found' });
  });

  return app;
}
