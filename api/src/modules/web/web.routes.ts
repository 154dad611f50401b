import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import path from 'node:path';
import type { AppContext } from '../../app-context';
import { REMOTE_FOLDERS, type RemotesSource } from './remotes.service';
import { cacheControlFor, NO_CACHE } from './web.service';

const setCacheHeaders = (reply: FastifyReply, filePath: string) => {
  reply.header('cache-control', cacheControlFor(filePath));
};

const staticDefaults = {
  decorateReply: false,
  cacheControl: false, // ours, per file (setCacheHeaders)
  setHeaders: setCacheHeaders,
  wildcard: true, // looked up per request: a build finished after start-up is served at once
  suppressWarning: true, // a missing build is a normal state (not built yet), handled by the fallback
  serveDotFiles: false,
  preCompressed: true, // the build writes .br/.gz beside each asset (@qc/mf-config PrecompressPlugin)
} as const;

/**
 * Same-origin web serving (DESIGN §4): the host at /, each remote at /remotes/<folder>/ from
 * <QC_REMOTES_DIR>/<folder>/dist, and /remotes.json. Unknown files fall through to the app's
 * not-found handler (SPA fallback or 404).
 */
export const webRoutes: FastifyPluginAsync<{ ctx: AppContext; remotes: RemotesSource }> = async (
  app,
  { ctx, remotes },
) => {
  await app.register(fastifyStatic, {
    ...staticDefaults,
    root: ctx.config.staticDir,
    prefix: '/',
    index: 'index.html',
  });
  for (const folder of Object.values(REMOTE_FOLDERS)) {
    await app.register(fastifyStatic, {
      ...staticDefaults,
      root: path.join(ctx.config.remotesDir, folder, 'dist'),
      prefix: `/remotes/${folder}/`,
      index: false,
    });
  }

  app.get('/remotes.json', { schema: { hide: true } }, async (_request, reply) => {
    const manifest = await remotes.manifest();
    return reply.header('cache-control', NO_CACHE).type('application/json').send(JSON.stringify(manifest));
  });
};
