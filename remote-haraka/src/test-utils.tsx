/** Helpers for this remote's component tests (not bundled: only *.test.tsx import it). */
import * as auth from '@qc/auth';
import { adminAccount, renderExposed, signInWith } from '@qc/ui/testing';
import ExposedLogs from './exposed/Logs';
import ExposedLogsPerDay from './exposed/LogsPerDay';
import ExposedStatisticsSummary from './exposed/StatisticsSummary';
import type { HarakaLogLine, HarakaLogPage } from './features/logs/logs.types';

export * from '@qc/ui/testing';

export const CONN = 'B7F0A1C2-1D2E-4F50-8A9B-0C1D2E3F4A5B';

/** A log line as GET /api/haraka/logs/ lists it (typed from @qc/contracts). */
export function logLine(overrides: Partial<HarakaLogLine> = {}): HarakaLogLine {
  return {
    id: 'mx1:1',
    ts: '2026-11-20T14:00:00.000Z',
    severity: 'INFO',
    message: 'connect ip=192.0.2.7 port=41000',
    hostname: 'mx1.example.com',
    uuid: CONN,
    origin: 'core',
    ...overrides,
  };
}

export function logPage(results: HarakaLogLine[], next_cursor: string | null = null): HarakaLogPage {
  return { results, next_cursor, window: { from: '2026-11-19T14:00:00.000Z', to: '2026-11-20T14:00:00.000Z' } };
}

/** Signs the test in as an admin (the only role these pages are for). */
export const signInAdmin = () => signInWith(auth, adminAccount());

/** The Logs page group as the host mounts it (`haraka/logs/*`). */
export const renderLogs = (path = '/haraka/logs') => renderExposed('haraka/logs', <ExposedLogs />, path);
export const renderSummary = (path = '/haraka/statistics/summary') =>
  renderExposed('haraka/statistics/summary', <ExposedStatisticsSummary />, path);
export const renderLogsPerDay = (path = '/haraka/statistics/logs-per-day') =>
  renderExposed('haraka/statistics/logs-per-day', <ExposedLogsPerDay />, path);
