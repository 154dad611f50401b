import type { DbExecutor } from '../../db/database';

/** Every domain name of the console (the `domains` table), in no particular order. */
export async function listDomainNames(db: DbExecutor): Promise<string[]> {
  const rows = await db.selectFrom('domains').select('name').execute();
  return rows.map((row) => row.name);
}
