import type {
  ListClearQuery,
  ListClearResponse,
  ListCreate,
  ListEntry,
  ListKind,
  ListPage,
  ListQuery,
  ListScope,
} from '@qc/contracts';
import type { Db, DbExecutor } from '../../db/database';
import { forbidden, HttpError, notFound } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import type { AuthContext } from '../auth/auth.service';
import type { AuditActor, AuditEvent } from '../history/audit.service';
import { insertHistory, readerKey } from '../history/history.repository';
import { bumpList } from '../rspamd/lists.repository';
import { decodeCursor, invalid, iso, page, ruleActor, withConflictCheck } from '../rspamd/rules-common';
import { normaliseListAddress, unicodeAddress } from './address';
import {
  clearOwnerList,
  countEntries,
  deleteEntry,
  findEntry,
  findOwnerEntry,
  insertEntry,
  listEntries,
  SENDER_LISTS,
  type EntryRow,
  type EntryView,
} from './lists.repository';

/**
 * Whitelists and blacklists (issue 18). Every change bumps the `sender-lists` version (the map
 * Rspamd reads) and writes a history row, in one transaction. History readers (recordListChange):
 * the actor (and, as for every action, the domain_admins of the actor's domain), admins, the owner
 * of a user list, and the domain_admins of the list's domain when they manage it (a domain list, or
 * a plain user's): not those of an admin's or a domain_admin's own list.
 */

export const INVALID_ADDRESS = 'Invalid format';

/** Whose list: one account, one domain, or everyone. */
export interface Owner {
  scope: ListScope;
  key: string;
  user: { id: string; email: string } | null;
  domain: { id: string; name: string } | null;
  /**
   * The domain whose domain_admin manages this list and reads its history: a domain's, or a plain
   * user's domain; null for the global list and an admin's or a domain_admin's own (admins only).
   */
  auditDomain: string | null;
}

type OwnerQuery = Pick<ListQuery, 'scope' | 'user_id' | 'domain_id'>;

const userOwner = (id: string, email: string, role: string | null, domainName: string | null): Owner => ({
  scope: 'user',
  key: `user:${id}`,
  user: { id, email },
  domain: null,
  auditDomain: role === 'user' ? domainName : null,
});
const domainOwner = (id: string, name: string): Owner => ({
  scope: 'domain',
  key: `domain:${id}`,
  user: null,
  domain: { id, name },
  auditDomain: name,
});
const GLOBAL: Owner = { scope: 'global', key: 'global', user: null, domain: null, auditDomain: null };

const noSuchUser = () => notFound('No such user.');
const noSuchDomain = () => notFound('No such domain.');
export const entryNotFound = () => notFound('No such list entry.');

/**
 * The owner a query names, as the caller may act on it. Beyond the caller's role (a user naming a
 * domain, the global list or another account; a domain_admin naming the global list): 403. An
 * unknown user or domain, or one outside a domain_admin's domain: 404.
 */
export async function resolveOwner(db: DbExecutor, auth: AuthContext, q: OwnerQuery): Promise<Owner> {
  const me = auth.user;
  if (q.scope !== 'user' && q.user_id !== undefined) throw invalid({ user_id: 'Only with scope "user".' });
  if (q.scope !== 'domain' && q.domain_id !== undefined) throw invalid({ domain_id: 'Only with scope "domain".' });
  if (q.scope === 'global') {
    if (me.role !== 'admin') throw forbidden();
    return GLOBAL;
  }
  if (q.scope === 'domain') {
    if (me.role === 'user') throw forbidden();
    if (me.role === 'domain_admin') {
      if (!me.domain_id || !me.domain_name) throw noSuchDomain();
      if (q.domain_id !== undefined && q.domain_id !== me.domain_id) throw noSuchDomain();
      return domainOwner(me.domain_id, me.domain_name);
    }
    if (q.domain_id === undefined) throw invalid({ domain_id: 'Required with scope "domain".' });
    const domain = await db
      .selectFrom('domains')
      .select(['id', 'name'])
      .where('id', '=', q.domain_id)
      .executeTakeFirst();
    if (!domain) throw noSuchDomain();
    return domainOwner(domain.id, domain.name);
  }
  if (q.user_id === undefined || q.user_id === me.user_id) {
    return userOwner(me.user_id, me.email, me.role, me.domain_name);
  }
  if (me.role === 'user') throw forbidden();
  const user = await db
    .selectFrom('users as u')
    .leftJoin('domains as d', 'd.id', 'u.domain_id')
    .select(['u.id', 'u.email', 'u.role', 'u.domain_id', 'd.name as domain_name'])
    .where('u.id', '=', q.user_id)
    .executeTakeFirst();
  if (!user) throw noSuchUser();
  // As the user administration: a domain_admin manages the plain users of their domain.
  if (me.role === 'domain_admin' && (user.role !== 'user' || !me.domain_id || user.domain_id !== me.domain_id)) {
    throw noSuchUser();
  }
  return userOwner(user.id, user.email, user.role, user.domain_name);
}

/** The owner of a stored entry, or null when the caller may not act on it (404 alike). */
function ownerOfEntry(auth: AuthContext, e: EntryView): Owner | null {
  const me = auth.user;
  let owner: Owner;
  if (e.scope === 'user' && e.user_id && e.user_email) {
    owner = userOwner(e.user_id, e.user_email, e.user_role, e.user_domain_name);
  } else if (e.scope === 'domain' && e.domain_id && e.domain_name) owner = domainOwner(e.domain_id, e.domain_name);
  else if (e.scope === 'global') owner = GLOBAL;
  else return null;
  if (me.role === 'admin') return owner;
  if (owner.user?.id === me.user_id) return owner;
  if (me.role !== 'domain_admin' || !me.domain_id) return null;
  if (owner.scope === 'domain') return e.domain_id === me.domain_id ? owner : null;
  return owner.scope === 'user' && e.user_role === 'user' && e.user_domain_id === me.domain_id ? owner : null;
}

export function toEntry(row: EntryView): ListEntry {
  return {
    id: row.id,
    kind: row.kind,
    scope: row.scope,
    address: row.address,
    address_unicode: unicodeAddress(row.address),
    user: row.scope === 'user' && row.user_id ? { id: row.user_id, email: row.user_email ?? '' } : null,
    domain: row.scope === 'domain' && row.domain_id ? { id: row.domain_id, name: row.domain_name ?? '' } : null,
    created_at: iso(row.created_at),
    created_by: ruleActor(row),
  };
}

/**
 * The history row of a list change: recordAudit's readers (the actor, the actor's domain, the
 * list's `auditDomain`), plus the owner of a user list, who reads what others (their domain_admin,
 * an admin) did to it.
 */
async function recordListChange(
  db: DbExecutor,
  event: Omit<AuditEvent, 'target'> & { target: Omit<AuditEvent['target'], 'domain'> },
  owner: Owner,
): Promise<void> {
  const { actor, target } = event;
  const readers = new Set<string>();
  if (actor.id) readers.add(readerKey.user(actor.id));
  if (actor.domain) readers.add(readerKey.domain(actor.domain));
  if (owner.user) readers.add(readerKey.user(owner.user.id));
  if (owner.auditDomain) readers.add(readerKey.domain(owner.auditDomain));
  await insertHistory(
    db,
    {
      created_at: event.at ?? Date.now(),
      actor_id: actor.id,
      actor_email: actor.email,
      actor_role: actor.role,
      actor_domain: actor.domain,
      action: event.action,
      email_id: null,
      result: 'success',
      code: null,
      ip_address: actor.ip,
      target_kind: target.kind,
      target_id: target.id,
      target_label: target.label,
      changes: null,
    },
    [...readers],
  );
}

const entryLabel = (kind: ListKind, address: string) => `${kind} ${address}`;
const ownerLabel = (o: Owner) =>
  o.scope === 'user' ? `user ${o.user!.email}` : o.scope === 'domain' ? `domain ${o.domain!.name}` : 'global';

/** The 409 naming the entry this owner already has for the address. */
function taken(other: EntryView, kind: ListKind): HttpError {
  const mention = `#${other.id} ${other.address}`;
  const [code, detail] =
    other.kind === kind
      ? ['list_exists', `This address is already on the ${kind}: ${mention}.`]
      : [
          'list_conflict',
          `This address is on the ${other.kind} of the same owner: ${mention}. ` +
            `It cannot be on both lists: remove it from the ${other.kind} first.`,
        ];
  return new HttpError(409, code, detail, { address: detail });
}

/** Normalised address, or the 400 of spec §5. */
export function listAddress(raw: string): string {
  const address = normaliseListAddress(raw);
  if (!address) throw invalid({ address: INVALID_ADDRESS });
  return address;
}

/** Adds an entry for a resolved owner (also "Not spam"'s whitelist step). */
export async function addEntry(
  db: Db,
  actor: AuditActor,
  owner: Owner,
  kind: ListKind,
  address: string,
): Promise<ListEntry> {
  const now = Date.now();
  const stored: EntryRow = {
    id: newId(now),
    kind,
    scope: owner.scope,
    address,
    user_id: owner.user?.id ?? null,
    domain_id: owner.domain?.id ?? null,
    owner_key: owner.key,
    created_at: now,
    created_by_id: actor.id,
    created_by_email: actor.email,
  };
  const row: EntryView = {
    ...stored,
    user_email: owner.user?.email ?? null,
    user_role: null,
    user_domain_id: null,
    user_domain_name: null,
    domain_name: owner.domain?.name ?? null,
  };
  const conflict = async (ex: DbExecutor) => {
    const other = await findOwnerEntry(ex, owner.key, address);
    return other ? taken(other, kind) : null;
  };
  await withConflictCheck(
    () =>
      db.transaction().execute(async (trx) => {
        const refusal = await conflict(trx);
        if (refusal) throw refusal;
        await insertEntry(trx, stored);
        await bumpList(trx, SENDER_LISTS, now);
        await recordListChange(
          trx,
          {
            action: 'list_add',
            actor,
            target: { kind: 'list_entry', id: row.id, label: entryLabel(kind, address) },
            at: now,
          },
          owner,
        );
      }),
    () => conflict(db),
  );
  return toEntry(row);
}

export async function createEntry(db: Db, auth: AuthContext, actor: AuditActor, body: ListCreate): Promise<ListEntry> {
  const address = listAddress(body.address);
  const owner = await resolveOwner(db, auth, {
    scope: body.scope ?? 'user',
    user_id: body.user_id,
    domain_id: body.domain_id,
  });
  return addEntry(db, actor, owner, body.kind, address);
}

/** DELETE /api/lists/{id}/: an entry the caller may not manage is 404, as an unknown one. */
export async function removeEntry(db: Db, auth: AuthContext, actor: AuditActor, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const entry = await findEntry(trx, id);
    const owner = entry && ownerOfEntry(auth, entry);
    if (!entry || !owner || !(await deleteEntry(trx, id))) throw entryNotFound();
    const now = Date.now();
    await bumpList(trx, SENDER_LISTS, now);
    // The id names nothing any more (as for rules): null on the row of the deletion.
    await recordListChange(
      trx,
      {
        action: 'list_remove',
        actor,
        target: { kind: 'list_entry', id: null, label: entryLabel(entry.kind, entry.address) },
        at: now,
      },
      owner,
    );
  });
}

/** DELETE /api/lists/?kind=…: an empty list is cleared without a write, a bump or a history row. */
export async function clearList(
  db: Db,
  auth: AuthContext,
  actor: AuditActor,
  query: ListClearQuery,
): Promise<ListClearResponse> {
  const owner = await resolveOwner(db, auth, query);
  const deleted = await db.transaction().execute(async (trx) => {
    const n = await clearOwnerList(trx, owner.key, query.kind);
    if (!n) return 0;
    const now = Date.now();
    await bumpList(trx, SENDER_LISTS, now);
    await recordListChange(
      trx,
      {
        action: 'list_clear',
        actor,
        target: { kind: 'list', id: owner.key, label: `${query.kind} of ${ownerLabel(owner)}` },
        at: now,
      },
      owner,
    );
    return n;
  });
  return { deleted };
}

export async function listPage(db: DbExecutor, auth: AuthContext, query: ListQuery): Promise<ListPage> {
  const owner = await resolveOwner(db, auth, query);
  const after = decodeCursor(query.cursor);
  const [rows, total] = await Promise.all([
    listEntries(db, owner.key, query.kind, query.q?.toLowerCase(), after, query.page_size + 1),
    countEntries(db, owner.key, query.kind),
  ]);
  return { ...page(rows, query.page_size, toEntry), total };
}
