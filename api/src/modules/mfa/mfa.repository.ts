import type { DbExecutor } from '../../db/database';
import type { MfaPartialTokensTable } from '../../db/schema';
import { newId } from '../../lib/ids';

/** A new set-up: its secret, and when it was made (an unconfirmed set-up expires, QC_MFA_SETUP_TTL). */
export async function setPendingSecret(db: DbExecutor, userId: string, sealed: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ mfa_pending_secret: sealed, mfa_pending_at: now })
    .where('id', '=', userId)
    .execute();
}

/** Forgets an expired set-up (only that one: a newer set-up made meanwhile stays). */
export async function clearPendingSecret(db: DbExecutor, userId: string, sealed: string): Promise<void> {
  await db
    .updateTable('users')
    .set({ mfa_pending_secret: null, mfa_pending_at: null })
    .where('id', '=', userId)
    .where('mfa_pending_secret', '=', sealed)
    .execute();
}

/** Pending secret → enabled, only if MFA is still off (two racing enables: one wins). */
export async function enableWithSecret(
  db: DbExecutor,
  userId: string,
  sealed: string,
  lastStep: number,
): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({
      mfa_enabled: 1,
      mfa_secret: sealed,
      mfa_pending_secret: null,
      mfa_pending_at: null,
      mfa_last_step: lastStep,
    })
    .where('id', '=', userId)
    .where('mfa_enabled', '=', 0)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/**
 * Records an accepted TOTP step, only if it is newer than the last one: of two requests with the
 * same code exactly one gets true (replay protection that holds across replicas).
 */
export async function advanceTotpStep(db: DbExecutor, userId: string, step: number): Promise<boolean> {
  const result = await db
    .updateTable('users')
    .set({ mfa_last_step: step })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('mfa_last_step', 'is', null), eb('mfa_last_step', '<', step)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** The user's backup codes become exactly these (the old ones stop working). */
export async function replaceBackupCodes(db: DbExecutor, userId: string, hashes: string[], now: number) {
  await db.deleteFrom('mfa_backup_codes').where('user_id', '=', userId).execute();
  if (!hashes.length) return;
  await db
    .insertInto('mfa_backup_codes')
    .values(hashes.map((code_hash) => ({ id: newId(now), user_id: userId, code_hash, created_at: now, used_at: null })))
    .execute();
}

/** The stored hashes of the user's unused backup codes. */
export async function listUnusedBackupCodes(db: DbExecutor, userId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('mfa_backup_codes')
    .select('code_hash')
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
  return rows.map((r) => r.code_hash);
}

/** Marks one unused code used; true only for the single call that did. */
export async function consumeBackupCode(db: DbExecutor, userId: string, hash: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('mfa_backup_codes')
    .set({ used_at: now })
    .where('user_id', '=', userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** First sight of a partial token creates its row; later calls leave it as it is. */
export async function ensurePartialToken(db: DbExecutor, row: MfaPartialTokensTable): Promise<void> {
  await db
    .insertInto('mfa_partial_tokens')
    .values(row)
    .onConflict((oc) => oc.column('jti').doNothing())
    .execute();
}

export async function findPartialToken(db: DbExecutor, jti: string): Promise<MfaPartialTokensTable | undefined> {
  return db.selectFrom('mfa_partial_tokens').selectAll().where('jti', '=', jti).executeTakeFirst();
}

/** One more wrong code; at `maxFailures` the token is burned (used_at set). */
export async function recordPartialFailure(db: DbExecutor, jti: string, maxFailures: number, now: number) {
  await db
    .updateTable('mfa_partial_tokens')
    .set((eb) => ({
      failures: eb('failures', '+', 1),
      used_at: eb
        .case()
        .when('failures', '>=', maxFailures - 1)
        .then(now)
        .else(null)
        .end(),
    }))
    .where('jti', '=', jti)
    .where('used_at', 'is', null)
    .execute();
}

/** Uses the token up; true only for the single call that did. */
export async function claimPartialToken(db: DbExecutor, jti: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('mfa_partial_tokens')
    .set({ used_at: now })
    .where('jti', '=', jti)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Rows of expired tokens are useless (the JWT is refused first): drop them. */
export async function purgeExpiredPartialTokens(db: DbExecutor, now: number): Promise<void> {
  await db
    .deleteFrom('mfa_partial_tokens')
    .where('expires_at', '<', now - 60_000)
    .execute();
}
