import cluster, { type Worker } from 'node:cluster';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config';
import { openDatabase } from './db/database';
import { listen, prepareDatabase } from './server';

// QC_WORKERS > 1: the primary migrates once, then forks workers that share the port (node:cluster).
// Everything they share lives in the database (sessions, rate-limit counts, job claims); what each
// keeps in memory is a cache of it.

/** In the environment of the one worker that runs the scheduled jobs. */
const RUNS_JOBS = 'QCONSOLE_RUNS_JOBS';
/** Sent by the primary: finish the requests in flight, close, exit. */
export const SHUTDOWN_MESSAGE = 'qconsole:shutdown';
const RESTART_DELAY_MS = 1_000;
const RESTARTS_PER_MINUTE = 10;

type Log = (line: string) => void;

/** The primary: prepares the database, keeps `config.workers` workers serving, stops them on close. */
export async function startPrimary(config: Config, out: Log, log: Log): Promise<{ stop(): Promise<void> }> {
  await (await prepareDatabase(config, out)).close();
  let stopping = false;
  /** Each worker, and whether it serves yet. */
  const workers = new Map<Worker, { served: boolean }>();
  const restarts = new Set<NodeJS.Timeout>();
  /** When workers were last replaced: more than RESTARTS_PER_MINUTE in a minute is a crash loop. */
  let recentRestarts: number[] = [];

  // Exit 1 once every worker is gone (a supervisor sees the failure; nothing is left to serve).
  const fail = (why: string) => {
    log(`${why}; stopping`);
    void stop().then(() => process.exit(1));
  };

  const fork = (runsJobs: boolean) => {
    const worker = cluster.fork(runsJobs ? { [RUNS_JOBS]: '1' } : {});
    const state = { served: false };
    workers.set(worker, state);
    log(`worker ${worker.process.pid} started`);
    worker.once('listening', () => {
      state.served = true;
      log(`worker ${worker.process.pid} serving`);
    });
    worker.once('exit', (code, signal) => {
      workers.delete(worker);
      if (stopping) return;
      const how = signal ?? `code ${code}`;
      // It never served: a start-up failure (port taken, database unreachable) the others share.
      if (!state.served) return fail(`worker ${worker.process.pid} failed to start (${how})`);
      const now = Date.now();
      recentRestarts = [...recentRestarts.filter((t) => now - t < 60_000), now];
      if (recentRestarts.length > RESTARTS_PER_MINUTE) return fail(`workers keep exiting (last: ${how})`);
      log(`worker ${worker.process.pid} exited (${how}); starting another`);
      const timer = setTimeout(() => {
        restarts.delete(timer);
        fork(runsJobs);
      }, RESTART_DELAY_MS);
      restarts.add(timer);
    });
  };

  const stop = async () => {
    stopping = true;
    for (const timer of restarts) clearTimeout(timer);
    const exits = [...workers.keys()].map((w) => new Promise<void>((resolve) => w.once('exit', () => resolve())));
    for (const [worker, { served }] of workers) {
      // One still starting has nothing in flight (and no handler for the message yet).
      if (!served) worker.process.kill('SIGTERM');
      else if (worker.isConnected()) worker.send(SHUTDOWN_MESSAGE);
    }
    await Promise.all(exits);
  };

  for (let i = 0; i < config.workers; i++) fork(i === 0);
  log(`serving with ${config.workers} worker processes (QC_WORKERS)`);
  return { stop };
}

/** A worker: the database is already migrated; one of them runs the jobs (a claim guards them anyway). */
export function startWorker(config: Config): Promise<FastifyInstance> {
  return listen(config, openDatabase(config.database), { scheduleJobs: process.env[RUNS_JOBS] === '1' });
}
