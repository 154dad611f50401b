import type { Config } from '../config';
import type { Db } from '../db/database';
import { countAttempts, pruneNowAndThen, secondsUntil } from '../modules/auth/attempt-counter';
import { tooManyAttempts } from '../modules/auth/attempt-limiter';

/** Every budget is per minute: the window opens at a user's first spend and lasts this long. */
export const BUDGET_WINDOW_SECONDS = 60;

/**
 * Spends `amount` (default 1) of a user's budget, or throws 429 `rate_limited` with Retry-After
 * (seconds until the window ends) and spends nothing: the caller must spend before acting, so a
 * refused call does nothing at all (no history row, no release).
 */
export type Budget = (userId: string, amount?: number, now?: number) => Promise<void>;

/**
 * A per-user budget of actions per minute, counted in the database (table rate_limits, as the
 * sign-in limits): every api process and replica spends the same one. One atomic statement adds the
 * amount, so concurrent calls cannot slip past it; a call that does not fit takes its amount back
 * (a refused bulk of 500 must not use up the window of whoever retries with fewer).
 */
export function createBudget(db: Db, name: string, max: number, detail: string): Budget {
  const windowMs = BUDGET_WINDOW_SECONDS * 1000;
  return async (userId, amount = 1, now = Date.now()) => {
    await pruneNowAndThen(db, now);
    const key = `budget-${name}:${userId}`;
    const [row] = await countAttempts(db, [{ key, windowMs, amount }], now);
    if (row!.count <= max) return;
    await db
      .updateTable('rate_limits')
      .set((eb) => ({ count: eb('count', '-', amount) }))
      .where('key', '=', key)
      .where('window_ends_at', '=', row!.window_ends_at)
      .execute();
    throw tooManyAttempts(secondsUntil(row!.window_ends_at, now), detail);
  };
}

export interface Budgets {
  /** GET /api/quarantine/{id}/raw/: each one writes a history row. */
  downloads: Budget;
  /** Lists with a typed search term (see isQuarantineSearch, isHistorySearch). */
  searches: Budget;
  /** Releases: one per message, a bulk release one per distinct id. */
  releases: Budget;
}

/** The three budgets of config.budgets; the same names everywhere, so every route spends the same ones. */
export function createBudgets(db: Db, limits: Config['budgets']): Budgets {
  return {
    downloads: createBudget(db, 'downloads', limits.downloads, 'Too many downloads. Try again later.'),
    searches: createBudget(db, 'searches', limits.searches, 'Too many searches. Try again later.'),
    releases: createBudget(db, 'releases', limits.releases, 'Too many releases. Try again later.'),
  };
}
