import type {
  FilterType,
  RspamdFilter,
  RspamdFilterCreate,
  RspamdFilterList,
  RspamdFilterListQuery,
  RspamdFilterUpdate,
  RuleBulkRequest,
  RuleBulkResponse,
  RspamdListName,
} from '@qc/contracts';
import type { Db, DbExecutor } from '../../db/database';
import { notFound } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import type { AuditActor } from '../history/audit.service';
import {
  deleteFilters,
  findFilter,
  findFilterByValue,
  findFiltersByIds,
  insertFilter,
  listFilters,
  setFiltersEnabled,
  updateFilter,
  type FilterFields,
  type FilterRow,
} from './filters.repository';
import { normaliseFilterValue, type Normalised } from './patterns';
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

/** Filters of the four families (domains, ips, users, special = the Subject header). */

export const filterList = (type: FilterType): RspamdListName => `filters-${type}`;
const filterNotFound = () => notFound('No such filter.');
const target = (row: Pick<FilterRow, 'id' | 'value'>) => ({ kind: 'filter' as const, id: row.id, label: row.value });

export function toFilter(row: FilterRow): RspamdFilter {
  return {
    id: row.id,
    type: row.type,
    value: row.value,
    pattern_type: row.pattern_type,
    action: row.action,
    description: row.description,
    enabled: Number(row.enabled) === 1,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    created_by: ruleActor(row),
  };
}

/** The 409 naming the filter that already holds this value in the family, or null. */
async function valueTaken(db: DbExecutor, type: FilterType, value: string, action: string, exceptId?: string) {
  const other = await findFilterByValue(db, type, value);
  if (!other || other.id === exceptId) return null;
  return ruleConflict(
    `The ${type} list`,
    ['value'],
    { id: other.id, label: other.value, action: other.action, description: other.description },
    action,
  );
}

function normalised(type: FilterType, patternType: RspamdFilter['pattern_type'], value: string): Normalised {
  const checks = new FieldChecks();
  const out = checks.check('value', () => normaliseFilterValue(type, patternType, value));
  checks.done();
  return out!;
}

export async function createFilter(
  db: Db,
  actor: AuditActor,
  type: FilterType,
  body: RspamdFilterCreate,
  dryRun: boolean,
): Promise<RspamdFilter> {
  const { value, pattern_type } = normalised(type, body.pattern_type, body.value);
  const now = Date.now();
  const row: FilterRow = {
    id: dryRun ? '' : newId(now),
    type,
    value,
    pattern_type,
    action: body.action,
    description: body.description,
    enabled: body.enabled === false ? 0 : 1,
    created_at: now,
    updated_at: now,
    created_by_id: actor.id,
    created_by_email: actor.email,
  };
  const taken = () => valueTaken(db, type, value, body.action);
  if (dryRun) {
    const conflict = await taken();
    if (conflict) throw conflict;
    return toFilter(row);
  }
  await withConflictCheck(
    () =>
      db.transaction().execute(async (trx) => {
        const conflict = await valueTaken(trx, type, value, body.action);
        if (conflict) throw conflict;
        await insertFilter(trx, row);
        await recordRuleChanges(trx, actor, filterList(type), [{ action: 'filter_create', target: target(row) }], now);
      }),
    taken,
  );
  return toFilter(row);
}

export async function filterDetail(db: DbExecutor, type: FilterType, id: string): Promise<RspamdFilter> {
  const row = await findFilter(db, type, id);
  if (!row) throw filterNotFound();
  return toFilter(row);
}

/** Only fields whose value changes count: nothing changed, no write, no version bump, no history. */
export async function changeFilter(
  db: Db,
  actor: AuditActor,
  type: FilterType,
  id: string,
  body: RspamdFilterUpdate,
  dryRun: boolean,
): Promise<RspamdFilter> {
  let next: FilterRow | undefined;
  const taken = async () => (next ? valueTaken(db, type, next.value, next.action, id) : null);
  // Read, checked and written in one transaction (a dry run: the same reads, no transaction).
  const plan = async (ex: DbExecutor) => {
    const row = await findFilter(ex, type, id);
    if (!row) throw filterNotFound();
    const fields: FilterFields = {};
    if (body.value !== undefined || body.pattern_type !== undefined) {
      const out = normalised(type, body.pattern_type ?? row.pattern_type, body.value ?? row.value);
      if (out.value !== row.value) fields.value = out.value;
      if (out.pattern_type !== row.pattern_type) fields.pattern_type = out.pattern_type;
    }
    if (body.action !== undefined && body.action !== row.action) fields.action = body.action;
    if (body.description !== undefined && body.description !== row.description) fields.description = body.description;
    if (body.enabled !== undefined && (body.enabled ? 1 : 0) !== row.enabled) fields.enabled = body.enabled ? 1 : 0;
    next = { ...row, ...fields, updated_at: nextUpdate(row.updated_at) };
    if (fields.value !== undefined || fields.action !== undefined) {
      const conflict = await valueTaken(ex, type, next.value, next.action, id);
      if (conflict) throw conflict;
    }
    return { row, fields, next, changes: Object.keys(fields) };
  };
  if (dryRun) {
    const { row, next, changes } = await plan(db);
    return toFilter(changes.length ? next : row);
  }
  return withConflictCheck(
    () =>
      db.transaction().execute(async (trx) => {
        const { row, fields, next, changes } = await plan(trx);
        if (!changes.length) return toFilter(row);
        await updateFilter(trx, id, { ...fields, updated_at: next.updated_at });
        await recordRuleChanges(
          trx,
          actor,
          filterList(type),
          [{ action: 'filter_update', target: target(next), changes }],
          next.updated_at,
        );
        return toFilter(next);
      }),
    taken,
  );
}

export async function removeFilter(db: Db, actor: AuditActor, type: FilterType, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await findFilter(trx, type, id);
    if (!row) throw filterNotFound();
    await deleteFilters(trx, [id]);
    // The id names nothing any more (as for users and domains): null on the row of the deletion.
    await recordRuleChanges(trx, actor, filterList(type), [
      { action: 'filter_delete', target: { ...target(row), id: null } },
    ]);
  });
}

export async function filtersPage(
  db: DbExecutor,
  type: FilterType,
  query: RspamdFilterListQuery,
): Promise<RspamdFilterList> {
  const rows = await listFilters(
    db,
    type,
    { q: query.q, action: query.action, patternType: query.pattern_type, enabled: booleanParam(query.enabled) },
    decodeCursor(query.cursor),
    query.page_size + 1,
  );
  return page(rows, query.page_size, toFilter);
}

export function bulkFilters(
  db: Db,
  actor: AuditActor,
  type: FilterType,
  body: RuleBulkRequest,
): Promise<RuleBulkResponse> {
  return runBulk<FilterRow>(db, actor, body, {
    list: filterList(type),
    find: (trx, ids) => findFiltersByIds(trx, type, ids),
    remove: deleteFilters,
    setEnabled: setFiltersEnabled,
    target,
  });
}
