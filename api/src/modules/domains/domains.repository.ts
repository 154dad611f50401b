import type { Role } from '@qc/contracts';
import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database';
import type { DomainsTable } from '../../db/schema';

export type DomainRow = DomainsTable;

export async function findDomainByName(db: DbExecutor, name: string): Promise<DomainRow | undefined> {
  return db.selectFrom('domains').selectAll().where('name', '=', name).executeTakeFirst();
}

export async function findDomainById(db: DbExecutor, id: string): Promise<DomainRow | undefined> {
  return db.selectFrom('domains').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function insertDomain(db: DbExecutor, row: DomainRow): Promise<void> {
  await db.insertInto('domains').values(row).execute();
}

/** `%`, `_` and the escape character itself match literally in a LIKE pattern. */
const likePrefix = (prefix: string) => `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/**
 * Sorted by name (the unique index), keyset strictly after `afterName`. `prefix` is matched with
 * LIKE, which compares characters whatever the database's collation (names are lower case).
 */
export async function listDomains(
  db: DbExecutor,
  filter: { prefix?: string; afterName?: string },
  limit: number,
): Promise<DomainRow[]> {
  let query = db.selectFrom('domains').selectAll();
  // ESCAPE spelt out: SQLite's LIKE has no escape character by default, PostgreSQL's is `\`.
  if (filter.prefix) query = query.where(sql<boolean>`name like ${likePrefix(filter.prefix)} escape '\\'`);
  if (filter.afterName !== undefined) query = query.where('name', '>', filter.afterName);
  return query.orderBy('name').limit(limit).execute();
}

/** Users per domain, for one page of domains (users_domain_email index). Domains without users are absent. */
export async function countUsersByDomain(db: DbExecutor, domainIds: readonly string[]): Promise<Map<string, number>> {
  if (!domainIds.length) return new Map();
  const rows = await db
    .selectFrom('users')
    .select((eb) => ['domain_id', eb.fn.countAll<number | string>().as('count')])
    .where('domain_id', 'in', domainIds)
    .groupBy('domain_id')
    .execute();
  return new Map(rows.map((r) => [r.domain_id!, Number(r.count)]));
}

export interface DomainUserRow {
  id: string;
  email: string;
  username: string;
  role: Role;
  is_active: number;
}

/** The domain's first users by e-mail. */
export async function listDomainUsers(db: DbExecutor, domainId: string, limit: number): Promise<DomainUserRow[]> {
  return db
    .selectFrom('users')
    .select(['id', 'email', 'username', 'role', 'is_active'])
    .where('domain_id', '=', domainId)
    .orderBy('email')
    .limit(limit)
    .execute();
}

export async function updateDomain(
  db: DbExecutor,
  id: string,
  fields: Partial<Pick<DomainRow, 'name' | 'description'>> & { updated_at: number },
): Promise<boolean> {
  const result = await db.updateTable('domains').set(fields).where('id', '=', id).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Deletes the domain unless a user belongs to it: 'has_users' when one does, 'missing' when there
 * is no such domain. A user added by a transaction not yet committed is not seen by the check on
 * PostgreSQL; the foreign key users.domain_id then refuses the delete (isForeignKeyViolation).
 */
export async function deleteDomainWithoutUsers(
  db: DbExecutor,
  id: string,
): Promise<'deleted' | 'has_users' | 'missing'> {
  const result = await db
    .deleteFrom('domains')
    .where('id', '=', id)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('users').select('users.id').where('users.domain_id', '=', id))),
    )
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 1) return 'deleted';
  return (await findDomainById(db, id)) ? 'has_users' : 'missing';
}

/** A foreign-key violation, in either dialect's words. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
