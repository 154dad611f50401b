import { Cron } from 'croner';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/database';
import { newId } from '../../lib/ids';
import { createMailer, type Mailer } from '../../lib/mailer';
import { runLogRetention } from '../haraka-logs/log-retention.service';
import { runDigestJob } from '../notifications/digest.service';
import { runRetention } from '../retention/retention.service';
import { claimJob, releaseJob, renewJob } from './jobs.repository';

/** The claim of a running job: renew it between batches; false means another replica took it over. */
export interface Lease {
  renew(): Promise<boolean>;
}

export type Exclusive<T> = { ran: true; result: T } | { ran: false };

/**
 * Runs `fn` only if this process wins the job's database claim (job_locks, compare-and-set), so
 * with several api replicas one runs it at a time. A claim not renewed within `ttlMs` (the process
 * died) can be taken over. Returns `{ran: false}` when another holder has it.
 */
export async function runExclusive<T>(
  db: Db,
  name: string,
  ttlMs: number,
  fn: (lease: Lease) => Promise<T>,
): Promise<Exclusive<T>> {
  const owner = newId();
  if (!(await claimJob(db, name, owner, Date.now(), ttlMs))) return { ran: false };
  let outcome = '{"error":"failed"}';
  try {
    const result = await fn({ renew: () => renewJob(db, name, owner, Date.now(), ttlMs) });
    outcome = JSON.stringify(result);
    return { ran: true, result };
  } catch (err) {
    outcome = JSON.stringify({ error: (err as Error)?.message ?? String(err) });
    throw err;
  } finally {
    await releaseJob(db, name, owner, Date.now(), outcome);
  }
}

interface JobLogger {
  info(obj: object, msg: string): void;
  warn?(obj: object, msg: string): void;
  error(obj: object, msg: string): void;
}

export interface ScheduledJobs {
  /** Stops the schedule and waits for a run in progress. */
  stop(): Promise<void>;
}

/**
 * Starts the scheduled jobs of an api process on QC_RETENTION_SCHEDULE: the retention of mail and
 * sessions, then that of Haraka's log lines (QC_LOG_RETENTION_DAYS), each under its own claim; and
 * on QC_DIGEST_SCHEDULE the quarantine digests, when a relay is configured (QC_SMTP_URL: without
 * one the mailer only logs, and the periods would be recorded as sent).
 */
export function scheduleJobs(
  deps: Pick<AppContext, 'db' | 'config'> & { mailer?: Mailer },
  log: JobLogger,
): ScheduledJobs {
  let running: Promise<unknown> = Promise.resolve();
  let digesting: Promise<unknown> = Promise.resolve();
  const retention = new Cron(
    deps.config.retentionSchedule,
    {
      protect: true, // no overlapping runs in this process (the claim covers other replicas)
      unref: true,
      catch: (err) => log.error({ err }, 'retention job failed'),
    },
    async () => {
      // Each job on its own: a failure of one does not keep the other from running.
      const run = Promise.allSettled([
        runRetention(deps).then((r) => {
          if (r.ran) log.info({ job: 'retention', ...r.result }, 'retention run');
        }),
        runLogRetention(deps).then((r) => {
          if (r.ran) log.info({ job: 'haraka-log-retention', ...r.result }, 'log retention run');
        }),
      ]).then((results) => {
        const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
        if (failed) throw failed.reason;
      });
      running = run.catch(() => undefined);
      await run;
    },
  );
  // "off": this process sends no digests (another replica, or `digest:run` from cron, does).
  const mailer =
    deps.config.smtpUrl && deps.config.digestSchedule !== 'off'
      ? (deps.mailer ?? createMailer(deps.config, log))
      : null;
  const digestLog = { warn: (obj: object, msg: string) => (log.warn ?? log.error).call(log, obj, msg) };
  const digests = mailer
    ? new Cron(
        deps.config.digestSchedule,
        { protect: true, unref: true, catch: (err) => log.error({ err }, 'digest job failed') },
        async () => {
          const run = runDigestJob({ db: deps.db, config: deps.config, mailer, log: digestLog }).then((r) => {
            if (r.ran && (r.result.sent || r.result.failed)) log.info({ job: 'digest', ...r.result }, 'digest run');
          });
          digesting = run.catch(() => undefined);
          await run;
        },
      )
    : null;
  return {
    async stop() {
      retention.stop();
      digests?.stop();
      await Promise.all([running, digesting]);
    },
  };
}
