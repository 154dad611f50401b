import { Cron } from 'croner';
import type { DigestFrequency } from '@qc/contracts';

/** What a digest's schedule depends on: the user's effective settings. */
export interface DigestSchedule {
  frequency: DigestFrequency;
  /** "HH:MM" on the user's wall clock. */
  send_time: string;
  /** IANA time zone. */
  time_zone: string;
}

/** Epoch ms of the period that contains `now`, of the one before it and of the next one. */
export interface DigestPeriods {
  current: number;
  previous: number;
  next: number;
}

/**
 * The cron pattern of a schedule: daily at send_time, weekly on Mondays, monthly on the 1st; null
 * for `never` or a send_time that is not "HH:MM".
 */
export function schedulePattern(s: Pick<DigestSchedule, 'frequency' | 'send_time'>): string | null {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(s.send_time);
  if (!m) return null;
  const hm = `${Number(m[2])} ${Number(m[1])}`;
  switch (s.frequency) {
    case 'daily':
      return `${hm} * * *`;
    case 'weekly':
      return `${hm} * * 1`;
    case 'monthly':
      return `${hm} 1 * *`;
    default:
      return null;
  }
}

// Most users share a few schedules (the defaults): their Cron objects are reused. Bounded: cleared
// when it grows (a Cron costs a fraction of a millisecond to rebuild).
const crons = new Map<string, Cron>();
const CRON_CACHE_MAX = 500;

function cronFor(pattern: string, timezone: string): Cron {
  const key = `${pattern}|${timezone}`;
  let cron = crons.get(key);
  if (!cron) {
    if (crons.size >= CRON_CACHE_MAX) crons.clear();
    cron = new Cron(pattern, { timezone, paused: true });
    crons.set(key, cron);
  }
  return cron;
}

/**
 * The periods of a schedule at `now`, on the user's wall clock (croner handles DST: a send_time
 * that does not exist that day runs at the first minute after the gap, one that occurs twice runs
 * once, at its first occurrence). A run at exactly `now` starts the current period. Null for
 * `never`, an unknown time zone or a malformed send_time.
 */
export function digestPeriods(s: DigestSchedule, now: number): DigestPeriods | null {
  const pattern = schedulePattern(s);
  if (!pattern) return null;
  let current: Date | undefined, previous: Date | undefined, next: Date | null;
  try {
    const cron = cronFor(pattern, s.time_zone);
    // previousRuns counts only runs strictly before its reference.
    [current, previous] = cron.previousRuns(2, new Date(now + 1));
    next = cron.nextRun(new Date(now));
  } catch {
    return null; // a time zone this runtime does not know
  }
  if (!current || !previous || !next) return null;
  return { current: current.getTime(), previous: previous.getTime(), next: next.getTime() };
}

/** Start (epoch ms) of the period containing `now`; null for `never`. */
export function currentPeriodStart(s: DigestSchedule, now: number): number | null {
  return digestPeriods(s, now)?.current ?? null;
}
