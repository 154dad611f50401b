import {
  ApanelFilterCreate,
  ApanelFilterUpdate,
  type ApanelFilter,
  type ApanelFilterList,
  type ApanelFilterListQuery,
  type RuleBulkRequest,
  type RuleBulkResponse,
} from '@qc/contracts';
import { z } from 'zod';
import type { Db, DbExecutor } from '../../db/database';
import type { ApanelFiltersTable } from '../../db/schema';
import { notFound } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import type { AuditActor } from '../history/audit.service';
import {
  deleteApanels,
  findActiveUser,
  findApanel,
  findApanelByPair,
  findApanelsByIds,
  findApanelsByOwner,
  insertApanel,
  listApanels,
  setApanelsEnabled,
  updateApanel,
  type ApanelFields,
  type ApanelRow,
} from './apanel.repository';
import { bumpList } from './lists.repository';
import { addressesOfUser } from '../quarantine/quarantine-scope';
import { addressesOf } from '../users/user-addresses.repository';
import { isCatchAll, normaliseAddressPattern } from './patterns';
import {
  booleanParam,
  decodeCursor,
  FieldChecks,
  iso,
  nextUpdate,
  page,
  recordRuleChanges,
  ruleActor,
  ruleConflict,
  runBulk,
  withConflictCheck,
} from './rules-common';

/**
 * Control-panel (apanel) filters: an envelope sender → recipient pair and an action, owned by the
 * system (any recipient pattern) or by a user (for mail to their own address).
 */
export const ApanelCreateBody = ApanelFilterCreate;
export type ApanelCreateBody = z.infer<typeof ApanelCreateBody>;
export const ApanelUpdateBody = ApanelFilterUpdate;
export type ApanelUpdateBody = z.infer<typeof ApanelUpdateBody>;

const LIST = 'apanel-filters' as const;

/** Anyone → anyone would act on all mail (a discard would drop everything). */
function refuseCatchAllPair(checks: FieldChecks, from: string | undefined, to: string | undefined) {
  if (from !== undefined && to !== undefined && isCatchAll(from) && isCatchAll(to)) {
    checks.fail('from', 'This filter matches all mail: narrow the sender or the recipient');
  }
}
const apanelNotFound = () => notFound('No such control-panel filter.');
const pairLabel = (r: { from_pattern: string; to_pattern: string }) => `${r.from_pattern} → ${r.to_pattern}`;
const target = (r: Pick<ApanelRow, 'id' | 'from_pattern' | 'to_pattern'>) => ({
  kind: 'apanel_filter' as const,
  id: r.id,
  label: pairLabel(r),
});

export function toApanel(row: ApanelRow): ApanelFilter {
  return {
    id: row.id,
    enabled: Number(row.enabled) === 1,
    owner: row.owner_id === null ? null : { id: row.owner_id, email: row.owner_email ?? '' },
    from: row.from_pattern,
    to: row.to_pattern,
    action: row.action,
    description: row.description,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    created_by: ruleActor(row),
  };
}

async function pairTaken(db: DbExecutor, from: string, to: string, action: string, exceptId?: string) {
  const other = await findApanelByPair(db, from, to);
  if (!other || other.id === exceptId) return null;
  return ruleConflict(
    'This sender and recipient pair',
    ['from', 'to'],
    { id: other.id, label: pairLabel(other), action: other.action, description: other.description },
    action,
  );
}

/** A filter's owner: their primary e-mail and every address of theirs (issue 31), primary first. */
type Owner = { id: string; email: string; addresses: string[] } | null;

/** The owner named by `owner_id` (null: system); an unknown or inactive account is refused. */
async function ownerOf(db: DbExecutor, checks: FieldChecks, ownerId: string | null): Promise<Owner | undefined> {
  if (ownerId === null) return null;
  const user = await findActiveUser(db, ownerId);
  if (!user) checks.fail('owner_id', 'No active user has this id');
  return user && { ...user, addresses: await ownerAddresses(db, user) };
}

/** The owner a filter has now (active or not), with their addresses. */
async function currentOwner(db: DbExecutor, id: string, email: string): Promise<Owner> {
  return { id, email, addresses: await ownerAddresses(db, { id, email }) };
}

/** The owner's addresses, lower case, the primary (their e-mail) first. */
async function ownerAddresses(db: DbExecutor, owner: { id: string; email: string }): Promise<string[]> {
  const stored = (await addressesOf(db, [owner.id])).get(owner.id) ?? [];
  return addressesOfUser({ email: owner.email, addresses: stored });
}

/**
 * The stored recipient: a user's filter is for one of their own addresses (empty or `*` means
 * their primary, their e-mail).
 */
function recipientOf(checks: FieldChecks, owner: Owner | undefined, raw: string | undefined): string | undefined {
  const given = raw?.trim() ?? '';
  if (owner) {
    if (given === '' || given === '*') return owner.email;
    const to = checks.check('to', () => normaliseAddressPattern(given));
    if (to === undefined || to === owner.email.toLowerCase()) return owner.email;
    if (owner.addresses.includes(to)) return to;
    checks.fail(
      'to',
      owner.addresses.length > 1
        ? `A user's filter is for one of their own addresses: ${owner.addresses.join(', ')} (or leave it empty)`
        : `A user's filter is for their own address: ${owner.email} (or leave it empty)`,
    );
    return owner.email;
  }
  if (given === '') {
    if (owner === null) checks.fail('to', 'Pattern is required');
    return undefined;
  }
  return checks.check('to', () => normaliseAddressPattern(given));
}

export async function createApanel(
  db: Db,
  actor: AuditActor,
  body: ApanelCreateBody,
  dryRun: boolean,
): Promise<ApanelFilter> {
  const checks = new FieldChecks();
  const from = checks.check('from', () => normaliseAddressPattern(body.from));
  const owner = await ownerOf(db, checks, body.owner_id ?? null);
  const to = recipientOf(checks, owner, body.to);
  refuseCatchAllPair(checks, from, to);
  checks.done();
  const now = Date.now();
  const row: ApanelFiltersTable = {
    id: dryRun ? '' : newId(now),
    owner_id: owner?.id ?? null,
    from_pattern: from!,
    to_pattern: to!,
    action: body.action,
    description: body.description,
    enabled: body.enabled === false ? 0 : 1,
    created_at: now,
    updated_at: now,
    created_by_id: actor.id,
    created_by_email: actor.email,
  };
  const item = toApanel({ ...row, owner_email: owner?.email ?? null });
  const taken = () => pairTaken(db, row.from_pattern, row.to_pattern, row.action);
  if (dryRun) {
    const conflict = await taken();
    if (conflict) throw conflict;
    return item;
  }
  await withConflictCheck(
    () =>
      db.transaction().execute(async (trx) => {
        const conflict = await pairTaken(trx, row.from_pattern, row.to_pattern, row.action);
        if (conflict) throw conflict;
        await insertApanel(trx, row);
        await recordRuleChanges(trx, actor, LIST, [{ action: 'filter_create', target: target(row) }], now);
      }),
    taken,
  );
  return item;
}

export async function apanelDetail(db: DbExecutor, id: string): Promise<ApanelFilter> {
  const row = await findApanel(db, id);
  if (!row) throw apanelNotFound();
  return toApanel(row);
}

/** Only fields whose value changes count: nothing changed, no write, no version bump, no history. */
export async function changeApanel(
  db: Db,
  actor: AuditActor,
  id: string,
  body: ApanelUpdateBody,
  dryRun: boolean,
): Promise<ApanelFilter> {
  let next: ApanelRow | undefined;
  const taken = async () => (next ? pairTaken(db, next.from_pattern, next.to_pattern, next.action, id) : null);
  const plan = async (ex: DbExecutor) => {
    const row = await findApanel(ex, id);
    if (!row) throw apanelNotFound();
    const checks = new FieldChecks();
    const fields: ApanelFields = {};
    const from =
      body.from === undefined ? row.from_pattern : checks.check('from', () => normaliseAddressPattern(body.from!));
    // A new owner must be an active account; the current one may have been deactivated since.
    const ownerChanged = body.owner_id !== undefined && body.owner_id !== row.owner_id;
    const owner: Owner | undefined = ownerChanged
      ? await ownerOf(ex, checks, body.owner_id ?? null)
      : row.owner_id === null
        ? null
        : await currentOwner(ex, row.owner_id, row.owner_email ?? '');
    let to: string | undefined = row.to_pattern;
    if (body.to !== undefined || (ownerChanged && owner)) to = recipientOf(checks, owner, body.to);
    refuseCatchAllPair(checks, from, to);
    checks.done();
    if (from !== row.from_pattern) fields.from_pattern = from!;
    if (to !== row.to_pattern) fields.to_pattern = to!;
    if (ownerChanged) fields.owner_id = owner?.id ?? null;
    if (body.action !== undefined && body.action !== row.action) fields.action = body.action;
    if (body.description !== undefined && body.description !== row.description) fields.description = body.description;
    if (body.enabled !== undefined && (body.enabled ? 1 : 0) !== row.enabled) fields.enabled = body.enabled ? 1 : 0;
    next = { ...row, ...fields, owner_email: owner?.email ?? null, updated_at: nextUpdate(row.updated_at) };
    if (fields.from_pattern !== undefined || fields.to_pattern !== undefined || fields.action !== undefined) {
      const conflict = await pairTaken(ex, next.from_pattern, next.to_pattern, next.action, id);
      if (conflict) throw conflict;
    }
    // History names the request's fields.
    const names: Record<string, string> = { from_pattern: 'from', to_pattern: 'to' };
    return { row, fields, next, changes: Object.keys(fields).map((k) => names[k] ?? k) };
  };
  if (dryRun) {
    const { row, next, changes } = await plan(db);
    return toApanel(changes.length ? next : row);
  }
  return withConflictCheck(
    () =>
      db.transaction().execute(async (trx) => {
        const { row, fields, next, changes } = await plan(trx);
        if (!changes.length) return toApanel(row);
        await updateApanel(trx, id, { ...fields, updated_at: next.updated_at });
        await recordRuleChanges(
          trx,
          actor,
          LIST,
          [{ action: 'filter_update', target: target(next), changes }],
          next.updated_at,
        );
        return toApanel(next);
      }),
    taken,
  );
}

export async function removeApanel(db: Db, actor: AuditActor, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await findApanel(trx, id);
    if (!row) throw apanelNotFound();
    await deleteApanels(trx, [id]);
    await recordRuleChanges(trx, actor, LIST, [{ action: 'filter_delete', target: { ...target(row), id: null } }]);
  });
}

export async function apanelsPage(db: DbExecutor, query: ApanelFilterListQuery): Promise<ApanelFilterList> {
  const rows = await listApanels(
    db,
    { q: query.q, action: query.action, enabled: booleanParam(query.enabled), owner: query.owner },
    decodeCursor(query.cursor),
    query.page_size + 1,
  );
  return page(rows, query.page_size, toApanel);
}

/**
 * A user's filters go with their account (the foreign key cascades): called in the transaction
 * that deletes the user, this deletes them first, so the list Rspamd fetches is bumped and each
 * deletion is in the history with the actor of the user's deletion (none: no history row).
 */
export async function removeOwnedApanels(trx: DbExecutor, actor: AuditActor | null, ownerId: string): Promise<void> {
  const owned = await findApanelsByOwner(trx, ownerId);
  if (!owned.length) return;
  await deleteApanels(
    trx,
    owned.map((r) => r.id),
  );
  const changes = owned.map((r) => ({ action: 'filter_delete' as const, target: { ...target(r), id: null } }));
  if (actor) await recordRuleChanges(trx, actor, LIST, changes);
  else await bumpList(trx, LIST);
}

export function bulkApanels(db: Db, actor: AuditActor, body: RuleBulkRequest): Promise<RuleBulkResponse> {
  return runBulk<ApanelRow>(db, actor, body, {
    list: LIST,
    find: findApanelsByIds,
    remove: deleteApanels,
    setEnabled: setApanelsEnabled,
    target,
  });
}
