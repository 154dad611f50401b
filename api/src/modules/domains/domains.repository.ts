import type { DbExecutor } from '../../db/database';
import type { DomainsTable } from '../../db/schema';

export type DomainRow = DomainsTable;

export async function findDomainByName(db: DbExecutor, name: string): Promise<DomainRow | undefined> {
  return db.selectFrom('domains').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function insertDomain(db: DbExecutor, row: DomainRow): Promise<void> {
  await db.insertInto('domains').values(row).execute();
}
