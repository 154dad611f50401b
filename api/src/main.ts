import closeWithGrace from 'close-with-grace';
import { ConfigError, loadConfig } from './config';
import { startServer } from './server';

async function main() {
  const config = loadConfig();
  const app = await startServer(config, (text) => process.stdout.write(text));
  // SIGINT/SIGTERM or a crash: stop accepting, finish in-flight requests, close the database.
  closeWithGrace({ delay: 10_000, logger: app.log }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    await app.close();
  });
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof ConfigError ? err.message : ((err as Error)?.stack ?? String(err))}\n`);
  process.exit(1);
});
