import type { DbExecutor } from '../../db/database';
import type { UserInvitationsTable } from '../../db/schema';

export type InvitationRow = UserInvitationsTable;

export async function insertInvitation(db: DbExecutor, row: InvitationRow): Promise<void> {
  await db.insertInto('user_invitations').values(row).execute();
}

export async function deleteInvitation(db: DbExecutor, id: string): Promise<void> {
  await db.deleteFrom('user_invitations').where('id', '=', id).execute();
}

export async function findInvitationByHash(db: DbExecutor, tokenHash: string): Promise<InvitationRow | undefined> {
  const row = await db
    .selectFrom('user_invitations')
    .selectAll()
    .where('token_hash', '=', tokenHash)
    .executeTakeFirst();
  return (
    row && {
      ...row,
      created_at: Number(row.created_at),
      expires_at: Number(row.expires_at),
      used_at: row.used_at === null ? null : Number(row.used_at),
    }
  );
}

/**
 * Uses the link up if it is still unused and unexpired: true only for the one call that did (two
 * racing acceptances: one wins, the other finds it used).
 */
export async function claimInvitation(db: DbExecutor, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('user_invitations')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The user's links not used yet stop working (a password was set, or a new link replaces them). */
export async function dropUnusedInvitations(db: DbExecutor, userId: string, exceptId?: string): Promise<void> {
  let query = db.deleteFrom('user_invitations').where('user_id', '=', userId).where('used_at', 'is', null);
  if (exceptId) query = query.where('id', '!=', exceptId);
  await query.execute();
}
