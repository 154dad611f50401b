// Child process of run.mjs (under tsx): the real api on the benchmark database (configured by the
// QC_* variables) and, beside it, a bare Fastify route — the ceiling the list endpoint is compared
// with. With QC_WORKERS > 1 (the default: the CPUs) the api runs as it does in production, workers
// forked by the primary through api/src/cluster.ts; the bare route stays in the primary.
// Prints one line `READY {"api": port, "bare": port, "workers": n}`.
import cluster from 'node:cluster';
import { createRequire } from 'node:module';

const apiRequire = createRequire(new URL('../../api/package.json', import.meta.url));
const Fastify = apiRequire('fastify');
const { loadConfig } = await import('../../api/src/config.ts');
const { buildApp } = await import('../../api/src/app.ts');
const { SHUTDOWN_MESSAGE, startPrimary, startWorker } = await import('../../api/src/cluster.ts');

// QC_BENCH_PROFILE=<dir>: each serving process writes a CPU profile there when it stops (Chrome DevTools).
const config = loadConfig({ ...process.env, QC_PORT: '0', QC_HOST: '127.0.0.1' });
const serves = cluster.isWorker || config.workers === 1;
const profiler = process.env.QC_BENCH_PROFILE && serves ? await startProfiler(process.env.QC_BENCH_PROFILE) : null;
const closers = [];
const stop = async () => {
  await Promise.allSettled(closers.map((close) => close()));
  await profiler?.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

if (cluster.isWorker) {
  const app = await startWorker(config);
  closers.push(() => app.close());
  process.on('message', (message) => message === SHUTDOWN_MESSAGE && stop());
} else {
  let apiPort;
  if (config.workers > 1) {
    // Workers listening on port 0 share one port, chosen by the primary.
    const allListening = new Promise((resolve) => {
      let count = 0;
      cluster.on('listening', (_worker, address) => ++count === config.workers && resolve(address.port));
    });
    const primary = await startPrimary(
      config,
      () => {},
      (line) => process.stderr.write(`${line}\n`),
    );
    closers.push(() => primary.stop());
    apiPort = await allListening;
  } else {
    const app = await buildApp(config);
    await app.listen({ port: 0, host: '127.0.0.1' });
    closers.push(() => app.close());
    apiPort = app.server.address().port;
  }
  const bare = Fastify({ logger: false });
  bare.get('/hello', async () => ({ hello: 'world' }));
  await bare.listen({ port: 0, host: '127.0.0.1' });
  closers.push(() => bare.close());
  const ports = { api: apiPort, bare: bare.server.address().port, workers: config.workers };
  process.stdout.write(`READY ${JSON.stringify(ports)}\n`);
}

async function startProfiler(dir) {
  const { Session } = await import('node:inspector/promises');
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return {
    async stop() {
      const { profile } = await session.post('Profiler.stop');
      mkdirSync(dir, { recursive: true });
      writeFileSync(`${dir}/api-${Date.now()}.cpuprofile`, JSON.stringify(profile));
    },
  };
}
