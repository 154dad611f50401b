import type { AppContext } from '../../app-context';
import { runExclusive, type Exclusive } from '../jobs/jobs.service';
import { DAY_MS } from '../statistics/statistics.repository';
import { UNSUBSCRIBE_TTL_MS } from '../notifications/digest.compose';
import { purgeDigestLinkUses, purgeRawBatch, purgeSessionsBatch } from './retention.repository';

type Deps = Pick<AppContext, 'db' | 'config'>;

export const RETENTION_JOB = 'retention';
/** A replica that dies mid-run leaves its claim; another may take it over after this long without renewal. */
export const RETENTION_LOCK_TTL_MS = 10 * 60 * 1000;

export interface RetentionResult {
  /** Messages whose raw bytes and bodies were removed in this run. */
  purged: number;
  /** Sessions deleted (revoked, or expired in a sign-in that has ended). */
  sessions: number;
  /** Digest link uses deleted (every link they name has expired). */
  digest_links: number;
}

/**
 * The retention job (DESIGN §5): under the database claim, purges in batches the raw mail of
 * messages received more than QC_RETENTION_DAYS days before `now` (0 disables that part; metadata
 * and history are kept), then sessions that can never be used again, and the single-use records of
 * digest links that have all expired.
 */
export async function runRetention(deps: Deps, now = Date.now()): Promise<Exclusive<RetentionResult>> {
  const { retentionDays, retentionBatch: batch } = deps.config;
  return runExclusive(deps.db, RETENTION_JOB, RETENTION_LOCK_TTL_MS, async (lease) => {
    let purged = 0;
    if (retentionDays > 0) {
      const cutoff = now - retentionDays * DAY_MS;
      for (;;) {
        const n = await purgeRawBatch(deps.db, cutoff, batch, Date.now());
        purged += n;
        if (n < batch || !(await lease.renew())) break;
      }
    }
    // An access token stays valid QC_ACCESS_TTL after its session's last use: keep rows that long.
    const before = now - deps.config.accessTtl * 1000;
    let sessions = 0;
    for (;;) {
      const n = await purgeSessionsBatch(deps.db, before, batch);
      sessions += n;
      if (n < batch || !(await lease.renew())) break;
    }
    const digestLinks = await purgeDigestLinkUses(deps.db, now - UNSUBSCRIBE_TTL_MS - DAY_MS);
    return { purged, sessions, digest_links: digestLinks };
  });
}
