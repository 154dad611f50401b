import type { DirectoryTestAddress, Role } from '@qc/contracts';
import { isUniqueViolation, type Db, type DbExecutor } from '../../db/database';
import { domainToALabel, recipientDomain } from '../../lib/addresses';
import { HttpError } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import { revokeUserSessions } from '../auth/auth.repository';
import { recordAudit, type AuditActor } from '../history/audit.service';
import { bumpIfOwner } from '../lists/lists.repository';
import type { RequestOrigin } from '../security/security-events';
import { addressesOf, otherOwners, replaceAddresses } from './user-addresses.repository';
import { sameAddresses } from './user-addresses.service';
import { defaultUsername } from './users-admin.service';
import { insertUser, newUserRow, updateUserFields, type UserChanges, type UserRow } from './users.repository';

/**
 * A person another system vouches for (the directory, issue 31; an OpenID Provider, issue 32) as a
 * console account: created at their first sign-in, brought up to date (role, addresses, names) at
 * each one. Only addresses in a console domain are kept; one owned by another account refuses the
 * person rather than taking it from that account.
 */

export interface ExternalPerson {
  source: 'ldap' | 'oidc';
  /** The key that system gives the person (users.external_id): a normalised DN, an issuer + subject. */
  externalId: string;
  /** The primary address, normalised; null: none valid. */
  mail: string | null;
  /** The other addresses, normalised, without repeats or the primary. */
  aliases: string[];
  role: Role;
  /** Locked or disabled over there (a directory that still accepts the bind). */
  disabled: boolean;
  first_name: string;
  last_name: string;
}

export type ExternalRefusal = 'directory_no_domain' | 'directory_address_conflict' | 'account_disabled';

export interface AccountPlan {
  person: ExternalPerson;
  /** The account the person already has (by external id, else as the caller's fallback finds it), if any. */
  existing: UserRow | undefined;
  primary: string | null;
  /** Every address the person has, with whether the console keeps it and why not. */
  addresses: DirectoryTestAddress[];
  kept: string[];
  domain: { id: string; name: string } | null;
  role: Role;
  refusal: ExternalRefusal | null;
}

/** Finds the account of a person whose key changed over there (a directory rename), by primary address. */
export type FindMoved = (db: DbExecutor, primary: string) => Promise<UserRow | undefined>;

export interface MappedAddresses {
  primary: string | null;
  addresses: { address: string; kept: boolean; reason?: 'outside_domains' }[];
}

/**
 * The person's addresses the console keeps: those in one of its domains. The primary is `mail`
 * when kept, else the first kept alias; null when none is kept.
 */
export function mapAddresses(
  person: Pick<ExternalPerson, 'mail' | 'aliases'>,
  consoleDomains: string[],
): MappedAddresses {
  const domains = new Set(consoleDomains.map((d) => domainToALabel(d.trim()) ?? d.trim().toLowerCase()));
  const all = [...new Set([...(person.mail ? [person.mail] : []), ...person.aliases])];
  const addresses = all.map((a) =>
    domains.has(recipientDomain(a))
      ? { address: a, kept: true }
      : { address: a, kept: false, reason: 'outside_domains' as const },
  );
  const kept = addresses.filter((a) => a.kept).map((a) => a.address);
  const primary = person.mail && kept.includes(person.mail) ? person.mail : (kept[0] ?? null);
  return { primary, addresses };
}

/** What the console would make of the person; changes nothing (Admin → Directory's test uses it alone). */
export async function planAccount(db: DbExecutor, person: ExternalPerson, findMoved?: FindMoved): Promise<AccountPlan> {
  const domains = await db.selectFrom('domains').select(['id', 'name']).execute();
  const mapped = mapAddresses(
    person,
    domains.map((d) => d.name),
  );
  const existing =
    (await db
      .selectFrom('users')
      .selectAll()
      .where('source', '=', person.source)
      .where('external_id', '=', person.externalId)
      .executeTakeFirst()) ?? (mapped.primary && findMoved ? await findMoved(db, mapped.primary) : undefined);
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
  // An OpenID Provider vouches for `email` only: the primary must be it, never an alias of a claim.
  const vouched = person.source !== 'oidc' || primary === person.mail;
  // Disabled here or there: refused before anything of the account is changed.
  const refusal: ExternalRefusal | null =
    person.disabled || (existing && existing.is_active !== 1)
      ? 'account_disabled'
      : owners.size
        ? 'directory_address_conflict'
        : !primary || !domain || !vouched
          ? 'directory_no_domain'
          : null;
  return { person, existing, primary, addresses, kept: ordered, domain, role: person.role, refusal };
}

export function refusalError(refusal: ExternalRefusal): HttpError {
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

/** The system as the actor of the history rows it causes (provisioning, changes at sign-in). */
const externalActor = (source: ExternalPerson['source'], ip: string | null): AuditActor => ({
  id: null,
  email: source === 'ldap' ? 'directory' : 'single sign-on',
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
  plan: AccountPlan,
  ip: string | null,
): Promise<{ user: UserRow; revoked: boolean }> {
  if (plan.refusal || !plan.primary || !plan.domain) throw refusalError(plan.refusal ?? 'directory_no_domain');
  const { person, existing, primary, domain, kept } = plan;
  const actor = externalActor(person.source, ip);
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
            password_hash: '', // never a console password: the other system checks who it is
            role: plan.role,
            domain_id: domain.id,
            is_external: 1,
            source: person.source,
            external_id: person.externalId,
          },
          now,
        );
        await insertUser(trx, row);
        await replaceAddresses(trx, row.id, kept);
        await recordAudit(trx, { action: 'user_create', actor, target: target(row, domain.name) });
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
      const moved = existing.external_id !== person.externalId;
      if (!fields.length && !moved) return { user: existing, revoked: false };
      await updateUserFields(trx, existing.id, changes);
      if (moved) {
        await trx.updateTable('users').set({ external_id: person.externalId }).where('id', '=', existing.id).execute();
      }
      if (addressesChanged) {
        await replaceAddresses(trx, existing.id, kept);
        await bumpIfOwner(trx, { userId: existing.id }); // their lists follow their addresses in Rspamd's map
      }
      // Another key (a rename in the directory) is another sign-in identity: its sessions start afresh.
      const revoked = changes.role !== undefined || changes.domain_id !== undefined || moved;
      if (revoked) await revokeUserSessions(trx, existing.id, now);
      const after = { ...existing, ...changes };
      if (fields.length) {
        await recordAudit(trx, { action: 'user_update', actor, target: target(after, domain.name), changes: fields });
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
    super('the account changed while it was being written');
  }
}

/** A refused plan: the account loses its sessions (disabled, no longer in a console domain), the log names a conflict. */
async function refuse(db: Db, origin: RequestOrigin, plan: AccountPlan): Promise<HttpError> {
  const refusal = plan.refusal!;
  if (plan.existing && refusal !== 'directory_address_conflict') {
    await revokeUserSessions(db, plan.existing.id, Date.now());
  }
  if (refusal === 'directory_address_conflict') {
    const taken = plan.addresses.filter((a) => a.reason === 'taken').map((a) => `${a.address} (owned by ${a.owner})`);
    origin.log.warn(
      { event: refusal, source: plan.person.source, id: plan.person.externalId, addresses: taken },
      `${plan.person.source} sign-in refused: ${taken.join(', ')} already belong to other accounts`,
    );
  }
  return refusalError(refusal);
}

/**
 * The person's account made or brought up to date, or the refusal thrown (HttpError). A plan or a
 * write that lost a race (the same first sign-in twice at once: a double click) is planned again
 * once, then an update.
 */
export async function provisionAccount(
  db: Db,
  person: ExternalPerson,
  origin: RequestOrigin,
  findMoved?: FindMoved,
): Promise<{ user: UserRow; revoked: boolean }> {
  for (let attempt = 0; ; attempt++) {
    const plan = await planAccount(db, person, findMoved);
    // The plan's reads are not one snapshot: a first sign-in racing itself may see the other's
    // addresses but not yet its account. Planned again once, a real conflict stays one.
    if (plan.refusal === 'directory_address_conflict' && !plan.existing && attempt === 0) continue;
    if (plan.refusal) throw await refuse(db, origin, plan);
    try {
      return await applyPlan(db, plan, origin.ip);
    } catch (err) {
      if (!(err instanceof PlanOutdatedError)) throw err;
      if (attempt > 0) throw refusalError('directory_address_conflict');
    }
  }
}
