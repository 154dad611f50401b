import { z } from 'zod';
import { emptyAsUndefined, queryNumber } from './common';
import { DateFilter } from './quarantine';

/**
 * Risk level of a quarantined e-mail from its Rspamd score (spec §9). The bands, by score s:
 * low s < 5; medium 5 ≤ s < 10; high 10 ≤ s < 15; critical s ≥ 15. A mail without a score (Rspamd
 * gave none) has no risk level and is counted in no band.
 */
export const RISK_LEVELS = ['low', 'medium', 'high', 'critical'] as const;
export const RiskLevel = z.enum(RISK_LEVELS);
export type RiskLevel = z.infer<typeof RiskLevel>;

/** Inclusive lower bound of each band above low (the api counts with these very numbers). */
export const RISK_THRESHOLDS = { medium: 5, high: 10, critical: 15 } as const;

export function riskLevel(score: number | null | undefined): RiskLevel | null {
  if (score === null || score === undefined || !Number.isFinite(score)) return null;
  if (score >= RISK_THRESHOLDS.critical) return 'critical';
  if (score >= RISK_THRESHOLDS.high) return 'high';
  if (score >= RISK_THRESHOLDS.medium) return 'medium';
  return 'low';
}

/** Chart periods (spec §9): `?days=` accepts only these. */
export const STATISTICS_PERIODS = [2, 7, 30, 90, 180, 365] as const;
export type StatisticsPeriod = (typeof STATISTICS_PERIODS)[number];
/** Without `days` or dates: the last 7 days. */
export const STATISTICS_DEFAULT_DAYS = 7;
/** Longest custom range (`date_from`..`date_to`), in days. */
export const STATISTICS_MAX_DAYS = 366;

/**
 * GET /api/statistics/: `days` (the last N UTC days, today included) or `date_from`/`date_to`
 * (inclusive UTC days; an ISO date-time counts for the UTC day it falls in; a missing `date_to` is
 * today, a missing `date_from` is STATISTICS_DEFAULT_DAYS - 1 days before `date_to`). Not both.
 */
export const StatisticsQuery = z.object({
  days: z.preprocess(
    emptyAsUndefined,
    queryNumber(true)
      .refine((v) => (STATISTICS_PERIODS as readonly number[]).includes(v), {
        message: `One of ${STATISTICS_PERIODS.join(', ')}`,
      })
      .optional(),
  ),
  date_from: DateFilter,
  date_to: DateFilter,
});
export type StatisticsQuery = z.infer<typeof StatisticsQuery>;

const count = z.number().int().nonnegative();

/**
 * One UTC day (YYYY-MM-DD). Counts are recipient rows (a mail to 3 of the caller's recipients
 * counts 3): quarantined = received that day; released / deleted = released or deleted that day.
 */
export const StatisticsDay = z.object({ date: z.string(), quarantined: count, released: count, deleted: count });
export type StatisticsDay = z.infer<typeof StatisticsDay>;

export const RiskCounts = z.object({ low: count, medium: count, high: count, critical: count });
export type RiskCounts = z.infer<typeof RiskCounts>;

/**
 * 200 of GET /api/statistics/, scoped like the dashboard (admin: all; domain_admin: their domain;
 * user: their own address). `days` has one entry per day of `range`, oldest first, zeros included;
 * `risk`: recipient rows quarantined in the range, by risk level of their mail.
 */
export const Statistics = z.object({
  range: z.object({ from: z.string(), to: z.string() }),
  days: z.array(StatisticsDay),
  totals: z.object({ quarantined: count, released: count, deleted: count }),
  risk: RiskCounts,
});
export type Statistics = z.infer<typeof Statistics>;

/** How many items each top list of GET /api/statistics/tops/ has at most. */
export const STATISTICS_TOP_LIMIT = 10;

/** One item of a top list: a sender (lower-cased; '' for the null sender), a recipient or a symbol. */
export const TopItem = z.object({ key: z.string(), count });
export type TopItem = z.infer<typeof TopItem>;

export const DomainStatistics = z.object({ domain: z.string(), quarantined: count, released: count, deleted: count });
export type DomainStatistics = z.infer<typeof DomainStatistics>;

/**
 * GET /api/statistics/tops/ (same query and scope as GET /api/statistics/): the senders, recipients
 * and Rspamd symbols (those that added to the score) of the most quarantined recipient rows received
 * in the range; `domains` (admins only, else null): each recipient domain's counts, busiest first.
 */
export const StatisticsTops = z.object({
  range: z.object({ from: z.string(), to: z.string() }),
  senders: z.array(TopItem),
  recipients: z.array(TopItem),
  symbols: z.array(TopItem),
  domains: z.array(DomainStatistics).nullable(),
});
export type StatisticsTops = z.infer<typeof StatisticsTops>;
