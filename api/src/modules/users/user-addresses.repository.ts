import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database';

/**
 * Every address of a user (issue 31): position 0 is the primary, the same as users.email; the
 * address is the table's key, so one address has one owner whatever the account's source. The
 * users repository keeps position 0 in step with users.email; the rest changes only here.
 */

/** The user's addresses, primary first, as one space-separated column (an address has no space). */
export const addressesColumn = (userId = 'users.id') =>
  sql<
    string | null
  >`(select string_agg(ua.address, ' ' order by ua.position) from user_addresses ua where ua.user_id = ${sql.ref(userId)})`.as(
    'addresses',
  );

/** The column above as a list; a user always has their primary, even before a row is read back. */
export function splitAddresses(column: string | null | undefined, primary: string): string[] {
  const rest = (column ?? '').split(' ').filter((a) => a && a !== primary);
  return [primary, ...rest];
}

/** The primary follows users.email: an alias becoming the primary moves up, the old primary goes. */
export async function setPrimaryAddress(db: DbExecutor, userId: string, email: string): Promise<void> {
  await db
    .deleteFrom('user_addresses')
    .where('user_id', '=', userId)
    .where((eb) => eb.or([eb('position', '=', 0), eb('address', '=', email)]))
    .execute();
  await db.insertInto('user_addresses').values({ address: email, user_id: userId, position: 0 }).execute();
}

/** Replaces all of a user's addresses (the first is the primary, already written to users.email). */
export async function replaceAddresses(db: DbExecutor, userId: string, addresses: string[]): Promise<void> {
  await db.deleteFrom('user_addresses').where('user_id', '=', userId).execute();
  await db
    .insertInto('user_addresses')
    .values(addresses.map((address, position) => ({ address, user_id: userId, position })))
    .execute();
}

/** The users other than `userId` who own any of these addresses: address → that user's e-mail. */
export async function otherOwners(
  db: DbExecutor,
  userId: string | null,
  addresses: string[],
): Promise<Map<string, { user_id: string; email: string }>> {
  if (!addresses.length) return new Map();
  let query = db
    .selectFrom('user_addresses as a')
    .innerJoin('users as u', 'u.id', 'a.user_id')
    .select(['a.address', 'a.user_id', 'u.email'])
    .where('a.address', 'in', addresses);
  if (userId !== null) query = query.where('a.user_id', '!=', userId);
  const rows = await query.execute();
  return new Map(rows.map((r) => [r.address, { user_id: r.user_id, email: r.email }]));
}

/** The addresses of these users, each list primary first. */
export async function addressesOf(db: DbExecutor, userIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (!userIds.length) return out;
  const rows = await db
    .selectFrom('user_addresses')
    .select(['user_id', 'address'])
    .where('user_id', 'in', userIds)
    .orderBy('user_id')
    .orderBy('position')
    .execute();
  for (const r of rows) out.set(r.user_id, [...(out.get(r.user_id) ?? []), r.address]);
  return out;
}
