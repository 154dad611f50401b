import type { HistoryEntry, HistoryExportQuery } from '@qc/contracts';
import type { Db } from '../../db/database';
import type { AuthContext } from '../auth/auth.service';
import { listHistory } from './history.repository';
import { historyFilters, historyScopeFor, toEntries } from './history.service';

/** Rows per database page while streaming: memory stays one page whatever the export's size. */
export const EXPORT_PAGE_ROWS = 500;
/** The most rows one export writes (a spreadsheet's comfortable size; narrow the filters for more). */
export const EXPORT_MAX_ROWS = 100_000;

const HEADER = [
  'date',
  'user',
  'role',
  'action',
  'result',
  'code',
  'email_id',
  'subject',
  'target_kind',
  'target',
  'changes',
  'ip_address',
];

/**
 * One CSV cell (RFC 4180). A cell a spreadsheet would read as a formula (= + - @, or a tab or CR
 * first) gets a leading apostrophe: subjects and labels are written by strangers.
 */
export function csvCell(value: string | null): string {
  if (value === null) return '';
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

export function csvLine(cells: (string | null)[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

function entryCells(e: HistoryEntry): (string | null)[] {
  return [
    e.date,
    e.user.email,
    e.user.role,
    e.action,
    e.result,
    e.code,
    e.email_id,
    e.email ? (e.email.subject ?? '') : null,
    e.target?.kind ?? null,
    e.target?.label ?? null,
    e.changes ? e.changes.join(' ') : null,
    e.ip_address,
  ];
}

/** `history-YYYY-MM-DD.csv`, the day of the export (UTC). */
export function exportFilename(now = new Date()): string {
  return `history-${now.toISOString().slice(0, 10)}.csv`;
}

/**
 * The caller's history (same scope, filters and fields as GET /api/history/) as CSV lines: UTF-8
 * BOM (spreadsheets otherwise guess the encoding), header, then keyset page after page, newest first,
 * up to `maxRows`.
 */
export async function* historyCsv(
  db: Db,
  auth: AuthContext,
  query: HistoryExportQuery,
  maxRows = EXPORT_MAX_ROWS,
): AsyncGenerator<string> {
  yield `\uFEFF${csvLine(HEADER)}`;
  const scope = historyScopeFor(auth);
  const filters = historyFilters(query);
  let after: { createdAt: number; id: string } | null = null;
  let written = 0;
  while (written < maxRows) {
    const limit = Math.min(EXPORT_PAGE_ROWS, maxRows - written);
    const rows = await listHistory(db, scope, filters, after, limit);
    if (!rows.length) return;
    const entries = await toEntries(db, auth, rows);
    yield entries.map((e) => csvLine(entryCells(e))).join('');
    written += rows.length;
    if (rows.length < limit) return;
    const last = rows[rows.length - 1]!;
    after = { createdAt: last.created_at, id: last.id };
  }
}
