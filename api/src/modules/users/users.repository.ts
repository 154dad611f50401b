import type { Role } from '@qc/contracts';
import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database';
import type { UsersTable } from '../../db/schema';

export type UserRow = UsersTable;

export async function findUserByEmail(db: DbExecutor, email: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
}

export async function findUserById(db: DbExecutor, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function hasAnyUser(db: DbExecutor): Promise<boolean> {
  const row = await db.selectFrom('users').select('id').limit(1).executeTakeFirst();
  return row !== undefined;
}

export async function insertUser(db: DbExecutor, row: UserRow): Promise<void> {
  await db.insertInto('users').values(row).execute();
}

export async function updatePasswordHash(db: DbExecutor, userId: string, passwordHash: string): Promise<void> {
  await db.updateTable('users').set({ password_hash: passwordHash }).where('id', '=', userId).execute();
}

export async function updateRole(db: DbExecutor, userId: string, role: Role, domainId: string | null): Promise<void> {
  await db.updateTable('users').set({ role, domain_id: domainId }).where('id', '=', userId).execute();
}

/** Turns the second factor off: secrets, replay guard and backup codes are forgotten. */
export async function clearMfa(db: DbExecutor, userId: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ mfa_enabled: 0, mfa_secret: null, mfa_pending_secret: null, mfa_last_step: null })
    .where('id', '=', userId)
    .execute();
  await db.deleteFrom('mfa_backup_codes').where('user_id', '=', userId).execute();
}

/** Case-insensitive, like the uniqueness rule for usernames. */
export async function findUserByUsername(db: DbExecutor, username: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(username)`, '=', username.toLowerCase())
    .executeTakeFirst();
}

export async function updateProfileFields(
  db: DbExecutor,
  userId: string,
  fields: Partial<Pick<UserRow, 'username' | 'first_name' | 'last_name' | 'email'>>,
): Promise<void> {
  if (!Object.keys(fields).length) return;
  await db.updateTable('users').set(fields).where('id', '=', userId).execute();
}

export async function setUserActive(db: DbExecutor, userId: string, active: boolean): Promise<void> {
  await db
    .updateTable('users')
    .set({ is_active: active ? 1 : 0 })
    .where('id', '=', userId)
    .execute();
}
