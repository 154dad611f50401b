import type { DbExecutor } from '../../db/database';
import type { DigestLinkUsesTable, NotificationDefaultsTable, NotificationSettingsTable } from '../../db/schema';
import { USER_CONTEXT_COLUMNS, withAddressList, type SessionContextRow } from '../auth/auth.repository';
import { addressesColumn } from '../users/user-addresses.repository';

export async function findSettings(db: DbExecutor, userId: string): Promise<NotificationSettingsTable | undefined> {
  return db.selectFrom('notification_settings').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function upsertSettings(db: DbExecutor, row: NotificationSettingsTable): Promise<void> {
  const { user_id: _id, ...update } = row;
  await db
    .insertInto('notification_settings')
    .values(row)
    .onConflict((oc) => oc.column('user_id').doUpdateSet(update))
    .execute();
}

export async function findDefaults(db: DbExecutor): Promise<NotificationDefaultsTable | undefined> {
  return db.selectFrom('notification_defaults').selectAll().where('id', '=', 1).executeTakeFirst();
}

export async function upsertDefaults(db: DbExecutor, row: Omit<NotificationDefaultsTable, 'id'>): Promise<void> {
  await db
    .insertInto('notification_defaults')
    .values({ id: 1, ...row })
    .onConflict((oc) => oc.column('id').doUpdateSet(row))
    .execute();
}

/** When the user's newest digest (either kind) went out. */
export async function lastSentAt(db: DbExecutor, userId: string): Promise<number | null> {
  const row = await db
    .selectFrom('digest_sends')
    .select((eb) => eb.fn.max('sent_at').as('sent_at'))
    .where('user_id', '=', userId)
    .where('status', '=', 'sent')
    .executeTakeFirst();
  return row?.sent_at == null ? null : Number(row.sent_at);
}

/**
 * The row of each kind last attempted: what became of the last attempt. By attempt time, not by
 * period: after a change of frequency or send time a new period may start before the last one did.
 */
export async function latestSends(db: DbExecutor, userId: string) {
  const latest = (kind: 'user' | 'domain') =>
    db
      .selectFrom('digest_sends')
      .select(['kind', 'status', 'error', 'claimed_at'])
      .where('user_id', '=', userId)
      .where('kind', '=', kind)
      .orderBy('claimed_at', 'desc')
      .orderBy('period_start', 'desc')
      .limit(1)
      .executeTakeFirst();
  const rows = await Promise.all([latest('user'), latest('domain')]);
  return rows.filter((r) => r !== undefined).map((r) => ({ ...r, claimed_at: Number(r.claimed_at) }));
}

/**
 * A digest link's user as a session context of no session (the services that act check the role
 * and domain of it, as for a request); undefined when the account is gone.
 */
export async function findLinkUser(db: DbExecutor, userId: string): Promise<SessionContextRow | undefined> {
  const row = await db
    .selectFrom('users')
    .leftJoin('domains', 'domains.id', 'users.domain_id')
    .select(USER_CONTEXT_COLUMNS)
    .select(addressesColumn())
    .where('users.id', '=', userId)
    .executeTakeFirst();
  return row && { ...withAddressList(row), session_id: '', family_id: '', revoked_at: null };
}

export async function findLinkUse(db: DbExecutor, linkId: string): Promise<DigestLinkUsesTable | undefined> {
  return db.selectFrom('digest_link_uses').selectAll().where('link_id', '=', linkId).executeTakeFirst();
}

/** Takes a link for one POST: false when another took it first (the primary key decides). */
export async function claimLinkUse(db: DbExecutor, row: DigestLinkUsesTable): Promise<boolean> {
  const taken = await db
    .insertInto('digest_link_uses')
    .values(row)
    .onConflict((oc) => oc.column('link_id').doNothing())
    .returning('link_id')
    .executeTakeFirst();
  return taken !== undefined;
}

export async function finishLinkUse(db: DbExecutor, linkId: string, outcome: string): Promise<void> {
  await db.updateTable('digest_link_uses').set({ outcome }).where('link_id', '=', linkId).execute();
}

/** Gives a link back when its action did nothing (the relay refused): the user may try again. */
export async function releaseLinkUse(db: DbExecutor, linkId: string): Promise<void> {
  await db.deleteFrom('digest_link_uses').where('link_id', '=', linkId).execute();
}
