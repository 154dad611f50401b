import { sql } from 'kysely';
import type { DbExecutor } from '../../db/database';
import type { SystemRulesTable } from '../../db/schema';
import { afterKey, containsAny, type ListKey } from './rules-common';

export type SystemRuleRow = SystemRulesTable;
export type PatternColumns = Pick<SystemRuleRow, 'from_pattern' | 'subject_pattern' | 'to_pattern' | 'ip_pattern'>;
export const PATTERN_COLUMNS = ['from_pattern', 'subject_pattern', 'to_pattern', 'ip_pattern'] as const;

const fromDb = (r: SystemRuleRow): SystemRuleRow => ({
  ...r,
  enabled: Number(r.enabled),
  created_at: Number(r.created_at),
  updated_at: Number(r.updated_at),
});

export async function findSystemRule(db: DbExecutor, id: string): Promise<SystemRuleRow | undefined> {
  const row = await db.selectFrom('system_rules').selectAll().where('id', '=', id).executeTakeFirst();
  return row && fromDb(row);
}

/**
 * A rule with exactly these patterns (null: that pattern is not used), other than `exceptId`:
 * compared as the unique index system_rules_patterns (0022) compares them, coalesce(pattern, '').
 */
export async function findSystemRuleByPatterns(
  db: DbExecutor,
  patterns: PatternColumns,
  exceptId?: string,
): Promise<SystemRuleRow | undefined> {
  let query = db.selectFrom('system_rules').selectAll();
  for (const column of PATTERN_COLUMNS) {
    query = query.where(sql`coalesce(${sql.ref(column)}, '')`, '=', patterns[column] ?? '');
  }
  if (exceptId) query = query.where('id', '!=', exceptId);
  const row = await query.executeTakeFirst();
  return row && fromDb(row);
}

export async function findSystemRulesByIds(db: DbExecutor, ids: string[]): Promise<SystemRuleRow[]> {
  if (!ids.length) return [];
  return (await db.selectFrom('system_rules').selectAll().where('id', 'in', ids).execute()).map(fromDb);
}

export async function insertSystemRule(db: DbExecutor, row: SystemRuleRow): Promise<void> {
  await db.insertInto('system_rules').values(row).execute();
}

export type SystemRuleFields = Partial<PatternColumns & Pick<SystemRuleRow, 'name' | 'action' | 'enabled'>>;

export async function updateSystemRule(
  db: DbExecutor,
  id: string,
  fields: SystemRuleFields & { updated_at: number },
): Promise<void> {
  await db.updateTable('system_rules').set(fields).where('id', '=', id).execute();
}

export async function setSystemRulesEnabled(
  db: DbExecutor,
  ids: string[],
  enabled: number,
  now: number,
): Promise<void> {
  if (!ids.length) return;
  await db.updateTable('system_rules').set({ enabled, updated_at: now }).where('id', 'in', ids).execute();
}

export async function deleteSystemRules(db: DbExecutor, ids: string[]): Promise<void> {
  if (!ids.length) return;
  await db.deleteFrom('system_rules').where('id', 'in', ids).execute();
}

export interface SystemRuleListFilters {
  q?: string;
  action?: SystemRuleRow['action'];
  enabled?: number;
}

/** Newest first (index system_rules_list); `q` is a part of the name or of a pattern. */
export async function listSystemRules(
  db: DbExecutor,
  f: SystemRuleListFilters,
  after: ListKey | null,
  limit: number,
): Promise<SystemRuleRow[]> {
  let query = db.selectFrom('system_rules').selectAll();
  if (f.action) query = query.where('action', '=', f.action);
  if (f.enabled !== undefined) query = query.where('enabled', '=', f.enabled);
  if (f.q) {
    query = query.where(containsAny(['system_rules.name', ...PATTERN_COLUMNS.map((c) => `system_rules.${c}`)], f.q));
  }
  if (after) query = query.where(afterKey(db, 'system_rules', after));
  const rows = await query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  return rows.map(fromDb);
}
