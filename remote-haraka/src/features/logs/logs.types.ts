/**
 * Haraka log types from @qc/contracts (types only: the contract module loads zod, which the remote
 * does not bundle). The constants are mirrored here; logs.types.test.ts checks them.
 */
import type { LogSeverity, TransactionOutcome } from '@qc/contracts';

export type {
  HarakaLogLine,
  HarakaLogPage,
  HarakaLogsPerDay,
  HarakaSummary,
  HarakaUuidLogs,
  LogSeverity,
  TransactionOutcome,
} from '@qc/contracts';

export const LOG_SEVERITIES = ['INFO', 'NOTICE', 'WARN', 'ERROR'] as const satisfies readonly LogSeverity[];
export const TRANSACTION_OUTCOMES = [
  'queued',
  'quarantined',
  'rejected',
  'deferred',
  'discarded',
  'unknown',
] as const satisfies readonly TransactionOutcome[];

/** Haraka's uuid: a connection (8-4-4-4-12 hex) or its transaction `<uuid>.<n>` (HARAKA_UUID). */
export const HARAKA_UUID = /^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}(\.\d{1,6})?$/;
/** A quarantined e-mail's id (EMAIL_ID): `haraka/logs/{id}` shows the lines of its transaction. */
export const EMAIL_ID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

/** The longest window one search may cover (LOG_LIMITS.searchDays). */
export const SEARCH_DAYS = 31;

/** The chart periods of spec §9 (STATISTICS_PERIODS). */
export const STATS_PERIODS = [2, 7, 30, 90, 180, 365] as const;
export type StatsPeriod = (typeof STATS_PERIODS)[number];

/** Tag colours: antd presets, which the dark algorithm re-tones, so both themes stay readable. */
export const SEVERITY_COLORS: Record<LogSeverity, string> = {
  INFO: 'blue',
  NOTICE: 'cyan',
  WARN: 'gold',
  ERROR: 'red',
};
