import type { ListKind } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import type { SenderListsTable } from '../../db/schema';
import { bumpList } from '../rspamd/lists.repository';
import { afterKey, containsAny, type ListKey } from '../rspamd/rules-common';

/** The map Rspamd reads the lists from (rspamd_lists row). */
export const SENDER_LISTS = 'sender-lists' as const;

export type EntryRow = SenderListsTable;

/** An entry with its owner's current e-mail or domain name (null when that scope has none). */
export interface EntryView extends EntryRow {
  user_email: string | null;
  user_role: 'admin' | 'domain_admin' | 'user' | null;
  /** The domain of a `user` entry's account (its domain_admin manages that list). */
  user_domain_id: string | null;
  user_domain_name: string | null;
  domain_name: string | null;
}

const fromDb = <R extends EntryRow>(r: R): R => ({ ...r, created_at: Number(r.created_at) });

function withOwners(db: DbExecutor) {
  return db
    .selectFrom('sender_lists as s')
    .leftJoin('users as u', 'u.id', 's.user_id')
    .leftJoin('domains as ud', 'ud.id', 'u.domain_id')
    .leftJoin('domains as d', 'd.id', 's.domain_id')
    .selectAll('s')
    .select([
      'u.email as user_email',
      'u.role as user_role',
      'u.domain_id as user_domain_id',
      'ud.name as user_domain_name',
      'd.name as domain_name',
    ]);
}

export async function findEntry(db: DbExecutor, id: string): Promise<EntryView | undefined> {
  const row = await withOwners(db).where('s.id', '=', id).executeTakeFirst();
  return row && fromDb(row);
}

export async function findEntries(db: DbExecutor, ids: string[]): Promise<EntryView[]> {
  if (!ids.length) return [];
  return (await withOwners(db).where('s.id', 'in', ids).execute()).map(fromDb);
}

/** The entry of this owner for this address, whichever its kind (at most one: unique key). */
export async function findOwnerEntry(
  db: DbExecutor,
  ownerKey: string,
  address: string,
): Promise<EntryView | undefined> {
  const row = await withOwners(db)
    .where('s.owner_key', '=', ownerKey)
    .where('s.address', '=', address)
    .executeTakeFirst();
  return row && fromDb(row);
}

export async function insertEntry(db: DbExecutor, row: EntryRow): Promise<void> {
  await db.insertInto('sender_lists').values(row).execute();
}

export async function deleteEntry(db: DbExecutor, id: string): Promise<boolean> {
  const result = await db.deleteFrom('sender_lists').where('id', '=', id).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}

export async function clearOwnerList(db: DbExecutor, ownerKey: string, kind: ListKind): Promise<number> {
  const result = await db
    .deleteFrom('sender_lists')
    .where('owner_key', '=', ownerKey)
    .where('kind', '=', kind)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Newest first, one owner and kind (index sender_lists_list); `q` a part of the address. */
export async function listEntries(
  db: DbExecutor,
  ownerKey: string,
  kind: ListKind,
  q: string | undefined,
  after: ListKey | null,
  limit: number,
): Promise<EntryView[]> {
  let query = withOwners(db).where('s.owner_key', '=', ownerKey).where('s.kind', '=', kind);
  if (q) query = query.where(containsAny(['s.address'], q));
  if (after) query = query.where(afterKey(db, 's', after));
  const rows = await query.orderBy('s.created_at', 'desc').orderBy('s.id', 'desc').limit(limit).execute();
  return rows.map(fromDb);
}

export async function countEntries(db: DbExecutor, ownerKey: string, kind: ListKind): Promise<number> {
  const row = await db
    .selectFrom('sender_lists')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('owner_key', '=', ownerKey)
    .where('kind', '=', kind)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * For the users and domains code: the map names owners by e-mail and domain name, so an owner's
 * e-mail change or rename, or its deletion (its entries go by cascade), changes the map when it
 * has entries. Call in that change's transaction (before a deletion).
 */
export async function bumpIfOwner(trx: DbExecutor, owner: { userId: string } | { domainId: string }): Promise<void> {
  if (await ownsEntries(trx, owner)) await bumpList(trx, SENDER_LISTS);
}

async function ownsEntries(db: DbExecutor, owner: { userId: string } | { domainId: string }): Promise<boolean> {
  const query = db.selectFrom('sender_lists').select('id');
  const row = await (
    'userId' in owner ? query.where('user_id', '=', owner.userId) : query.where('domain_id', '=', owner.domainId)
  )
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}
