import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database';

export async function pingDatabase(db: DbExecutor): Promise<void> {
  await sql`select 1`.execute(db);
}
