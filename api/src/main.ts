import './require-node'; // first: before any import that loads a native addon
import cluster from 'node:cluster';
import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { SHUTDOWN_MESSAGE, startPrimary, startWorker } from './cluster';
import { ConfigError, loadConfig, misspeltVariables } from './config';
import { startServer } from './server';

const out = (text: string) => process.stdout.write(text);

async function main() {
  const config = loadConfig();
  if (cluster.isPrimary) for (const warning of misspeltVariables(process.env)) process.stderr.write(`${warning}\n`);
  if (cluster.isPrimary && config.workers > 1) {
    const primary = await startPrimary(config, out, (line) => process.stderr.write(`${line}\n`));
    closeWithGrace({ delay: 15_000 }, () => primary.stop());
    return;
  }
  const app = cluster.isWorker ? await startWorker(config) : await startServer(config, out);
  closeOnSignal(app);
}

const SIGNALS = ['SIGINT', 'SIGTERM'] as const;

/** SIGINT/SIGTERM, the primary's request or a crash: stop accepting, finish in-flight requests, close the database. */
function closeOnSignal(app: FastifyInstance) {
  let closing = false;
  // A worker gets its stop from the primary and, when its whole process group is signalled, a
  // signal too: both go to one guarded close (close-with-grace would take the second one as
  // "exit now" and drop the requests in flight).
  const { close } = closeWithGrace(
    { delay: 10_000, logger: app.log, skip: cluster.isWorker ? [...SIGNALS] : [] },
    async ({ signal, err }) => {
      closing = true;
      if (err) app.log.error({ err }, 'shutting down after an error');
      else app.log.info({ signal }, 'shutting down');
      await app.close();
    },
  );
  if (!cluster.isWorker) return;
  const closeOnce = () => {
    if (!closing) void close();
  };
  for (const signal of SIGNALS) process.on(signal, closeOnce);
  process.on('message', (message) => message === SHUTDOWN_MESSAGE && closeOnce());
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : ((err as Error)?.stack ?? String(err))}\n`);
  process.exit(1);
});
