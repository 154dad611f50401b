import type { RuleBulkRequest, RuleBulkResponse, RspamdListName } from '@qc/contracts';
import { emptyAsUndefined, RuleActor } from '@qc/contracts';
import { sql, type Expression, type SqlBool } from 'kysely';
import { z } from 'zod';
import { isUniqueViolation, type Db, type DbExecutor } from '../../db/database';
import { HttpError } from '../../lib/http-error';
import { recordAudit, type AuditActor, type AuditTarget } from '../history/audit.service';
import { isSqlite } from '../quarantine/quarantine-scope';
import { bumpList } from './lists.repository';
import { PatternError } from './pattern-error';

/** Shared by the three kinds of rules (filters, control-panel filters, system rules). */

export const iso = (ms: number) => new Date(Number(ms)).toISOString();

export function ruleActor(row: {
  created_by_id: string | null;
  created_by_email: string | null;
}): z.infer<typeof RuleActor> {
  return row.created_by_email === null ? null : { id: row.created_by_id, email: row.created_by_email };
}

/** `?dry_run=true` on POST and PATCH: validated, normalised and checked for conflicts; nothing saved. */
export const DryRunQuery = z
  .object({ dry_run: z.preprocess(emptyAsUndefined, z.enum(['true', 'false']).optional()) })
  .strict();

export const invalid = (errors: Record<string, string>) =>
  new HttpError(400, 'validation_error', 'The request is not valid.', errors);

/**
 * Runs each field's normaliser and gathers every refusal (PatternError) under its field name:
 * one answer names all the fields that are wrong. Throws the 400 when any.
 */
export class FieldChecks {
  readonly errors: Record<string, string> = {};

  check<T>(field: string, fn: () => T): T | undefined {
    try {
      return fn();
    } catch (err) {
      if (!(err instanceof PatternError)) throw err;
      this.errors[field] ??= err.message;
      return undefined;
    }
  }

  fail(field: string, message: string): void {
    this.errors[field] ??= message;
  }

  done(): void {
    if (Object.keys(this.errors).length) throw invalid(this.errors);
  }
}

/** How a rule is named in a conflict: `#<id> <label> (<action>, "<description>")`. */
export const ruleMention = (r: { id: string; label: string; action: string; description?: string }) =>
  `#${r.id} ${r.label} (${r.action}${r.description ? `, "${r.description}"` : ''})`;

/**
 * The 409 for a rule that already exists for the same value (or pair, or patterns): filter_exists
 * with the same action, filter_conflict with another one (Rspamd applies whichever forced action it
 * sees first, so accept-vs-reject on one value is refused rather than left to chance).
 */
export function ruleConflict(
  what: string,
  fields: string[],
  other: { id: string; label: string; action: string; description?: string },
  action: string,
): HttpError {
  const mention = ruleMention(other);
  const [code, detail] =
    other.action === action
      ? ['filter_exists', `${what} already has a filter: ${mention}.`]
      : [
          'filter_conflict',
          `${what} already has a filter with another action: ${mention}. ` +
            `It cannot be both ${other.action} and ${action}: change or delete that filter first.`,
        ];
  return new HttpError(409, code, detail, Object.fromEntries(fields.map((f) => [f, detail])));
}

/**
 * Runs a write; a unique violation (a concurrent save of the same value, past the check made
 * first) becomes the same 409 as that check, read again once the transaction is over (on
 * PostgreSQL the failed insert has aborted it).
 */
export async function withConflictCheck<T>(
  write: () => Promise<T>,
  conflict: () => Promise<HttpError | null>,
): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (!isUniqueViolation(err)) throw err;
    throw (await conflict()) ?? err;
  }
}

// --- keyset lists: newest first on (created_at, id) ---

export interface ListKey {
  createdAt: number;
  id: string;
}

const badCursor = () => invalid({ cursor: 'Invalid cursor.' });

export const encodeCursor = (row: { created_at: number; id: string }) =>
  Buffer.from(JSON.stringify([Number(row.created_at), row.id]), 'utf8').toString('base64url');

export function decodeCursor(cursor: string | undefined): ListKey | null {
  if (cursor === undefined) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed.length !== 2) throw badCursor();
  const [createdAt, id] = parsed as unknown[];
  if (typeof createdAt !== 'number' || !Number.isSafeInteger(createdAt) || typeof id !== 'string') throw badCursor();
  return { createdAt, id };
}

/** Rows strictly after `after` in (created_at desc, id desc) order. */
export function afterKey(db: DbExecutor, table: string, after: ListKey): Expression<SqlBool> {
  const date = sql.ref(`${table}.created_at`);
  const id = sql.ref(`${table}.id`);
  // PostgreSQL reads a row comparison as one index range; SQLite needs the redundant `<=` to seek.
  return isSqlite(db)
    ? sql<SqlBool>`${date} <= ${after.createdAt} and (${date} < ${after.createdAt} or (${date} = ${after.createdAt} and ${id} < ${after.id}))`
    : sql<SqlBool>`(${date}, ${id}) < (${after.createdAt}, ${after.id})`;
}

/** One page: `limit + 1` rows were read; the extra one says whether there is a next page. */
export function page<Row extends { created_at: number; id: string }, Item>(
  rows: Row[],
  pageSize: number,
  toItem: (row: Row) => Item,
): { results: Item[]; next_cursor: string | null } {
  const shown = rows.slice(0, pageSize);
  const last = shown[shown.length - 1];
  return { results: shown.map(toItem), next_cursor: rows.length > pageSize && last ? encodeCursor(last) : null };
}

/**
 * `q` found anywhere in one of `columns`, any case: SQLite's lower() folds ASCII only,
 * PostgreSQL's all of Unicode, so both lower-case forms of the term are tried.
 */
export function containsAny(columns: string[], q: string): Expression<SqlBool> {
  const forms = [...new Set([q.toLowerCase(), q.replace(/[A-Z]+/g, (s) => s.toLowerCase())])];
  const patterns = forms.map((f) => `%${f.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
  const tests = columns.flatMap((column) =>
    patterns.map((p) => sql<SqlBool>`lower(coalesce(${sql.ref(column)}, '')) like ${p} escape '\\'`),
  );
  return sql<SqlBool>`(${sql.join(tests, sql` or `)})`;
}

export const booleanParam = (v: 'true' | 'false' | undefined) => (v === undefined ? undefined : v === 'true' ? 1 : 0);

/** updated_at always moves forward, even within one millisecond. */
export const nextUpdate = (previous: number) => Math.max(Date.now(), Number(previous) + 1);

// --- changes: the row, the list version and the history, in one transaction ---

export interface RuleChange {
  action: 'filter_create' | 'filter_update' | 'filter_delete';
  target: Omit<AuditTarget, 'domain'>;
  changes?: readonly string[];
}

/**
 * Records the history rows and bumps the list, in the caller's transaction. Rules are read by
 * admins only (target.domain null: no domain_admin is a reader).
 */
export async function recordRuleChanges(
  trx: DbExecutor,
  actor: AuditActor,
  list: RspamdListName,
  changes: RuleChange[],
  at = Date.now(),
): Promise<void> {
  if (!changes.length) return;
  await bumpList(trx, list, at);
  for (const c of changes) {
    await recordAudit(trx, {
      action: c.action,
      actor,
      target: { ...c.target, domain: null },
      ...(c.changes ? { changes: c.changes } : {}),
      at,
    });
  }
}

/** The rows of a kind a bulk request may touch, and how to change them. */
export interface BulkOps<Row extends { id: string; enabled: number }> {
  list: RspamdListName;
  find(trx: DbExecutor, ids: string[]): Promise<Row[]>;
  remove(trx: DbExecutor, ids: string[]): Promise<void>;
  setEnabled(trx: DbExecutor, ids: string[], enabled: number, now: number): Promise<void>;
  target(row: Row): Omit<AuditTarget, 'domain'>;
}

/**
 * POST …/bulk/: one transaction; each id `ok` or `not_found`. A row already in the asked state is
 * `ok` without a write or a history row; every row changed gets its history row, and the list its
 * version bump (once).
 */
export async function runBulk<Row extends { id: string; enabled: number }>(
  db: Db,
  actor: AuditActor,
  body: RuleBulkRequest,
  ops: BulkOps<Row>,
): Promise<RuleBulkResponse> {
  const ids = [...new Set(body.ids)];
  const found = await db.transaction().execute(async (trx) => {
    const rows = await ops.find(trx, ids);
    const now = Date.now();
    if (body.action === 'delete') {
      await ops.remove(
        trx,
        rows.map((r) => r.id),
      );
      // The id names nothing any more (as for users and domains): null on the row of the deletion.
      const changes = rows.map((r) => ({ action: 'filter_delete' as const, target: { ...ops.target(r), id: null } }));
      await recordRuleChanges(trx, actor, ops.list, changes, now);
    } else {
      const enabled = body.action === 'enable' ? 1 : 0;
      const changed = rows.filter((r) => Number(r.enabled) !== enabled);
      await ops.setEnabled(
        trx,
        changed.map((r) => r.id),
        enabled,
        now,
      );
      const changes = changed.map((r) => ({
        action: 'filter_update' as const,
        target: ops.target(r),
        changes: ['enabled'],
      }));
      await recordRuleChanges(trx, actor, ops.list, changes, now);
    }
    return new Set(rows.map((r) => r.id));
  });
  return { results: ids.map((id) => ({ id, status: found.has(id) ? ('ok' as const) : ('not_found' as const) })) };
}
