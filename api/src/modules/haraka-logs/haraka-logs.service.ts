import {
  dateFilterBound,
  EMAIL_ID,
  HARAKA_LEVELS,
  HARAKA_UUID,
  LOG_LIMITS,
  LOG_SEVERITIES,
  UUID_LOG_LINES,
  type HarakaLogLine,
  type HarakaLogPage,
  type HarakaLogQuery,
  type HarakaLogsPerDay,
  type HarakaSummary,
  type HarakaUuidLogs,
  type LogIngestLine,
  type LogIngestResponse,
  type LogSeverity,
} from '@qc/contracts';
import type { AppContext } from '../../app-context';
import { HttpError } from '../../lib/http-error';
import { monotonicIds } from '../../lib/ids';
import { withoutNul } from '../quarantine/message-parser';
import {
  connectionOf,
  DAY_MS,
  emailIdsByUuid,
  uuidOfEmail,
  existingMessageIds,
  insertLogLines,
  readCounts,
  readDayCounts,
  searchLogsQuery,
  utcDay,
  uuidLogsQuery,
  type LogRow,
} from './haraka-logs.repository';
import { loggedEmailIds, transactionOutcome } from './outcome';

type Deps = Pick<AppContext, 'db' | 'dialect'>;

const invalid = (errors: Record<string, string>) =>
  new HttpError(400, 'validation_error', 'The request is not valid.', errors);

/** Haraka's uuid, upper case (as Haraka makes them); null for none (`-`) or not a Haraka uuid. */
export function normalUuid(uuid: string | null | undefined): string | null {
  const v = uuid?.trim() ?? '';
  return HARAKA_UUID.test(v) ? v.toUpperCase() : null;
}

/**
 * A shipped line as stored, or null when refused (PROTOCOL, DATA). A level outside HARAKA_LEVELS is
 * kept as INFO with `[LEVEL] ` before the message. A uuid that is not Haraka's (`-`, outbound
 * names) is kept in the message's context only: stored as null.
 */
/** Lines of one millisecond keep the order they were shipped in (sorted by ts, then id). */
const nextLogId = monotonicIds();

export function toRow(line: LogIngestLine): LogRow | null {
  const level = line.level.trim().toUpperCase();
  const mapped = HARAKA_LEVELS[level];
  if (mapped === null) return null;
  const ts = Date.parse(line.ts);
  const hostname = withoutNul(line.hostname).trim().toLowerCase();
  const uuid = normalUuid(line.uuid);
  const message = withoutNul(line.message);
  return {
    id: nextLogId(ts),
    ts,
    severity: mapped ?? 'INFO',
    hostname,
    uuid,
    conn_uuid: uuid && connectionOf(uuid),
    origin: withoutNul(line.origin ?? '').trim() || null,
    message: mapped === undefined ? `[${withoutNul(level)}] ${message}` : message,
    // Length-prefixed: no hostname/id pair can spell another's key.
    line_key: `${hostname.length}:${hostname}:${line.id}`,
  };
}

/** POST /api/haraka/logs/ingest/: new lines stored, resent ones counted, PROTOCOL/DATA refused. */
export async function ingestLogs(deps: Deps, lines: LogIngestLine[]): Promise<LogIngestResponse> {
  const rows: LogRow[] = [];
  let refused = 0;
  for (const line of lines) {
    const row = toRow(line);
    if (row) rows.push(row);
    else refused++;
  }
  const accepted = await insertLogLines(deps.db, rows);
  return { accepted, duplicates: rows.length - accepted, refused };
}

const HOUR_MS = 3_600_000;

/**
 * The searched window (DESIGN §5: always bounded by time): none given → the last 24 h; `date_to`
 * alone → the 24 h before it; `date_from` alone → from it to now. Longer than LOG_LIMITS.searchDays:
 * 400 naming date_from.
 */
export function searchWindow(query: Pick<HarakaLogQuery, 'date_from' | 'date_to'>, now = Date.now()) {
  const givenTo = dateFilterBound(query.date_to, true);
  const givenFrom = dateFilterBound(query.date_from, false);
  const to = givenTo ?? (givenFrom !== undefined ? Math.max(now, givenFrom) : now);
  const from = givenFrom ?? to - 24 * HOUR_MS;
  if (from > to) throw invalid({ date_from: 'Must not be after date_to.' });
  if (to - from > LOG_LIMITS.searchDays * DAY_MS) {
    throw invalid({ date_from: `The window may span at most ${LOG_LIMITS.searchDays} days.` });
  }
  return { from, to };
}

function encodeCursor(ts: number, id: string): string {
  return Buffer.from(`${ts}.${id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { ts: number; id: string } {
  const [time, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  const ts = Number(time);
  if (!id || rest.length || !/^-?\d+$/.test(time ?? '') || !Number.isSafeInteger(ts) || !/^\w+$/.test(id)) {
    throw invalid({ cursor: 'Invalid cursor.' });
  }
  return { ts, id };
}

const toLine = (r: Omit<LogRow, 'conn_uuid' | 'line_key'>): HarakaLogLine => ({
  id: r.id,
  ts: new Date(Number(r.ts)).toISOString(),
  severity: r.severity,
  message: r.message,
  hostname: r.hostname,
  uuid: r.uuid,
  origin: r.origin,
});

export async function searchLogs(deps: Deps, query: HarakaLogQuery, now = Date.now()): Promise<HarakaLogPage> {
  const window = searchWindow(query, now);
  const rows = await searchLogsQuery(
    deps.db,
    deps.dialect,
    {
      ...window,
      severities: query.severity,
      hostname: query.hostname?.toLowerCase(),
      uuid: query.uuid?.toUpperCase(),
      q: query.q,
    },
    query.cursor ? decodeCursor(query.cursor) : null,
    query.page_size + 1,
  ).execute();
  const page = rows.slice(0, query.page_size);
  const last = page[page.length - 1];
  return {
    results: page.map(toLine),
    next_cursor: rows.length > query.page_size && last ? encodeCursor(Number(last.ts), last.id) : null,
    window: { from: new Date(window.from).toISOString(), to: new Date(window.to).toISOString() },
  };
}

/** GET /api/haraka/logs/{uuid}/: the lines, oldest first, and each transaction's outcome and e-mail. */
export async function uuidLogs(deps: Deps, given: string): Promise<HarakaUuidLogs> {
  // An e-mail's id stands for the uuid it was received under (spec §2: "one e-mail or uuid").
  const ofEmail = EMAIL_ID.test(given) ? await uuidOfEmail(deps.db, given) : given;
  if (!ofEmail) throw new HttpError(404, 'logs_not_found', 'No logs found for this email or UUID.');
  const uuid = ofEmail.toUpperCase();
  const rows = await uuidLogsQuery(deps.db, uuid, UUID_LOG_LINES + 1).execute();
  if (!rows.length) throw new HttpError(404, 'logs_not_found', 'No logs found for this email or UUID.');
  const lines = rows.slice(0, UUID_LOG_LINES);
  const byTransaction = new Map<string, typeof lines>();
  for (const line of lines) {
    if (!line.uuid?.includes('.')) continue;
    const list = byTransaction.get(line.uuid) ?? [];
    list.push(line);
    byTransaction.set(line.uuid, list);
  }
  const connectionLines = lines.filter((l) => l.uuid !== null && !l.uuid.includes('.'));
  const uuids = [...byTransaction.keys()];
  const stored = await emailIdsByUuid(deps.db, uuids);
  // The plugin logs the id it was given: found also when the message's uuid was not stored.
  const logged = new Map(uuids.map((u) => [u, loggedEmailIds(byTransaction.get(u)!).pop()]));
  const existing = await existingMessageIds(
    deps.db,
    [...logged.values()].filter((id): id is string => id !== undefined),
  );
  return {
    uuid,
    lines: lines.map(toLine),
    truncated: rows.length > UUID_LOG_LINES,
    transactions: uuids.map((u) => {
      const fromLog = logged.get(u);
      return {
        uuid: u,
        outcome: transactionOutcome(byTransaction.get(u)!, connectionLines),
        email_id: stored.get(u) ?? (fromLog && existing.has(fromLog) ? fromLog : null),
      };
    }),
  };
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const zeros = (): Record<LogSeverity, number> => ({ INFO: 0, NOTICE: 0, WARN: 0, ERROR: 0 });

/** The last `days` UTC days, today included. */
function period(days: number, now: number) {
  const toDay = utcDay(now);
  return { fromDay: toDay - (days - 1) * DAY_MS, toDay };
}

const TOP = 10;

/** GET /api/haraka/statistics/summary/: from the rollups only. */
export async function logSummary(deps: Deps, days: number, now = Date.now()): Promise<HarakaSummary> {
  const { fromDay, toDay } = period(days, now);
  const [perSeverity, hosts, origins, hours] = await Promise.all(
    (['day', 'host', 'origin', 'hour'] as const).map((dim) => readCounts(deps.db, dim, fromDay, toDay)),
  );
  const bySeverity = zeros();
  for (const r of perSeverity!) bySeverity[r.severity] += r.n;
  const hostTotals = new Map<string, number>();
  for (const r of hosts!) hostTotals.set(r.key, (hostTotals.get(r.key) ?? 0) + r.n);
  const originTotals = new Map<string, { errors: number; warnings: number }>();
  for (const r of origins!) {
    if (!r.key || (r.severity !== 'ERROR' && r.severity !== 'WARN')) continue;
    const entry = originTotals.get(r.key) ?? { errors: 0, warnings: 0 };
    if (r.severity === 'ERROR') entry.errors += r.n;
    else entry.warnings += r.n;
    originTotals.set(r.key, entry);
  }
  const perHour = Array.from({ length: 24 }, (_, hour) => ({ hour, total: 0 }));
  for (const r of hours!) perHour[Number(r.key)]!.total += r.n;
  const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
  return {
    days,
    range: { from: isoDay(fromDay), to: isoDay(toDay) },
    total: LOG_SEVERITIES.reduce((sum, s) => sum + bySeverity[s], 0),
    by_severity: bySeverity,
    top_hostnames: [...hostTotals]
      .sort(([a, x], [b, y]) => y - x || byName(a, b))
      .slice(0, TOP)
      .map(([hostname, total]) => ({ hostname, total })),
    top_error_origins: [...originTotals]
      .sort(([a, x], [b, y]) => y.errors - x.errors || y.warnings - x.warnings || byName(a, b))
      .slice(0, TOP)
      .map(([origin, c]) => ({ origin, ...c })),
    per_hour: perHour,
  };
}

/** GET /api/haraka/statistics/logs-per-day/: every day of the period, zeros included, oldest first. */
export async function logsPerDay(deps: Deps, days: number, now = Date.now()): Promise<HarakaLogsPerDay> {
  const { fromDay, toDay } = period(days, now);
  const rows = await readDayCounts(deps.db, fromDay, toDay);
  const byDay = new Map<number, Record<LogSeverity, number>>();
  for (const r of rows) {
    const entry = byDay.get(r.day) ?? zeros();
    entry[r.severity] += r.n;
    byDay.set(r.day, entry);
  }
  return {
    days: Array.from({ length: days }, (_, i) => {
      const day = fromDay + i * DAY_MS;
      const counts = byDay.get(day) ?? zeros();
      return { date: isoDay(day), ...counts, total: LOG_SEVERITIES.reduce((s, k) => s + counts[k], 0) };
    }),
  };
}
