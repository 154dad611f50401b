import type { FastifyInstance } from 'fastify';
import { buildApp, type BuildOptions } from './app';
import type { Config } from './config';
import { openMigratedDatabase, type DatabaseHandle } from './db/database';
import { createPasswordHasher } from './lib/passwords';
import { ensureFirstAdmin } from './modules/users/users.service';

/** Migrate and make sure an admin exists (once, before any process serves). */
export async function prepareDatabase(config: Config, out: (text: string) => void): Promise<DatabaseHandle> {
  const database = await openMigratedDatabase(config.database);
  try {
    await ensureFirstAdmin({ db: database.db, passwords: createPasswordHasher(config.argon2) }, config.admin, out);
    return database;
  } catch (err) {
    await database.close();
    throw err;
  }
}

/** Serve on an open database (closed with the app); `scheduleJobs`: run the retention job here. */
export async function listen(
  config: Config,
  database: DatabaseHandle,
  options: Pick<BuildOptions, 'logStream'> & { scheduleJobs: boolean },
): Promise<FastifyInstance> {
  const app = await buildApp(config, { ...options, database });
  // Which runtime served: the first thing an operator checks after an upgrade (DESIGN §2).
  app.log.info({ node: process.versions.node }, `starting on Node.js ${process.versions.node}`);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close();
    throw err;
  }
  return app;
}

/** One process: migrate, make sure an admin exists, then listen. main.ts adds the process-level concerns. */
export async function startServer(
  config: Config,
  out: (text: string) => void,
  options: Pick<BuildOptions, 'logStream'> = {},
): Promise<FastifyInstance> {
  return listen(config, await prepareDatabase(config, out), { ...options, scheduleJobs: true });
}
