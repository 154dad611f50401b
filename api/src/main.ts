import cluster from 'node:cluster';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { SHUTDOWN_MESSAGE, startPrimary, startWorker } from './cluster';
import { ConfigError, loadConfig } from './config';
import { startServer } from './server';

const out = (text: string) => process.stdout.write(text);

async function main() {
  const config = loadConfig();
  if (cluster.isPrimary && config.workers > 1) {
    const primary = await startPrimary(config, out, (line) => process.stderr.write(`${line}\n`));
    closeWithGrace({ delay: 15_000 }, () => primary.stop());
    return;
  }
  const app = cluster.isWorker ? await startWorker(config) : await startServer(config, out);
  closeOnSignal(app);
}

/** SIGINT/SIGTERM, the primary's request or a crash: stop accepting, finish in-flight requests, close the database. */
function closeOnSignal(app: FastifyInstance) {
  let closing = false;
  const { close } = closeWithGrace({ delay: 10_000, logger: app.log }, async ({ signal, err }) => {
    closing = true;
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
  process.on('message', (message) => {
    if (message === SHUTDOWN_MESSAGE && !closing) void close();
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : ((err as Error)?.stack ?? String(err))}\n`);
  process.exit(1);
});
