import type { DirectoryTestAddress, Role } from '@qc/contracts';
import { isUniqueViolation, type Db, type DbExecutor } from '../../db/database';
import { recipientDomain } from '../../lib/addresses';
import { HttpError } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import { revokeUserSessions } from '../auth/auth.repository';
import { recordAudit, type AuditActor } from '../history/audit.service';
import { bumpIfOwner } from '../lists/lists.repository';
import { addressesOf, otherOwners, replaceAddresses } from '../users/user-addresses.repository';
import { sameAddresses } from '../users/user-addresses.service';
import { defaultUsername } from '../users/users-admin.service';
import {
  findUserByEmail,
  insertUser,
  newUserRow,
  updateUserFields,
  type UserChanges,
  type UserRow,
} from '../users/users.repository';
import { mapAddresses, type Directory, type DirectoryPerson } from './directory';
import { dnKey } from './directory-common';

/**
 * A directory person as a console account (issue 31): created at their first sign-in, brought up
 * to date (role, addresses, names) at each one. Only addresses in a console domain are kept; one
 * owned by another account refuses the person rather than taking it from that account.
 */

export type DirectoryRefusal = 'directory_no_domain' | 'directory_address_conflict' | 'account_disabled';

export interface DirectoryPlan {
  person: DirectoryPerson;
  /** The account the person already has (by DN, else by primary address), if any. */
  existing: UserRow | undefined;
  primary: string | null;
  /** Every address the directory gives, with whether the console keeps it and why not. */
  addresses: DirectoryTestAddress[];
  kept: string[];
  domain: { id: string; name: string } | null;
  role: Role;
  refusal: DirectoryRefusal | null;
}

/**
 * The person's account: by DN; else, for a person renamed or moved in the directory, the directory
 * account with their primary address, but only once its own DN is gone from the directory. While
 * that DN still names someone, the address is theirs: taking the account would hand it to another
 * person who merely lists the address (then the sign-in is refused as a conflict).
 */
async function findExisting(
  db: DbExecutor,
  directory: Pick<Directory, 'findByDn'>,
  person: DirectoryPerson,
  primary: string | null,
) {
  const byDn = await db
    .selectFrom('users')
    .selectAll()
    .where('source', '=', 'ldap')
    .where('external_id', '=', dnKey(person.dn))
    .executeTakeFirst();
  if (byDn || !primary) return byDn;
  const byAddress = await findUserByEmail(db, primary);
  if (byAddress?.source !== 'ldap' || !byAddress.external_id) return undefined;
  const previous = await directory.findByDn(byAddress.external_id).catch(() => 'unknown' as const);
  return previous === null ? byAddress : undefined;
}

/** What the console would make of the person; changes nothing (Admin → Directory's test uses it alone). */
export async function planAccount(
  db: DbExecutor,
  directory: Pick<Directory, 'findByDn'>,
  person: DirectoryPerson,
): Promise<DirectoryPlan> {
  const domains = await db.selectFrom('domains').select(['id', 'name']).execute();
  const mapped = mapAddresses(
    person,
    domains.map((d) => d.name),
  );
  const existing = await findExisting(db, directory, person, mapped.primary);
  const candidates = mapped.addresses.filter((a) => a.kept).map((a) => a.address);
  const owners = await otherOwners(db, existing?.id ?? null, candidates);
  const addresses: DirectoryTestAddress[] = mapped.addresses.map((a) => {
    const owner = owners.get(a.address);
    if (owner) return { address: a.address, kept: false, reason: 'taken', owner: owner.email };
    return { address: a.address, kept: a.kept, reason: a.kept ? null : (a.reason ?? 'outside_domains'), owner: null };
  });
  const kept = addresses.filter((a) => a.kept).map((a) => a.address);
  const primary = mapped.primary && kept.includes(mapped.primary) ? mapped.primary : null;
  const ordered = primary ? [primary, ...kept.filter((a) => a !== primary)] : [];
  const domain = primary ? (domains.find((d) => d.name === recipientDomain(primary)) ?? null) : null;
  const refusal: DirectoryRefusal | null = person.disabled
    ? 'account_disabled'
    : owners.size
      ? 'directory_address_conflict'
      : !primary || !domain
        ? 'directory_no_domain'
        : null;
  return { person, existing, primary, addresses, kept: ordered, domain, role: person.role, refusal };
}

export function refusalError(refusal: DirectoryRefusal): HttpError {
  switch (refusal) {
    case 'account_disabled':
      return new HttpError(401, 'account_inactive', 'This account is disabled.');
    case 'directory_address_conflict':
      return new HttpError(
        403,
        'directory_address_conflict',
        'An address of this person belongs to another account of the console: an administrator must resolve it.',
      );
    default:
      return new HttpError(
        403,
        'directory_no_domain',
        'None of this person’s addresses is in a domain of this console.',
      );
  }
}

/** The directory as the actor of the history rows it causes (provisioning, changes at sign-in). */
const directoryActor = (ip: string | null): AuditActor => ({
  id: null,
  email: 'directory',
  role: 'admin',
  domain: null,
  ip,
});

const target = (user: { id: string; email: string; role: Role }, domain: string | null) => ({
  kind: 'user' as const,
  id: user.id,
  label: user.email,
  domain: user.role === 'user' ? domain : null,
});

/**
 * Creates or updates the account of a plan without refusal. A change of role or domain ends the
 * account's sessions, as it does when an administrator makes it (DESIGN §4.1). Returns the account
 * as it is now, and whether its sessions were ended.
 */
export async function applyPlan(
  db: Db,
  plan: DirectoryPlan,
  ip: string | null,
): Promise<{ user: UserRow; revoked: boolean }> {
  if (plan.refusal || !plan.primary || !plan.domain) throw refusalError(plan.refusal ?? 'directory_no_domain');
  const { person, existing, primary, domain, kept } = plan;
  const now = Date.now();
  try {
    return await db.transaction().execute(async (trx) => {
      if (!existing) {
        const row = newUserRow(
          {
            id: newId(now),
            username: await defaultUsername(trx, primary),
            email: primary,
            first_name: person.first_name,
            last_name: person.last_name,
            password_hash: '', // never a console password: the directory checks it
            role: plan.role,
            domain_id: domain.id,
            is_external: 1,
            source: 'ldap',
            external_id: dnKey(person.dn),
          },
          now,
        );
        await insertUser(trx, row);
        await replaceAddresses(trx, row.id, kept);
        await recordAudit(trx, { action: 'user_create', actor: directoryActor(ip), target: target(row, domain.name) });
        return { user: row, revoked: false };
      }
      const changes: UserChanges & { external_id?: string } = {};
      const fields: string[] = [];
      const set = <K extends keyof UserChanges>(column: K, value: UserChanges[K]) => {
        if (existing[column] === value) return;
        changes[column] = value;
        fields.push(column);
      };
      set('email', primary);
      set('first_name', person.first_name);
      set('last_name', person.last_name);
      set('role', plan.role);
      set('domain_id', domain.id);
      const before = (await addressesOf(trx, [existing.id])).get(existing.id) ?? [existing.email];
      const addressesChanged = !sameAddresses(before, kept);
      if (addressesChanged) fields.push('addresses');
      if (!fields.length && existing.external_id === dnKey(person.dn)) return { user: existing, revoked: false };
      await updateUserFields(trx, existing.id, changes);
      if (existing.external_id !== dnKey(person.dn)) {
        await trx
          .updateTable('users')
          .set({ external_id: dnKey(person.dn) })
          .where('id', '=', existing.id)
          .execute();
      }
      if (addressesChanged) {
        await replaceAddresses(trx, existing.id, kept);
        await bumpIfOwner(trx, { userId: existing.id }); // their lists follow their addresses in Rspamd's map
      }
      // Another DN (a rename in the directory) is another sign-in identity: its sessions start afresh.
      const revoked =
        changes.role !== undefined || changes.domain_id !== undefined || existing.external_id !== dnKey(person.dn);
      if (revoked) await revokeUserSessions(trx, existing.id, now);
      const after = { ...existing, ...changes };
      if (fields.length) {
        await recordAudit(trx, {
          action: 'user_update',
          actor: directoryActor(ip),
          target: target(after, domain.name),
          changes: fields,
        });
      }
      return { user: after, revoked };
    });
  } catch (err) {
    // An address (or the person's first account) written by another request between the plan and this write.
    if (isUniqueViolation(err)) throw new PlanOutdatedError();
    throw err;
  }
}

/** applyPlan lost a race: plan again (the caller does, once). */
export class PlanOutdatedError extends Error {
  constructor() {
    super('the directory account changed while it was being written');
  }
}
