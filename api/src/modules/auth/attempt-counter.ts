import { sql } from 'kysely';
import type { Db } from '../../db/database';

/** Counts one attempt under `key` (at `now`, epoch ms); resolves to the seconds to wait when over the limit, else 0. */
export type AttemptCounter = (key: string, now?: number) => Promise<number>;

export interface AttemptLimit {
  /** The keys' namespace (row key `${name}:${key}`): unique per limiter, so two never share a row. */
  name: string;
  /** Attempts allowed per window; the next ones wait for its end. */
  max: number;
  windowSeconds: number;
}

/**
 * A fixed-window attempt counter in the database (table rate_limits), so every api process and
 * replica shares the counts. The window opens at a key's first attempt; every call counts, also
 * over the limit. One atomic statement per attempt: concurrent attempts cannot slip past it.
 */
export function createAttemptCounter(db: Db, limit: AttemptLimit): AttemptCounter {
  const count = createAttemptCounters(db, [limit]);
  return async (key, now) => (await count([key], now))[0]!;
}

/**
 * Several limits on one attempt (sign-in: per client address and per account), counted in one
 * statement: one write, one fsync. Resolves to the seconds to wait for each (0: within its limit).
 */
export function createAttemptCounters(db: Db, limits: AttemptLimit[]) {
  const rowKeys = (keys: string[]) => limits.map((l, i) => `${l.name}:${keys[i]}`);
  /** Counts the attempt; per limit, the attempts now in its window and the seconds to wait (0: within it). */
  const tally = async (keys: string[], now = Date.now()): Promise<{ count: number; wait: number }[]> => {
    await pruneNowAndThen(db, now);
    const attempts = rowKeys(keys).map((key, i) => ({ key, windowMs: limits[i]!.windowSeconds * 1000 }));
    const rows = new Map((await countAttempts(db, attempts, now)).map((r) => [r.key, r]));
    return limits.map((l, i) => {
      const { count, window_ends_at } = rows.get(attempts[i]!.key)!;
      return { count, wait: count <= l.max ? 0 : secondsUntil(window_ends_at, now) };
    });
  };
  const count = async (keys: string[], now = Date.now()): Promise<number[]> =>
    (await tally(keys, now)).map((t) => t.wait);
  /**
   * Takes back the attempt just counted under these keys, in their current window (a sign-in that
   * succeeded was no guess: counting it would lock out whoever signs in often).
   */
  const refund = async (keys: string[], now = Date.now()): Promise<void> => {
    await db
      .updateTable('rate_limits')
      .set((eb) => ({ count: eb('count', '-', 1) }))
      .where('key', 'in', rowKeys(keys))
      .where('count', '>', 0)
      .where('window_ends_at', '>', now)
      .execute();
  };
  return Object.assign(count, { refund, tally });
}

/** Adds one attempt to `key`'s window, or opens a new window when it has ended; the row after it. */
export async function countAttempt(db: Db, key: string, now: number, windowMs: number) {
  return (await countAttempts(db, [{ key, windowMs }], now))[0]!;
}

/**
 * countAttempt for several keys (distinct: a statement may not update a row twice) in one statement.
 * `amount` (default 1) counts several at once (a bulk release of n messages spends n of a budget).
 */
export async function countAttempts(
  db: Db,
  attempts: { key: string; windowMs: number; amount?: number }[],
  now: number,
) {
  const values = sql.join(attempts.map(({ key, windowMs, amount = 1 }) => sql`(${key}, ${amount}, ${now + windowMs})`));
  const { rows } = await sql<{ key: string; count: number; window_ends_at: number }>`
    insert into rate_limits (key, count, window_ends_at) values ${values}
    on conflict (key) do update set
      count = case when rate_limits.window_ends_at <= ${now} then excluded.count
        else rate_limits.count + excluded.count end,
      window_ends_at = case when rate_limits.window_ends_at <= ${now} then excluded.window_ends_at
        else rate_limits.window_ends_at end
    returning key, count, window_ends_at`.execute(db);
  return rows.map((r) => ({ key: r.key, count: Number(r.count), window_ends_at: Number(r.window_ends_at) }));
}

/** Whole seconds until `end`, at least 1 (a Retry-After of 0 would invite an immediate retry). */
export function secondsUntil(end: number, now: number): number {
  return Math.max(1, Math.ceil((end - now) / 1000));
}

/** Removes the rows whose window has ended (a new attempt on such a key starts again at 1 anyway). */
export async function pruneExpiredAttempts(db: Db, now: number): Promise<number> {
  const result = await db.deleteFrom('rate_limits').where('window_ends_at', '<=', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}

// Every new key adds a row (a spray of e-mail addresses or client addresses, say) and nothing else
// removes it: without the prune the table would grow forever. Once a minute per process and database
// is enough to keep it to about the keys of one window.
const PRUNE_EVERY_MS = 60_000;
const lastPruneAt = new WeakMap<Db, number>();

export async function pruneNowAndThen(db: Db, now: number): Promise<void> {
  const last = lastPruneAt.get(db);
  if (last !== undefined && now - last < PRUNE_EVERY_MS) return;
  lastPruneAt.set(db, now);
  await pruneExpiredAttempts(db, now);
}
