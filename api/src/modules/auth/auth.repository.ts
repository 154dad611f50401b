import type { Role, UserSource } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import { precompiled } from '../../db/precompiled';
import type { SessionsTable } from '../../db/schema';
import { addressesColumn, splitAddresses } from '../users/user-addresses.repository';

export type SessionRow = SessionsTable;

/** The session of an access token with its user and domain, as needed on every request. */
export interface SessionContextRow {
  session_id: string;
  family_id: string;
  revoked_at: number | null;
  user_id: string;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  role: Role;
  is_external: number;
  is_active: number;
  mfa_enabled: number;
  date_joined: number;
  domain_id: string | null;
  domain_name: string | null;
  source: UserSource;
  /** Every address whose mail is theirs, the primary (email) first: the scope of what they see. */
  addresses: string[];
}

export async function insertSession(db: DbExecutor, row: SessionRow): Promise<void> {
  await db.insertInto('sessions').values(row).execute();
}

/** The user's last sign-in that issued tokens (shown to administrators). */
export async function recordLastLogin(db: DbExecutor, userId: string, at: number): Promise<void> {
  await db.updateTable('users').set({ last_login: at }).where('id', '=', userId).execute();
}

/** Refresh lookup joined with the user's active flag: one unique-index probe. */
export async function findSessionByRefreshHash(
  db: DbExecutor,
  refreshHash: string,
): Promise<(SessionRow & { user_active: number; user_source: UserSource }) | undefined> {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('sessions')
    .select(['users.is_active as user_active', 'users.source as user_source'])
    .where('sessions.refresh_hash', '=', refreshHash)
    .executeTakeFirst();
}

/** Primary-key lookup run for every authenticated request, so revocation applies at once. */
export async function findSessionContext(db: DbExecutor, sessionId: string): Promise<SessionContextRow | undefined> {
  const row = (await sessionContext(db, sessionId))[0];
  return row && withAddressList(row);
}

/** A row of USER_CONTEXT_COLUMNS and addressesColumn() as the context's shape. */
export function withAddressList<R extends { email: string; addresses: string | null }>(
  row: R,
): Omit<R, 'addresses'> & { addresses: string[] } {
  return { ...row, addresses: splitAddresses(row.addresses, row.email) };
}

/** The account part of a request's context (users joined to domains): who acts, with which rights. */
export const USER_CONTEXT_COLUMNS = [
  'users.id as user_id',
  'users.username',
  'users.email',
  'users.first_name',
  'users.last_name',
  'users.role',
  'users.is_external',
  'users.is_active',
  'users.mfa_enabled',
  'users.date_joined',
  'users.domain_id',
  'domains.name as domain_name',
  'users.source',
] as const;

const sessionContext = precompiled('session_context', (db, sessionId: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .leftJoin('domains', 'domains.id', 'users.domain_id')
    .select(['sessions.id as session_id', 'sessions.family_id', 'sessions.revoked_at', ...USER_CONTEXT_COLUMNS])
    .select(addressesColumn())
    .where('sessions.id', '=', sessionId),
);

/**
 * Marks a session as replaced, only if nobody did so first: of two concurrent refreshes with the
 * same token exactly one wins (the other then takes the grace path). Returns whether this call won.
 */
export async function markRotated(
  db: DbExecutor,
  sessionId: string,
  replacedBy: string,
  rotatedAt: number,
  gracePair: string,
): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ replaced_by: replacedBy, rotated_at: rotatedAt, grace_pair: gracePair })
    .where('id', '=', sessionId)
    .where('replaced_by', 'is', null)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Revokes every token of one sign-in (and forgets the stored grace pairs); whether this call revoked any. */
export async function revokeFamily(db: DbExecutor, familyId: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('sessions')
    .set({ revoked_at: now, grace_pair: null })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** Revokes every session of a user (password, role or MFA change, deactivation). */
export async function revokeUserSessions(db: DbExecutor, userId: string, now: number): Promise<void> {
  await stampCredentials(db, userId, now);
  await db
    .updateTable('sessions')
    .set({ revoked_at: now, grace_pair: null })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null)
    .execute();
}

/**
 * Sign-in challenges (second-factor and set-up tokens) issued before now stop working: they are
 * not sessions, but a password, role or MFA change must end them too.
 */
async function stampCredentials(db: DbExecutor, userId: string, now: number): Promise<void> {
  await db.updateTable('users').set({ credentials_at: now }).where('id', '=', userId).execute();
}

/** True when a challenge issued at `issuedAtMs` predates the account's last credentials change. */
export function challengePredatesCredentials(user: { credentials_at: number | null }, issuedAtMs: number): boolean {
  return user.credentials_at !== null && issuedAtMs <= Number(user.credentials_at);
}

/** Revokes every session of a user except one sign-in (the caller's): password, e-mail and MFA changes. */
export async function revokeOtherSessions(db: DbExecutor, userId: string, keepFamilyId: string, now: number) {
  await stampCredentials(db, userId, now);
  await db
    .updateTable('sessions')
    .set({ revoked_at: now, grace_pair: null })
    .where('user_id', '=', userId)
    .where('family_id', '!=', keepFamilyId)
    .where('revoked_at', 'is', null)
    .execute();
}
