import { bumpIfOwner } from '../lists/lists.repository';
import {
  EXTERNAL_USER_MESSAGE,
  type AdminUser,
  type CurrentUser,
  type Role,
  type UserCreate,
  type UserUpdate,
} from '@qc/contracts';
import { domainToASCII } from 'node:url';
import { isUniqueViolation, type Db, type DbExecutor } from '../../db/database';
import { recipientDomain } from '../../lib/addresses';
import { forbidden, HttpError, notFound } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import type { PasswordHasher } from '../../lib/passwords';
import { revokeUserSessions, type SessionContextRow } from '../auth/auth.repository';
import type { AuthContext } from '../auth/auth.service';
import { actorOf, recordAudit, type AuditActor } from '../history/audit.service';
import { dropPendingEmailChanges } from '../profile/profile.repository';
import { removeOwnedApanels } from '../rspamd/apanel.service';
import { dropUnusedInvitations } from './invitations.repository';
import { otherOwners, replaceAddresses } from './user-addresses.repository';
import { addressTaken, assertAddressesAllowed, sameAddresses, uniqueAddresses } from './user-addresses.service';
import {
  clearMfa,
  deleteUserRow,
  findAdminUser,
  findDomainById,
  findUserByEmail,
  findUserByUsername,
  hasOtherActiveAdmin,
  insertUser,
  newUserRow,
  lockActiveAdmins,
  updateUserFields,
  type AdminUserRow,
  type UserChanges,
  type UserRow,
} from './users.repository';

export interface UserDeps {
  db: Db;
  passwords: PasswordHasher;
}

/**
 * Who manages users, with which powers. An admin manages everyone; a domain_admin the `user`s of
 * their own domain. The system (CLI, first start) is an admin without an account.
 */
export interface Manager {
  /** The acting account; null for the system. */
  userId: string | null;
  role: 'admin' | 'domain_admin';
  domainId: string | null;
  /** Written as the actor of the history rows; null: no row (test fixtures only). */
  actor: AuditActor | null;
}

/** The caller of an administration route; a `user` has no powers here (403). */
export function managerOf(auth: AuthContext, ip: string | null): Manager {
  const { user } = auth;
  if (user.role === 'user') throw forbidden();
  return { userId: user.user_id, role: user.role, domainId: user.domain_id, actor: actorOf(auth, ip) };
}

/** The system acting from the command line or at first start: history rows name `email` as actor, role admin. */
export function systemManager(email: 'cli' | 'system'): Manager {
  return {
    userId: null,
    role: 'admin',
    domainId: null,
    actor: { id: null, email, role: 'admin', domain: null, ip: null },
  };
}

/** Changes made by test fixtures, which want no history rows of their own. */
export const UNAUDITED_SYSTEM: Manager = { userId: null, role: 'admin', domainId: null, actor: null };

/** A domain_admin's scope: the `user`s of their domain (not themselves, not another domain_admin, not an admin). */
export function inScope(by: Manager, user: Pick<UserRow, 'role' | 'domain_id'>): boolean {
  if (by.role === 'admin') return true;
  return by.domainId !== null && user.role === 'user' && user.domain_id === by.domainId;
}

/** The user `id` when the manager may see them; unknown or outside their scope: 404 alike. */
export async function requireInScope(db: DbExecutor, by: Manager, id: string): Promise<AdminUserRow> {
  const user = await findAdminUser(db, id);
  if (!user || !inScope(by, user)) throw notFound('No such user.');
  return user;
}

/** A user's columns both the session's user (GET /api/users/me/) and an administered user are made of. */
type AccountColumns = Omit<SessionContextRow, 'session_id' | 'family_id' | 'revoked_at' | 'user_id' | 'is_active'>;

/** The account as CurrentUser says it; AdminUser adds the administration's fields to it. */
export function toAccount(id: string, row: AccountColumns, pendingEmail: string | null): CurrentUser {
  return {
    id,
    username: row.username,
    email: row.email,
    first_name: row.first_name,
    last_name: row.last_name,
    role: row.role,
    domain: row.domain_id && row.domain_name ? { id: row.domain_id, name: row.domain_name } : null,
    is_external: row.is_external === 1,
    source: row.source,
    addresses: row.addresses,
    mfa_enabled: row.mfa_enabled === 1,
    date_joined: new Date(row.date_joined).toISOString(),
    pending_email: pendingEmail,
  };
}

export function toAdminUser(row: AdminUserRow, pendingEmail: string | null, policyRoles: readonly Role[]): AdminUser {
  return {
    ...toAccount(row.id, row, pendingEmail),
    is_active: row.is_active === 1,
    last_login: row.last_login === null ? null : new Date(row.last_login).toISOString(),
    mfa_required: row.mfa_required === 1 || policyRoles.includes(row.role),
    invitation_pending: row.source === 'local' && row.password_hash === '',
  };
}

const invalid = (field: string, message: string) =>
  new HttpError(400, 'validation_error', 'The request is not valid.', { [field]: message });
const emailTaken = (message = 'This e-mail is already in use.') =>
  new HttpError(409, 'email_taken', 'A user with this e-mail already exists.', { email: message });
const usernameTaken = (message = 'This username is already taken.') =>
  new HttpError(409, 'username_taken', 'This username is already taken.', { username: message });
const cannotChangeSelf = (field: string, message: string) =>
  new HttpError(400, 'cannot_change_self', message, { [field]: message });
const lastAdmin = () =>
  new HttpError(409, 'last_admin', 'The last active administrator cannot be removed, deactivated or demoted.');

/**
 * E-mail and username are free: no other account has them, and neither is another account's
 * username or e-mail (a username that reads as someone else's address would pass for them).
 * Usernames compare case-insensitively, like their index.
 */
async function assertIdentityFree(
  db: DbExecutor,
  selfId: string | null,
  identity: { email?: string; username?: string },
): Promise<void> {
  const other = (u: UserRow | undefined) => u !== undefined && u.id !== selfId;
  const { email, username } = identity;
  if (email !== undefined) {
    if (other(await findUserByEmail(db, email))) throw emailTaken();
    if ((await otherOwners(db, selfId, [email])).size) throw emailTaken('This address belongs to another account.');
    if (other(await findUserByUsername(db, email))) throw emailTaken('This address is another account’s username.');
  }
  if (username !== undefined) {
    if (other(await findUserByUsername(db, username))) throw usernameTaken();
    if (other(await findUserByEmail(db, username.toLowerCase()))) {
      throw usernameTaken('This username is another account’s e-mail address.');
    }
  }
}

/** The local part of the address, or the whole address when that is not a valid free username. */
export async function defaultUsername(db: DbExecutor, email: string): Promise<string> {
  const local = email.slice(0, email.lastIndexOf('@'));
  if (/^[\p{L}\p{N}@.+\-_]+$/u.test(local) && !(await findUserByUsername(db, local))) return local;
  return email;
}

async function requireDomain(db: DbExecutor, id: string): Promise<{ id: string; name: string }> {
  const domain = await findDomainById(db, id);
  if (!domain) throw invalid('domain_id', 'Unknown domain.');
  return domain;
}

async function writeAudit(db: DbExecutor, by: Manager, event: Omit<Parameters<typeof recordAudit>[1], 'actor'>) {
  if (by.actor) await recordAudit(db, { ...event, actor: by.actor });
}

/**
 * The history's target: its domain's domain_admin reads the row only when the account is a `user`
 * (their scope); rows about admins and domain_admins are for admins.
 */
const userTarget = (user: { id: string; email: string; role: Role }, domainName: string | null) => ({
  kind: 'user' as const,
  id: user.id,
  label: user.email,
  domain: user.role === 'user' ? domainName : null,
});

/**
 * A domain_admin gives accounts addresses of their own domain only: mail belongs to its address
 * (DESIGN §4), so an address of another domain would open that domain's quarantine to them.
 */
function assertOwnDomainAddress(by: Manager, email: string, domainName: string | null): void {
  if (by.role !== 'domain_admin') return;
  if (!domainName || domainToASCII(recipientDomain(email)) !== domainName) {
    throw invalid('email', `A domain admin can only give addresses of their own domain (@${domainName ?? '?'}).`);
  }
}

/** Prepares and sends the link of a user created without a password (invitations.service). */
export interface Inviter {
  /** Records a new link for the user in `db` (their earlier unused links are dropped); its token. */
  record(db: DbExecutor, userId: string, now: number): Promise<{ id: string; token: string }>;
  /** Sends it; throws HttpError 502 email_send_failed when the relay does not take it. */
  send(user: UserRow, token: string): Promise<void>;
  /** Forgets a link whose e-mail could not be sent. */
  discard(db: DbExecutor, invitationId: string): Promise<void>;
}

/**
 * POST /api/users/ and the CLI's user:create. Without a password the account gets an empty hash
 * (no password matches it) and an invitation link by e-mail. When that e-mail cannot be sent the
 * user is not created (502 email_send_failed; the history records the failed attempt), so the
 * admin can simply try again.
 */
export async function createManagedUser(
  deps: UserDeps & { inviter?: Inviter },
  by: Manager,
  input: UserCreate,
): Promise<UserRow> {
  let domainId = input.domain_id ?? null;
  if (by.role === 'domain_admin') {
    // Only `user`s of their own domain; leaving the domain out means theirs.
    if (input.role !== 'user') throw forbidden('A domain admin can only create users.');
    if (!by.domainId || (domainId !== null && domainId !== by.domainId)) {
      throw forbidden('A domain admin can only create users of their own domain.');
    }
    domainId = by.domainId;
  }
  const domain = domainId === null ? null : await requireDomain(deps.db, domainId);
  if (input.role === 'domain_admin' && !domain) throw invalid('domain_id', 'A domain admin needs a domain.');
  const email = input.email.toLowerCase();
  assertOwnDomainAddress(by, email, domain?.name ?? null);
  await assertIdentityFree(deps.db, null, { email, username: input.username });
  const username = input.username ?? (await defaultUsername(deps.db, email));
  if (input.password === undefined && !deps.inviter) throw invalid('password', 'A password is required.');

  const now = Date.now();
  const row = newUserRow(
    {
      id: newId(now),
      username,
      email,
      first_name: input.first_name ?? '',
      last_name: input.last_name ?? '',
      password_hash: input.password === undefined ? '' : await deps.passwords.hash(input.password),
      role: input.role,
      domain_id: domain?.id ?? null,
      is_external: input.is_external ? 1 : 0,
      mfa_required: input.mfa_required ? 1 : 0,
    },
    now,
  );
  const target = userTarget(row, domain?.name ?? null);
  const inviter = input.password === undefined ? deps.inviter : undefined;
  let invitation: { id: string; token: string } | undefined;
  try {
    await deps.db.transaction().execute(async (trx) => {
      await insertUser(trx, row);
      if (inviter) invitation = await inviter.record(trx, row.id, now);
      // With an invitation, the row is written once the e-mail has gone (below).
      else await writeAudit(trx, by, { action: 'user_create', target });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken(); // taken between the check and the insert
    throw err;
  }
  if (inviter && invitation) {
    try {
      await inviter.send(row, invitation.token);
    } catch (err) {
      await deps.db.transaction().execute(async (trx) => {
        await deleteUserRow(trx, row.id); // its invitation goes with it (ON DELETE CASCADE)
        await writeAudit(trx, by, {
          action: 'user_create',
          target: { ...target, id: null },
          result: 'failure',
          code: 'email_send_failed',
        });
      });
      throw err;
    }
    await writeAudit(deps.db, by, { action: 'user_create', target });
  }
  return row;
}

/** What a PATCH changes, by the contract's field names (the history lists these, never values). */
function changesOf(target: AdminUserRow, input: UserUpdate): { changes: UserChanges; fields: string[] } {
  const changes: UserChanges = {};
  const fields: string[] = [];
  const set = <K extends keyof UserChanges>(field: string, column: K, value: UserChanges[K] | undefined) => {
    if (value === undefined || value === target[column]) return;
    changes[column] = value;
    fields.push(field);
  };
  const flag = (v: boolean | undefined) => (v === undefined ? undefined : v ? 1 : 0);
  set('email', 'email', input.email?.toLowerCase());
  set('username', 'username', input.username);
  set('first_name', 'first_name', input.first_name);
  set('last_name', 'last_name', input.last_name);
  set('role', 'role', input.role);
  set('domain_id', 'domain_id', input.domain_id);
  set('is_external', 'is_external', flag(input.is_external));
  set('is_active', 'is_active', flag(input.is_active));
  set('mfa_required', 'mfa_required', flag(input.mfa_required));
  if (input.password !== undefined) fields.push('password');
  if (input.addresses !== undefined) {
    const addresses = uniqueAddresses(input.addresses);
    if (!sameAddresses(addresses, target.addresses)) fields.push('addresses');
    // The first address is the e-mail: a new primary changes it.
    if (changes.email === undefined) set('email', 'email', addresses[0]);
  }
  return { changes, fields };
}

/**
 * A directory (or SSO) account's identity comes from there at each sign-in: what the console would
 * overwrite is refused, named per field. Activation and the two-factor requirement stay the console's.
 */
const DIRECTORY_MANAGED = [
  'email',
  'username',
  'first_name',
  'last_name',
  'role',
  'domain_id',
  'is_external',
  'addresses',
  'password',
];

function assertNotDirectoryManaged(target: AdminUserRow, fields: string[]): void {
  if (target.source === 'local') return;
  const managed = fields.filter((f) => DIRECTORY_MANAGED.includes(f));
  if (!managed.length) return;
  const message = 'Set by the directory: change it there.';
  throw new HttpError(
    400,
    'directory_managed',
    `These fields of a ${target.source === 'ldap' ? 'directory' : 'single sign-on'} account come from it: ${managed.join(', ')}.`,
    Object.fromEntries(managed.map((f) => [f, message])),
  );
}

/** A change of these ends the user's sessions at once (DESIGN §4.1). */
const ENDS_SESSIONS = new Set(['role', 'domain_id', 'password', 'mfa_required']);

/**
 * Whether the change takes `before` out of the active admins (demoted or deactivated): then
 * another active admin must remain.
 */
function leavesAdmins(before: Pick<UserRow, 'role' | 'is_active'>, changes: UserChanges): boolean {
  const wasActiveAdmin = before.role === 'admin' && before.is_active === 1;
  const isActiveAdmin = (changes.role ?? before.role) === 'admin' && (changes.is_active ?? before.is_active) === 1;
  return wasActiveAdmin && !isActiveAdmin;
}

/** Inside the transaction: the active admins locked, then counted (race-safe last-admin rule). */
async function assertAnotherAdmin(trx: DbExecutor, userId: string): Promise<void> {
  await lockActiveAdmins(trx);
  if (!(await hasOtherActiveAdmin(trx, userId))) throw lastAdmin();
}

/**
 * PATCH /api/users/{id}/ and the CLI's user:set-password / user:set-role. A domain_admin never
 * changes a role or a domain (403). Nobody deactivates or demotes themselves (400). External users
 * keep their username and e-mail unless the same request makes them internal.
 */
export async function updateManagedUser(
  deps: UserDeps,
  by: Manager,
  id: string,
  input: UserUpdate,
): Promise<AdminUserRow> {
  const target = await requireInScope(deps.db, by, id);
  const { changes, fields } = changesOf(target, input);
  if (!fields.length) return target;
  assertNotDirectoryManaged(target, fields);
  const addresses = input.addresses && uniqueAddresses(input.addresses);
  if (addresses && changes.email !== undefined && changes.email !== addresses[0]) {
    throw invalid('addresses', 'The first address is the e-mail: give the same one in both.');
  }

  if (by.role === 'domain_admin' && (changes.role !== undefined || 'domain_id' in changes)) {
    throw forbidden('A domain admin cannot change a role or a domain.');
  }
  if (target.id === by.userId) {
    if (changes.is_active === 0) throw cannotChangeSelf('is_active', 'You cannot deactivate your own account.');
    if (changes.role !== undefined) throw cannotChangeSelf('role', 'You cannot change your own role.');
  }
  if (target.is_external === 1 && changes.is_external !== 0) {
    const errors: Record<string, string> = {};
    if (changes.username !== undefined) errors.username = EXTERNAL_USER_MESSAGE;
    if (changes.email !== undefined) errors.email = EXTERNAL_USER_MESSAGE;
    if (Object.keys(errors).length) throw new HttpError(400, 'validation_error', EXTERNAL_USER_MESSAGE, errors);
  }
  const domainId = 'domain_id' in changes ? (changes.domain_id ?? null) : target.domain_id;
  const domain =
    'domain_id' in changes
      ? domainId === null
        ? null
        : await requireDomain(deps.db, domainId)
      : target.domain_id && target.domain_name
        ? { id: target.domain_id, name: target.domain_name }
        : null;
  if ((changes.role ?? target.role) === 'domain_admin' && !domain) {
    throw invalid('domain_id', 'A domain admin needs a domain.');
  }
  if (changes.email !== undefined) assertOwnDomainAddress(by, changes.email, target.domain_name);
  // Addresses first: another account's address given as the primary is address_taken, not email_taken.
  if (addresses) {
    const ownDomain = by.role === 'domain_admin' ? target.domain_name : undefined;
    await assertAddressesAllowed(deps.db, target.id, addresses, target.addresses, ownDomain);
  }
  await assertIdentityFree(deps.db, target.id, { email: changes.email, username: changes.username });
  if (input.password !== undefined) changes.password_hash = await deps.passwords.hash(input.password);

  try {
    await deps.db.transaction().execute(async (trx) => {
      if (leavesAdmins(target, changes)) await assertAnotherAdmin(trx, target.id);
      await updateUserFields(trx, target.id, changes);
      if (addresses && fields.includes('addresses')) await replaceAddresses(trx, target.id, addresses);
      // A password set here replaces the one the invitation would have set; a link sent to a former
      // address must not set the password of the account now at another (resend it from the page).
      if (input.password !== undefined || changes.email !== undefined) await dropUnusedInvitations(trx, target.id);
      // Likewise a confirmation link the user asked for to move from the address the admin replaced.
      if (changes.email !== undefined) await dropPendingEmailChanges(trx, target.id);
      // Their lists apply to each of their addresses in Rspamd's map.
      if (changes.email !== undefined || fields.includes('addresses')) await bumpIfOwner(trx, { userId: target.id });
      if (changes.is_active === 0 || fields.some((f) => ENDS_SESSIONS.has(f))) {
        await revokeUserSessions(trx, target.id, Date.now());
      }
      await writeAudit(trx, by, {
        action: 'user_update',
        target: userTarget(
          { id: target.id, email: changes.email ?? target.email, role: changes.role ?? target.role },
          domain?.name ?? null,
        ),
        changes: fields,
      });
    });
  } catch (err) {
    // Taken between the check and the update.
    if (isUniqueViolation(err)) throw addresses ? addressTaken(addresses.join(', ')) : emailTaken();
    throw err;
  }
  const updated = await findAdminUser(deps.db, target.id);
  if (!updated) throw notFound('No such user.'); // deleted meanwhile
  return updated;
}

/**
 * DELETE /api/users/{id}/. The history keeps its copies (actor e-mail and role, target label);
 * what belongs to the user goes with them (sessions, two-factor codes, invitations, preferences);
 * their feedback and releases stay, without the link to the account.
 */
export async function deleteManagedUser(db: Db, by: Manager, id: string): Promise<void> {
  const target = await requireInScope(db, by, id);
  if (target.id === by.userId) throw cannotChangeSelf('id', 'You cannot delete your own account.');
  await db.transaction().execute(async (trx) => {
    if (target.role === 'admin' && target.is_active === 1) await assertAnotherAdmin(trx, target.id);
    await removeOwnedApanels(trx, by.actor, target.id); // their Rspamd filters: the list is bumped
    await bumpIfOwner(trx, { userId: target.id }); // their list entries go with them
    if (!(await deleteUserRow(trx, target.id))) throw notFound('No such user.');
    await writeAudit(trx, by, { action: 'user_delete', target: userTarget(target, target.domain_name) });
  });
}

/** POST /api/users/{id}/mfa/reset/ and the CLI's user:reset-mfa: secret and backup codes removed, sessions ended. */
export async function resetManagedUserMfa(db: Db, by: Manager, id: string): Promise<AdminUserRow> {
  const target = await requireInScope(db, by, id);
  await db.transaction().execute(async (trx) => {
    await clearMfa(trx, target.id);
    await revokeUserSessions(trx, target.id, Date.now());
    await writeAudit(trx, by, { action: 'mfa_reset', target: userTarget(target, target.domain_name) });
  });
  return target;
}
