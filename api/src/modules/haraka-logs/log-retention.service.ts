import type { AppContext } from '../../app-context';
import { runExclusive, type Exclusive } from '../jobs/jobs.service';
import { DAY_MS, purgeLogCounts, purgeLogLinesBatch, utcDay } from './haraka-logs.repository';

type Deps = Pick<AppContext, 'db' | 'config'>;

export const LOG_RETENTION_JOB = 'haraka-log-retention';
const LOCK_TTL_MS = 10 * 60 * 1000;
/** The rollups (charts of up to 365 days) outlive the lines. */
export const LOG_ROLLUP_DAYS = 400;

export interface LogRetentionResult {
  /** Lines deleted (older than QC_LOG_RETENTION_DAYS). */
  lines: number;
  /** Rollup rows deleted (days older than LOG_ROLLUP_DAYS). */
  rollups: number;
}

/**
 * Deletes, under the database claim, the Haraka log lines logged more than QC_LOG_RETENTION_DAYS
 * before `now` (0 keeps them), in batches of 10 × QC_RETENTION_BATCH lines (a short transaction
 * each, so ingest waits little), then the rollups of days more than 400 days old.
 */
export async function runLogRetention(deps: Deps, now = Date.now()): Promise<Exclusive<LogRetentionResult>> {
  const batch = deps.config.retentionBatch * 10;
  return runExclusive(deps.db, LOG_RETENTION_JOB, LOCK_TTL_MS, async (lease) => {
    let lines = 0;
    if (deps.config.logRetentionDays > 0) {
      const cutoff = now - deps.config.logRetentionDays * DAY_MS;
      for (;;) {
        const n = await purgeLogLinesBatch(deps.db, cutoff, batch);
        lines += n;
        if (n < batch || !(await lease.renew())) break;
      }
    }
    const rollups = await purgeLogCounts(deps.db, utcDay(now) - LOG_ROLLUP_DAYS * DAY_MS);
    return { lines, rollups };
  });
}
