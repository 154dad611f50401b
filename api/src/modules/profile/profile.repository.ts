import type { DbExecutor } from '../../db/database';
import type { EmailChangesTable } from '../../db/schema';

export type EmailChangeRow = EmailChangesTable;

/** A user has at most one pending change: a new request replaces the earlier ones. */
export async function replaceEmailChange(db: DbExecutor, row: EmailChangeRow): Promise<void> {
  await db.deleteFrom('email_changes').where('user_id', '=', row.user_id).where('used_at', 'is', null).execute();
  await db.insertInto('email_changes').values(row).execute();
}

export async function deleteEmailChange(db: DbExecutor, id: string): Promise<void> {
  await db.deleteFrom('email_changes').where('id', '=', id).execute();
}

export async function findEmailChangeByHash(db: DbExecutor, tokenHash: string): Promise<EmailChangeRow | undefined> {
  return db.selectFrom('email_changes').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
}

/** The address awaiting confirmation (unused, unexpired), if any. */
export async function findPendingEmail(db: DbExecutor, userId: string, now: number): Promise<string | null> {
  const row = await db
    .selectFrom('email_changes')
    .select('new_email')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now)
    .orderBy('created_at', 'desc')
    .executeTakeFirst();
  return row?.new_email ?? null;
}

/** Uses the token up; true only for the single call that did. */
export async function claimEmailChange(db: DbExecutor, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('email_changes')
    .set({ used_at: now })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** After a change is applied, the user's other pending requests are void. */
export async function dropPendingEmailChanges(db: DbExecutor, userId: string): Promise<void> {
  await db.deleteFrom('email_changes').where('user_id', '=', userId).where('used_at', 'is', null).execute();
}
