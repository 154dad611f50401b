import type { Config } from '../config';
import type { Db } from '../db/database';
import { countAttempts, pruneNowAndThen, secondsUntil } from '../modules/auth/attempt-counter';
import { tooManyAttempts } from '../modules/auth/attempt-limiter';

/** A budget given as a bare number is per minute: the window opens at a user's first spend and lasts this long. */
export const BUDGET_WINDOW_SECONDS = 60;
export const BUDGET_DAY_SECONDS = 24 * 3600;

/** At most `max` spent per window of `seconds`, the window opening at the user's first spend in it. */
export interface BudgetWindow {
  max: number;
  seconds: number;
}

/**
 * Spends `amount` (default 1) of a user's budget, or throws 429 `rate_limited` with Retry-After
 * (seconds until the window ends) and spends nothing: the caller must spend before acting, so a
 * refused call does nothing at all (no history row, no release).
 */
export type Budget = (userId: string, amount?: number, now?: number) => Promise<void>;

/**
 * A per-user budget of actions per window (a number: per minute; else each window's limit holds,
 * e.g. per minute and per day), counted in the database (table rate_limits, as the sign-in
 * limits): every api process and replica spends the same one. One atomic statement adds the amount
 * to every window, so concurrent calls cannot slip past it; a call that does not fit in one of them
 * takes its amount back from all (a refused bulk of 500 must not use up the window of whoever
 * retries with fewer). Retry-After: until the latest of the full windows ends.
 */
export function createBudget(db: Db, name: string, limits: number | BudgetWindow[], detail: string): Budget {
  const windows = typeof limits === 'number' ? [{ max: limits, seconds: BUDGET_WINDOW_SECONDS }] : limits;
  return async (userId, amount = 1, now = Date.now()) => {
    await pruneNowAndThen(db, now);
    const attempts = windows.map((w) => ({
      key: `budget-${name}-${w.seconds}s:${userId}`,
      windowMs: w.seconds * 1000,
      amount,
    }));
    const rows = new Map((await countAttempts(db, attempts, now)).map((r) => [r.key, r]));
    const counted = attempts.map((a) => rows.get(a.key)!);
    const full = counted.filter((row, i) => row.count > windows[i]!.max);
    if (!full.length) return;
    await db
      .updateTable('rate_limits')
      .set((eb) => ({ count: eb('count', '-', amount) }))
      .where((eb) =>
        eb.or(counted.map((row) => eb.and([eb('key', '=', row.key), eb('window_ends_at', '=', row.window_ends_at)]))),
      )
      .execute();
    throw tooManyAttempts(Math.max(...full.map((row) => secondsUntil(row.window_ends_at, now))), detail);
  };
}

export interface Budgets {
  /** GET /api/quarantine/{id}/raw/: each one writes a history row. */
  downloads: Budget;
  /** Lists with a typed search term (see isQuarantineSearch, isHistorySearch). */
  searches: Budget;
  /** Releases: one per message, a bulk release one per distinct id. */
  releases: Budget;
  /** Learns sent to Rspamd's controller (a repeat answered `already` is not sent and spends nothing). */
  learn: Budget;
}

/** The budgets of config.budgets; the same names everywhere, so every route spends the same ones. */
export function createBudgets(db: Db, limits: Config['budgets']): Budgets {
  return {
    downloads: createBudget(db, 'downloads', limits.downloads, 'Too many downloads. Try again later.'),
    searches: createBudget(db, 'searches', limits.searches, 'Too many searches. Try again later.'),
    releases: createBudget(db, 'releases', limits.releases, 'Too many releases. Try again later.'),
    learn: createBudget(
      db,
      'learn',
      [
        { max: limits.learn.minute, seconds: BUDGET_WINDOW_SECONDS },
        { max: limits.learn.day, seconds: BUDGET_DAY_SECONDS },
      ],
      'Too many learns. Try again later.',
    ),
  };
}
