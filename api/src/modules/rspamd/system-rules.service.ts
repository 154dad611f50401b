import type {
  RuleBulkRequest,
  RuleBulkResponse,
  SystemRule,
  SystemRuleCreate,
  SystemRuleList,
  SystemRuleListQuery,
  SystemRuleUpdate,
} from '@qc/contracts';
import type { Db, DbExecutor } from '../../db/database';
import { notFound } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import type { AuditActor } from '../history/audit.service';
import { isCatchAll, systemRulePattern } from './patterns';
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
import {
  deleteSystemRules,
  findSystemRule,
  findSystemRuleByPatterns,
  findSystemRulesByIds,
  insertSystemRule,
  listSystemRules,
  PATTERN_COLUMNS,
  setSystemRulesEnabled,
  updateSystemRule,
  type PatternColumns,
  type SystemRuleFields,
  type SystemRuleRow,
} from './system-rules.repository';

/**
 * System rules: from, subject, to and ip patterns that must all match (at least one given). When
 * several rules match a message, the strictest action wins (reject > soft_reject > greylist >
 * add_header > accept).
 */

const LIST = 'system-rules' as const;
const ruleNotFound = () => notFound('No such system rule.');
const target = (r: Pick<SystemRuleRow, 'id' | 'name'>) => ({ kind: 'system_rule' as const, id: r.id, label: r.name });

/** Request field → column, and how its value is checked and stored. */
const FIELDS = {
  from: { column: 'from_pattern', normalise: systemRulePattern.address },
  subject: { column: 'subject_pattern', normalise: systemRulePattern.subject },
  to: { column: 'to_pattern', normalise: systemRulePattern.address },
  ip: { column: 'ip_pattern', normalise: systemRulePattern.ip },
} as const;
type PatternField = keyof typeof FIELDS;
const PATTERN_FIELDS = Object.keys(FIELDS) as PatternField[];

export function toSystemRule(row: SystemRuleRow): SystemRule {
  return {
    id: row.id,
    name: row.name,
    from: row.from_pattern,
    subject: row.subject_pattern,
    to: row.to_pattern,
    ip: row.ip_pattern,
    action: row.action,
    enabled: Number(row.enabled) === 1,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    created_by: ruleActor(row),
  };
}

async function patternsTaken(db: DbExecutor, patterns: PatternColumns, action: string, exceptId?: string) {
  const other = await findSystemRuleByPatterns(db, patterns, exceptId);
  if (!other) return null;
  return ruleConflict(
    'A system rule with these patterns',
    ['patterns'],
    { id: other.id, label: other.name, action: other.action },
    action,
  );
}

/**
 * The patterns after a create or an update: the body's (normalised; null or empty: not used) over
 * the current ones. At least one must remain.
 */
function patternsOf(
  body: Partial<Record<PatternField, string | null>>,
  current: PatternColumns | null,
  checks: FieldChecks,
): PatternColumns {
  const out = {
    from_pattern: null,
    subject_pattern: null,
    to_pattern: null,
    ip_pattern: null,
    ...current,
  } as PatternColumns;
  for (const field of PATTERN_FIELDS) {
    const raw = body[field];
    if (raw === undefined) continue;
    const { column, normalise } = FIELDS[field];
    out[column] = raw === null ? null : (checks.check(field, () => normalise(raw)) ?? null);
  }
  if (PATTERN_COLUMNS.every((c) => out[c] === null) && PATTERN_FIELDS.every((f) => checks.errors[f] === undefined)) {
    checks.fail('patterns', 'Pattern is required');
  }
  const given = PATTERN_COLUMNS.map((c) => out[c]).filter((v) => v !== null);
  if (given.length && given.every(isCatchAll)) checks.fail('patterns', 'These patterns match all mail: narrow one');
  return out;
}

export async function createSystemRule(
  db: Db,
  actor: AuditActor,
  body: SystemRuleCreate,
  dryRun: boolean,
): Promise<SystemRule> {
  const checks = new FieldChecks();
  const patterns = patternsOf(body, null, checks);
  checks.done();
  const now = Date.now();
  const row: SystemRuleRow = {
    id: dryRun ? '' : newId(now),
    name: body.name,
    ...patterns,
    action: body.action,
    enabled: body.enabled === false ? 0 : 1,
    created_at: now,
    updated_at: now,
    created_by_id: actor.id,
    created_by_email: actor.email,
  };
  const taken = () => patternsTaken(db, patterns, row.action);
  if (dryRun) {
    const conflict = await taken();
    if (conflict) throw conflict;
    return toSystemRule(row);
  }
  // The check below answers most duplicates; a concurrent save of the same patterns passes it and
  // is stopped by the unique index system_rules_patterns (0022), then answered by the same 409.
  await withConflictCheck(
    () =>
      db.transaction().execute(async (trx) => {
        const conflict = await patternsTaken(trx, patterns, row.action);
        if (conflict) throw conflict;
        await insertSystemRule(trx, row);
        await recordRuleChanges(trx, actor, LIST, [{ action: 'filter_create', target: target(row) }], now);
      }),
    taken,
  );
  return toSystemRule(row);
}

export async function systemRuleDetail(db: DbExecutor, id: string): Promise<SystemRule> {
  const row = await findSystemRule(db, id);
  if (!row) throw ruleNotFound();
  return toSystemRule(row);
}

/** Only fields whose value changes count: nothing changed, no write, no version bump, no history. */
export async function changeSystemRule(
  db: Db,
  actor: AuditActor,
  id: string,
  body: SystemRuleUpdate,
  dryRun: boolean,
): Promise<SystemRule> {
  let planned: { patterns: PatternColumns; action: string } | undefined;
  const taken = async () => (planned ? patternsTaken(db, planned.patterns, planned.action, id) : null);
  const plan = async (ex: DbExecutor) => {
    const row = await findSystemRule(ex, id);
    if (!row) throw ruleNotFound();
    const checks = new FieldChecks();
    const patterns = patternsOf(body, row, checks);
    checks.done();
    const fields: SystemRuleFields = {};
    const changes: string[] = [];
    for (const field of PATTERN_FIELDS) {
      const column = FIELDS[field].column;
      if (patterns[column] !== row[column]) {
        fields[column] = patterns[column];
        changes.push(field);
      }
    }
    if (body.name !== undefined && body.name !== row.name) {
      fields.name = body.name;
      changes.push('name');
    }
    if (body.action !== undefined && body.action !== row.action) {
      fields.action = body.action;
      changes.push('action');
    }
    if (body.enabled !== undefined && (body.enabled ? 1 : 0) !== row.enabled) {
      fields.enabled = body.enabled ? 1 : 0;
      changes.push('enabled');
    }
    const next: SystemRuleRow = { ...row, ...fields, updated_at: nextUpdate(row.updated_at) };
    planned = { patterns, action: next.action };
    if (changes.some((c) => c === 'action' || c in FIELDS)) {
      const conflict = await patternsTaken(ex, patterns, next.action, id);
      if (conflict) throw conflict;
    }
    return { row, fields, next, changes };
  };
  if (dryRun) {
    const { row, next, changes } = await plan(db);
    return toSystemRule(changes.length ? next : row);
  }
  return withConflictCheck(
    () =>
      db.transaction().execute(async (trx) => {
        const { row, fields, next, changes } = await plan(trx);
        if (!changes.length) return toSystemRule(row);
        await updateSystemRule(trx, id, { ...fields, updated_at: next.updated_at });
        await recordRuleChanges(
          trx,
          actor,
          LIST,
          [{ action: 'filter_update', target: target(next), changes }],
          next.updated_at,
        );
        return toSystemRule(next);
      }),
    taken,
  );
}

export async function removeSystemRule(db: Db, actor: AuditActor, id: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const row = await findSystemRule(trx, id);
    if (!row) throw ruleNotFound();
    await deleteSystemRules(trx, [id]);
    await recordRuleChanges(trx, actor, LIST, [{ action: 'filter_delete', target: { ...target(row), id: null } }]);
  });
}

export async function systemRulesPage(db: DbExecutor, query: SystemRuleListQuery): Promise<SystemRuleList> {
  const rows = await listSystemRules(
    db,
    { q: query.q, action: query.action, enabled: booleanParam(query.enabled) },
    decodeCursor(query.cursor),
    query.page_size + 1,
  );
  return page(rows, query.page_size, toSystemRule);
}

export function bulkSystemRules(db: Db, actor: AuditActor, body: RuleBulkRequest): Promise<RuleBulkResponse> {
  return runBulk<SystemRuleRow>(db, actor, body, {
    list: LIST,
    find: findSystemRulesByIds,
    remove: deleteSystemRules,
    setEnabled: setSystemRulesEnabled,
    target,
  });
}
