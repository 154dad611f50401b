import {
  STATISTICS_DEFAULT_DAYS,
  STATISTICS_MAX_DAYS,
  STATISTICS_TOP_LIMIT,
  type Statistics,
  type StatisticsQuery,
  type StatisticsTops,
} from '@qc/contracts';
import type { Db } from '../../db/database';
import { HttpError } from '../../lib/http-error';
import type { AuthContext } from '../auth/auth.service';
import type { DailyScope } from '../../db/schema';
import { addressesOfUser } from '../quarantine/quarantine-scope';
import { DAILY_FIELDS, DAY_MS, dailyForScope, utcDay, type DailyRow } from './statistics.repository';
import { domainBreakdown, topsForScope } from './tops.repository';

const invalid = (errors: Record<string, string>) =>
  new HttpError(400, 'validation_error', 'The request is not valid.', errors);

/** YYYY-MM-DD of a UTC midnight. */
const isoDay = (day: number) => new Date(day).toISOString().slice(0, 10);

/** A date (a UTC day) or an ISO date-time (the UTC day it falls in) → that day's UTC midnight. */
function dayOf(value: string): number {
  return utcDay(/^\d{4}-\d{2}-\d{2}$/.test(value) ? Date.parse(`${value}T00:00:00Z`) : Date.parse(value));
}

/** The inclusive range of UTC days a query asks for (see StatisticsQuery). */
export function statisticsRange(query: StatisticsQuery, now = Date.now()): { from: number; to: number } {
  const today = utcDay(now);
  if (query.days !== undefined) {
    if (query.date_from !== undefined || query.date_to !== undefined) {
      throw invalid({ days: 'Give either days or date_from/date_to, not both.' });
    }
    return { from: today - (query.days - 1) * DAY_MS, to: today };
  }
  const to = query.date_to !== undefined ? dayOf(query.date_to) : today;
  const from = query.date_from !== undefined ? dayOf(query.date_from) : to - (STATISTICS_DEFAULT_DAYS - 1) * DAY_MS;
  if (from > to) throw invalid({ date_from: 'Must not be after date_to.' });
  if ((to - from) / DAY_MS + 1 > STATISTICS_MAX_DAYS) {
    throw invalid({ date_from: `The range is limited to ${STATISTICS_MAX_DAYS} days.` });
  }
  return { from, to };
}

/**
 * The rollup scope of the caller: global (admin), their domain (domain_admin), their addresses
 * (user: each address is a scope of its own, summed); null: none.
 */
function rollupScope(auth: AuthContext): [DailyScope, string[]] | null {
  const { user } = auth;
  switch (user.role) {
    case 'admin':
      return ['global', ['*']];
    case 'domain_admin':
      return user.domain_name ? ['domain', [user.domain_name.toLowerCase()]] : null;
    default:
      return ['recipient', addressesOfUser(user)];
  }
}

/** Rollup rows of the caller's scope: a primary-key range per scope id, summed by day. */
async function rowsFor(db: Db, auth: AuthContext, from: number, to: number): Promise<DailyRow[]> {
  const scope = rollupScope(auth);
  if (!scope) return [];
  const [kind, ids] = scope;
  if (ids.length === 1) return dailyForScope(db, kind, ids[0]!, from, to);
  const byDay = new Map<number, DailyRow>();
  for (const id of ids) {
    for (const row of await dailyForScope(db, kind, id, from, to)) {
      const sum = byDay.get(row.day);
      if (!sum) byDay.set(row.day, { ...row });
      else for (const f of DAILY_FIELDS) sum[f] += row[f];
    }
  }
  return [...byDay.values()];
}

/** GET /api/statistics/tops/: the top lists of the caller's scope, and (admins) the per-domain counts. */
export async function statisticsTops(
  db: Db,
  auth: AuthContext,
  query: StatisticsQuery,
  now = Date.now(),
): Promise<StatisticsTops> {
  const { from, to } = statisticsRange(query, now);
  const scope = rollupScope(auth);
  const top = (kind: 'sender' | 'recipient' | 'symbol') =>
    scope ? topsForScope(db, scope[0], scope[1], kind, from, to, STATISTICS_TOP_LIMIT) : Promise.resolve([]);
  return {
    range: { from: isoDay(from), to: isoDay(to) },
    senders: await top('sender'),
    recipients: await top('recipient'),
    symbols: await top('symbol'),
    domains: auth.user.role === 'admin' ? await domainBreakdown(db, from, to, 50) : null,
  };
}

/** GET /api/statistics/: every day of the range (zeros included), totals and risk levels, scoped like the dashboard. */
export async function statisticsFor(
  db: Db,
  auth: AuthContext,
  query: StatisticsQuery,
  now = Date.now(),
): Promise<Statistics> {
  const { from, to } = statisticsRange(query, now);
  const byDay = new Map((await rowsFor(db, auth, from, to)).map((r) => [r.day, r]));
  const totals = { quarantined: 0, released: 0, deleted: 0 };
  const risk = { low: 0, medium: 0, high: 0, critical: 0 };
  const days: Statistics['days'] = [];
  for (let day = from; day <= to; day += DAY_MS) {
    const r = byDay.get(day);
    const entry = {
      date: isoDay(day),
      quarantined: r?.quarantined ?? 0,
      released: r?.released ?? 0,
      deleted: r?.deleted ?? 0,
    };
    days.push(entry);
    totals.quarantined += entry.quarantined;
    totals.released += entry.released;
    totals.deleted += entry.deleted;
    if (r) {
      risk.low += r.risk_low;
      risk.medium += r.risk_medium;
      risk.high += r.risk_high;
      risk.critical += r.risk_critical;
    }
  }
  return { range: { from: isoDay(from), to: isoDay(to) }, days, totals, risk };
}
