import { DIGEST_LIMITS, type TestDigestResponse } from '@qc/contracts';
import type { AppContext } from '../../app-context';
import { HttpError } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import { sendForReceipt } from '../../lib/mailer';
import { runExclusive, type Exclusive, type Lease } from '../jobs/jobs.service';
import { composeDigest, type DigestComposeConfig } from './digest.compose';
import {
  claimDigest,
  digestCandidates,
  digestRowsForPeriod,
  findDigestUser,
  finishDigest,
  lastSentAt,
  pendingForDigest,
  previousCutoff,
  type DigestKey,
  type DigestKind,
  type DigestLanguage,
  type DigestRowState,
  type DigestScope,
  type DigestUser,
} from './digest.repository';
import { digestPeriods, type DigestPeriods } from './schedule';

export interface DigestLogger {
  warn(obj: object, msg: string): void;
}

export type DigestDeps = Pick<AppContext, 'db' | 'mailer'> & { config: DigestComposeConfig; log?: DigestLogger };

export interface DigestRunOptions {
  /** The clock (epoch ms): tests pass a fixed one; by default the real time. */
  now?: number;
  /**
   * `digest:run --now`: every enabled user gets their digest now, whatever their send time. Whose
   * current period is not done yet: that period (as a scheduled run would). Whose current period
   * is done: the next period's digest, sent early under the next period's key — the scheduled run
   * then finds it done, and a second `--now` in the same period finds it done too (no double send).
   */
  all?: boolean;
  /** Renewed as the run goes (runExclusive's); a lost lease stops taking new users. */
  lease?: Lease;
}

export interface DigestRunSummary {
  /** Digests that went out. */
  sent: number;
  /** Periods found with nothing held (recorded `empty`, nothing sent). */
  empty: number;
  /** Relay refusals (recorded `failed`; retried at the next run). */
  failed: number;
  /** Periods another runner had claimed (its claim is fresh). Periods already done are not counted. */
  skipped: number;
}

/** A `sending` claim older than this is a runner that died mid-send: another may take it over. */
export const DIGEST_CLAIM_STALE_MS = 15 * 60 * 1000;
/**
 * A digest lists only what arrived up to this long before its run, and that bound is the next
 * one's cutoff. received_at is stamped by the Haraka plugin before its ingest POST, and the row
 * commits later (a large message, a slow database: the plugin's hook is bounded at 30 s): listing
 * up to "now", or up to the newest listed, would pass over a message stamped earlier but committed
 * after the run, in this digest and in every later one.
 */
export const DIGEST_GRACE_MS = 2 * 60 * 1000;
/** Digests composed and sent at once by one runner. */
const CONCURRENCY = 4;

interface Task {
  user: DigestUser;
  kind: DigestKind;
  periodStart: number;
  /** Where the first digest of this kind starts (the period before `periodStart`). */
  fallbackSince: number;
}

const SMTP_REPLY = /^[2-5]\d\d[ -]/;

/** What is kept of a relay error: its SMTP reply, else only that the relay was not reached (no internals). */
export function relayErrorText(err: unknown): string {
  const e = (err ?? {}) as { response?: unknown; code?: unknown };
  if (typeof e.response === 'string' && SMTP_REPLY.test(e.response)) return e.response.slice(0, 500);
  return `relay unreachable${typeof e.code === 'string' ? ` (${e.code.slice(0, 40)})` : ''}`;
}

const scopeOf = (user: DigestUser, kind: DigestKind): DigestScope =>
  kind === 'domain' ? { kind: 'domain', domain: user.domain! } : { kind: 'user', addresses: user.addresses };

const isDone = (row: DigestRowState | undefined) => row?.status === 'sent' || row?.status === 'empty';

/** The (user, kind, period) each candidate is due for at `now`. */
async function dueTasks(deps: DigestDeps, now: number, all: boolean): Promise<Task[]> {
  const users = await digestCandidates(deps.db);
  const planned: { user: DigestUser; kinds: DigestKind[]; periods: DigestPeriods }[] = [];
  for (const user of users) {
    const periods = digestPeriods(user.prefs, now);
    if (!periods) continue;
    planned.push({ user, kinds: user.domainDigest ? ['user', 'domain'] : ['user'], periods });
  }
  // Rows of each period start in use, read in bulk (most users share the defaults' schedule).
  const starts = new Map<number, string[]>();
  const want = (start: number, id: string) => starts.set(start, [...(starts.get(start) ?? []), id]);
  for (const p of planned) {
    want(p.periods.current, p.user.id);
    if (all) want(p.periods.next, p.user.id);
  }
  const rows = new Map<string, DigestRowState>();
  for (const [start, ids] of starts) {
    for (const [k, row] of await digestRowsForPeriod(deps.db, start, ids)) rows.set(`${start} ${k}`, row);
  }
  const sentAt = await lastSentAt(
    deps.db,
    planned.map((p) => p.user.id),
  );
  const tasks: Task[] = [];
  for (const { user, kinds, periods } of planned) {
    for (const kind of kinds) {
      const row = (start: number) => rows.get(`${start} ${user.id} ${kind}`);
      // A digest sent since the period began (under another period's key: the send time or time
      // zone changed since) covers it.
      const sentSince = (sentAt.get(`${user.id} ${kind}`) ?? -Infinity) >= periods.current;
      if (!sentSince && !isDone(row(periods.current))) {
        tasks.push({ user, kind, periodStart: periods.current, fallbackSince: periods.previous });
      } else if (all && !isDone(row(periods.next))) {
        tasks.push({ user, kind, periodStart: periods.next, fallbackSince: periods.current });
      }
    }
  }
  return tasks;
}

type TaskResult = 'sent' | 'empty' | 'failed' | 'skipped';

async function runTask(deps: DigestDeps, task: Task, owner: string, clock: () => number): Promise<TaskResult> {
  const key: DigestKey = { userId: task.user.id, kind: task.kind, periodStart: task.periodStart };
  if (!(await claimDigest(deps.db, key, owner, clock(), DIGEST_CLAIM_STALE_MS))) return 'skipped';
  let itemCount = 0;
  try {
    const since = (await previousCutoff(deps.db, key)) ?? task.fallbackSince;
    const until = Math.max(since, clock() - DIGEST_GRACE_MS);
    const pending = await pendingForDigest(deps.db, scopeOf(task.user, task.kind), since, DIGEST_LIMITS.items, until);
    itemCount = pending.count;
    if (pending.count === 0) {
      await finishDigest(deps.db, key, owner, { status: 'empty', cutoff: until });
      return 'empty';
    }
    const mail = composeDigest(deps.config, {
      language: task.user.language,
      kind: task.kind,
      userId: task.user.id,
      address: task.user.email,
      addresses: task.user.addresses,
      domain: task.user.domain,
      timeZone: task.user.prefs.time_zone,
      pending,
      now: clock(),
    });
    try {
      await deps.mailer.send(mail);
    } catch (err) {
      deps.log?.warn({ err, userId: task.user.id, kind: task.kind }, 'digest refused by the relay');
      await finishDigest(deps.db, key, owner, { status: 'failed', itemCount, error: relayErrorText(err) });
      return 'failed';
    }
    await finishDigest(deps.db, key, owner, {
      status: 'sent',
      cutoff: until,
      itemCount,
      sentAt: clock(),
    });
    return 'sent';
  } catch (err) {
    // Not the relay (the database, a bug): the claim must not stay `sending` until it goes stale.
    deps.log?.warn({ err, userId: task.user.id, kind: task.kind }, 'digest failed');
    await finishDigest(deps.db, key, owner, { status: 'failed', itemCount, error: 'internal error' }).catch(
      () => undefined,
    );
    return 'failed';
  }
}

/**
 * One digest run (the jobs runner's tick, or `digest:run`): for every enabled user and kind whose
 * current period (their wall clock) is not done, claims (user, kind, period start) — the claim,
 * not the job lock, is what makes one send per period across runners and replicas — then lists
 * what is held for them since the previous digest's cutoff (first digest: the previous period) up
 * to DIGEST_GRACE_MS ago (the new cutoff), records `empty` without sending when nothing is, else
 * sends and records `sent` (or `failed` with the relay's refusal: retried at the next run). After downtime there is one digest, for the
 * current period: missed periods are not sent one by one.
 */
export async function runDigests(deps: DigestDeps, options: DigestRunOptions = {}): Promise<DigestRunSummary> {
  const clock = () => options.now ?? Date.now();
  const owner = newId();
  const tasks = await dueTasks(deps, clock(), options.all ?? false);
  const summary: DigestRunSummary = { sent: 0, empty: 0, failed: 0, skipped: 0 };
  let next = 0;
  let stopped = false;
  const worker = async () => {
    while (!stopped && next < tasks.length) {
      const task = tasks[next++]!;
      summary[await runTask(deps, task, owner, clock)]++;
      if (options.lease && next % 20 === 0 && !(await options.lease.renew())) stopped = true;
    }
  };
  await Promise.all(Array.from({ length: Math.min(CONCURRENCY, tasks.length) }, worker));
  return summary;
}

/**
 * "Send me a test digest": what is held for the user right now (all of it counted, the newest
 * listed), sent now with working links, whatever their settings; no digest_sends row (it is no
 * period's digest). With nothing held, a short "nothing held" digest still goes out, so the user
 * sees the format. A relay refusal is answered (sent false), not thrown.
 */
export async function sendTestDigest(
  deps: DigestDeps,
  userId: string,
  options: { now?: number; language?: DigestLanguage } = {},
): Promise<TestDigestResponse> {
  const user = await findDigestUser(deps.db, userId);
  if (!user) throw new HttpError(404, 'not_found', 'No such user.');
  const now = options.now ?? Date.now();
  const pending = await pendingForDigest(deps.db, scopeOf(user, 'user'), 0, DIGEST_LIMITS.items);
  const mail = composeDigest(deps.config, {
    language: options.language ?? user.language,
    kind: 'user',
    userId: user.id,
    address: user.email,
    addresses: user.addresses,
    domain: null,
    timeZone: user.prefs.time_zone,
    pending,
    now,
    test: true,
  });
  try {
    const receipt = await sendForReceipt(deps.mailer, mail);
    return { sent: true, count: pending.count, relay_response: receipt.response };
  } catch (err) {
    deps.log?.warn({ err, userId }, 'test digest refused by the relay');
    return { sent: false, count: pending.count, relay_response: relayErrorText(err) };
  }
}

export const DIGEST_JOB = 'digest';
/** The run's job lock (renewed as it goes): a replica that died mid-run is taken over after this. */
export const DIGEST_LOCK_TTL_MS = 10 * 60 * 1000;

/**
 * A run under the job lock (one replica at a time does the work; the others skip the tick). The
 * lock only saves work: the per-period claims keep one send per period even without it.
 */
export function runDigestJob(deps: DigestDeps, options: Omit<DigestRunOptions, 'lease'> = {}) {
  return runExclusive<DigestRunSummary>(deps.db, DIGEST_JOB, DIGEST_LOCK_TTL_MS, (lease) =>
    runDigests(deps, { ...options, lease }),
  ) satisfies Promise<Exclusive<DigestRunSummary>>;
}
