import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import type { Config } from './config';
import { openMigratedDatabase } from './db/database';
import { createPasswordHasher } from './lib/passwords';
import { ensureFirstAdmin } from './modules/users/users.service';

/** Migrate, make sure an admin exists, then listen. main.ts adds the process-level concerns. */
export async function startServer(config: Config, out: (text: string) => void): Promise<FastifyInstance> {
  const database = await openMigratedDatabase(config.database);
  try {
    await ensureFirstAdmin({ db: database.db, passwords: createPasswordHasher(config.argon2) }, config.admin, out);
  } catch (err) {
    await database.close();
    throw err;
  }
  const app = await buildApp(config, { database, scheduleJobs: true });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (err) {
    await app.close();
    throw err;
  }
  return app;
}
