import { z } from 'zod';
import { CursorParam, emptyAsUndefined, PageSizeParam, queryNumber } from './common';
import { DateFilter, optionalText, refuseReversedBounds } from './quarantine';
import { STATISTICS_PERIODS } from './statistics';

/**
 * Haraka's logs (DESIGN §4.1, issue 19), shipped by haraka-plugin-qconsole's `log` hook to
 * POST /api/haraka/logs/ingest/ (the ingest token) and read by admins only.
 */
export const LOG_SEVERITIES = ['INFO', 'NOTICE', 'WARN', 'ERROR'] as const;
export const LogSeverity = z.enum(LOG_SEVERITIES);
export type LogSeverity = z.infer<typeof LogSeverity>;

/**
 * Haraka's levels → the spec's four severities. PROTOCOL and DATA (the SMTP dialogue, message and
 * AUTH content) are never shipped nor accepted; DEBUG is kept as INFO. A level outside this table
 * is kept as INFO with the original level at the start of the message (`[LEVEL] …`).
 */
export const HARAKA_LEVELS: Record<string, LogSeverity | null> = {
  DATA: null,
  PROTOCOL: null,
  DEBUG: 'INFO',
  INFO: 'INFO',
  NOTICE: 'NOTICE',
  WARN: 'WARN',
  WARNING: 'WARN',
  ERROR: 'ERROR',
  CRIT: 'ERROR',
  ALERT: 'ERROR',
  EMERG: 'ERROR',
};

/** Haraka's uuid: a connection (8-4-4-4-12 hex, upper or lower case) or its transaction `<uuid>.<n>`. */
export const HARAKA_UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(\.\d{1,6})?$/;
export const HarakaUuid = z.string().regex(HARAKA_UUID, 'Not a Haraka uuid (8-4-4-4-12 hex, optionally .N).');
/** A quarantined e-mail's id (26 Crockford base-32 characters): `haraka/logs/{id}` shows its uuid's lines. */
export const EMAIL_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
/** What `haraka/logs/{…}` takes (spec §2: the logs of one e-mail or uuid). */
export const LogsSubject = z
  .string()
  .refine(
    (v) => HARAKA_UUID.test(v) || EMAIL_ID.test(v),
    'Neither a Haraka uuid (8-4-4-4-12 hex, optionally .N) nor an e-mail id.',
  );

export const LOG_LIMITS = {
  /** Lines per ingest batch (413 above). */
  batch: 5000,
  message: 8192,
  hostname: 255,
  origin: 128,
  /** Longest search window (days); without dates the search covers the last 24 h. */
  searchDays: 31,
};

/**
 * One line as shipped. `id`: unique per line for its hostname (the shipper's `<boot id>:<seq>`):
 * a line resent after an outage is stored once. `ts`: when Haraka logged it (ISO 8601).
 */
export const LogIngestLine = z.object({
  id: z.string().min(1).max(128),
  ts: z.iso.datetime({ offset: true }),
  level: z.string().min(1).max(16),
  hostname: z.string().min(1).max(LOG_LIMITS.hostname),
  uuid: z.string().max(64).nullish(),
  origin: z.string().max(LOG_LIMITS.origin).nullish(),
  message: z.string().max(LOG_LIMITS.message),
});
export type LogIngestLine = z.infer<typeof LogIngestLine>;

export const LogIngestRequest = z.object({ lines: z.array(LogIngestLine).max(LOG_LIMITS.batch) });
export type LogIngestRequest = z.infer<typeof LogIngestRequest>;
/** 202: `accepted` new lines stored, `duplicates` already had, `refused` PROTOCOL/DATA lines dropped. */
export const LogIngestResponse = z.object({
  accepted: z.number().int().nonnegative(),
  duplicates: z.number().int().nonnegative(),
  refused: z.number().int().nonnegative(),
});
export type LogIngestResponse = z.infer<typeof LogIngestResponse>;

export const HarakaLogLine = z.object({
  id: z.string(),
  ts: z.string(),
  severity: LogSeverity,
  message: z.string(),
  hostname: z.string(),
  /** Connection uuid, or `<connection>.<n>` for its transaction n; null for lines of no connection. */
  uuid: z.string().nullable(),
  /** The plugin or `core` that logged it. */
  origin: z.string().nullable(),
});
export type HarakaLogLine = z.infer<typeof HarakaLogLine>;

/**
 * GET /api/haraka/logs/: newest first, keyset pages, always within a time window: without dates the
 * last 24 h; `date_to` alone: the 24 h before it; `date_from` alone: from it to now; at most
 * LOG_LIMITS.searchDays. `severity`: one or several, comma-separated. `q`: a part of the message.
 */
export const HarakaLogQuery = z
  .object({
    q: optionalText(200),
    severity: z.preprocess(
      emptyAsUndefined,
      z
        .string()
        .transform((v) => v.split(',').map((s) => s.trim().toUpperCase()))
        .pipe(z.array(LogSeverity).min(1))
        .optional(),
    ),
    hostname: optionalText(LOG_LIMITS.hostname),
    uuid: z.preprocess(emptyAsUndefined, HarakaUuid.optional()),
    date_from: DateFilter,
    date_to: DateFilter,
    cursor: CursorParam,
    page_size: PageSizeParam,
  })
  .superRefine(refuseReversedBounds);
export type HarakaLogQuery = z.infer<typeof HarakaLogQuery>;

export const HarakaLogPage = z.object({
  results: z.array(HarakaLogLine),
  next_cursor: z.string().nullable(),
  /** The window searched (ISO 8601), so the page can say it. */
  window: z.object({ from: z.string(), to: z.string() }),
});
export type HarakaLogPage = z.infer<typeof HarakaLogPage>;

/** What the lines of a transaction say happened to it (from `[core] queue code=`, DENY*, the disconnect line). */
export const TRANSACTION_OUTCOMES = ['queued', 'quarantined', 'rejected', 'deferred', 'discarded', 'unknown'] as const;
export const TransactionOutcome = z.enum(TRANSACTION_OUTCOMES);
export type TransactionOutcome = z.infer<typeof TransactionOutcome>;

/**
 * GET /api/haraka/logs/{uuid}/: every line of that transaction, or of that connection and all its
 * transactions, oldest first; 404 `logs_not_found` when none; 400 for a malformed uuid.
 * `transactions`: per transaction uuid, its outcome and the quarantined e-mail it became (when the
 * caller may see it: admins only here), also when the uuid is a sender's retry matched to a copy
 * stored earlier.
 */
export const HarakaUuidLogs = z.object({
  uuid: z.string(),
  lines: z.array(HarakaLogLine),
  /** Lines beyond this many are left out (the oldest kept). */
  truncated: z.boolean(),
  transactions: z.array(z.object({ uuid: z.string(), outcome: TransactionOutcome, email_id: z.string().nullable() })),
});
export type HarakaUuidLogs = z.infer<typeof HarakaUuidLogs>;
export const UUID_LOG_LINES = 5000;

/** `?days`: one of the chart periods (spec §9); default 7. */
export const HarakaStatsQuery = z.object({
  days: z.preprocess(
    emptyAsUndefined,
    queryNumber(true)
      .refine((v) => (STATISTICS_PERIODS as readonly number[]).includes(v), {
        message: `One of ${STATISTICS_PERIODS.join(', ')}`,
      })
      .default(7),
  ),
});
export type HarakaStatsQuery = z.infer<typeof HarakaStatsQuery>;

const BySeverity = z.object({ INFO: z.number(), NOTICE: z.number(), WARN: z.number(), ERROR: z.number() });

/** GET /api/haraka/statistics/summary/: from the rollups kept at ingest (never a scan of the lines). */
export const HarakaSummary = z.object({
  days: z.number().int(),
  /** The UTC days covered (inclusive, ISO dates). */
  range: z.object({ from: z.string(), to: z.string() }),
  total: z.number().int(),
  by_severity: BySeverity,
  top_hostnames: z.array(z.object({ hostname: z.string(), total: z.number().int() })),
  /** Origins (plugins, core) with the most WARN + ERROR lines. */
  top_error_origins: z.array(z.object({ origin: z.string(), errors: z.number().int(), warnings: z.number().int() })),
  /** Lines per UTC hour of the day (0–23) over the period. */
  per_hour: z.array(z.object({ hour: z.number().int(), total: z.number().int() })),
});
export type HarakaSummary = z.infer<typeof HarakaSummary>;

/** GET /api/haraka/statistics/logs-per-day/: one entry per UTC day of the period, oldest first, zeros included. */
export const HarakaLogsPerDay = z.object({
  days: z.array(BySeverity.extend({ date: z.string(), total: z.number().int() })),
});
export type HarakaLogsPerDay = z.infer<typeof HarakaLogsPerDay>;
