// Child process of run.mjs (under tsx): the real api on the benchmark database (configured by the
// QC_* variables) and, beside it in the same process, a bare Fastify route — the ceiling the list
// endpoint is compared with. Prints one line `READY {"api": port, "bare": port}`.
import { createRequire } from 'node:module';

const apiRequire = createRequire(new URL('../../api/package.json', import.meta.url));
const Fastify = apiRequire('fastify');
const { loadConfig } = await import('../../api/src/config.ts');
const { buildApp } = await import('../../api/src/app.ts');

// QC_BENCH_PROFILE=<dir>: write a CPU profile of this process there when it stops (Chrome DevTools).
const profiler = process.env.QC_BENCH_PROFILE ? await startProfiler(process.env.QC_BENCH_PROFILE) : null;
const config = loadConfig(process.env);
const app = await buildApp(config);
await app.listen({ port: 0, host: '127.0.0.1' });
const bare = Fastify({ logger: false });
bare.get('/hello', async () => ({ hello: 'world' }));
await bare.listen({ port: 0, host: '127.0.0.1' });

const port = (server) => server.server.address().port;
process.stdout.write(`READY ${JSON.stringify({ api: port(app), bare: port(bare) })}\n`);
const stop = async () => {
  await Promise.allSettled([app.close(), bare.close()]);
  await profiler?.stop();
  process.exit(0);
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

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
