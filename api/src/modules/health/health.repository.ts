import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database';

/** How long the health check waits for the database: a server that hangs is as down as one that refuses. */
export const PING_TIMEOUT_MS = 2_000;

export async function pingDatabase(db: DbExecutor, timeoutMs = PING_TIMEOUT_MS): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${timeoutMs} ms`)), timeoutMs);
  });
  try {
    await Promise.race([sql`select 1`.execute(db), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
