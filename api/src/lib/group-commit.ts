/** What a flush reports for each item, in order. */
export type Outcome<R> = { ok: true; value: R } | { ok: false; error: unknown };

export interface GroupCommitLimits<T> {
  /** Items per flush at most. */
  maxItems: number;
  /** Total weight per flush at most (a single heavier item is still flushed, alone). */
  maxWeight: number;
  weight(item: T): number;
  /**
   * Items known to be on their way (requests still being read): a flush about to start waits until
   * they are queued, for at most `gatherMs`. Without it, a CPU-bound server whose flushes never wait
   * on I/O (SQLite) would flush one item at a time.
   */
  comingSoon?: () => number;
  gatherMs?: number;
  /**
   * Whether a flush's error may be one item's fault (the database refused a row's data): the items
   * are then tried again one by one, so the others still commit. Any other error (the database
   * down or busy) fails the whole batch at once: trying 32 times would only wait 32 times.
   */
  oneItemsFault?: (error: unknown) => boolean;
}

interface Pending<T, R> {
  item: T;
  resolve(value: R): void;
  reject(error: unknown): void;
}

/** Submits an item; settles with its own outcome once the flush that took it has committed. */
export interface GroupCommit<T, R> {
  (item: T): Promise<R>;
  /** `comingSoon` went down without a submit (an announced item will not come): a waiting flush looks again. */
  recheck(): void;
}

/**
 * Group commit: items submitted while a flush is running are written together by the next flush,
 * so concurrent writers share one transaction (one fsync) instead of queueing for one each. A lone
 * item is flushed at once unless `comingSoon` says others are close. Each promise settles with its
 * own outcome.
 */
export function groupCommit<T, R>(
  flush: (items: T[]) => Promise<Outcome<R>[]>,
  limits: GroupCommitLimits<T>,
): GroupCommit<T, R> {
  const queue: Pending<T, R>[] = [];
  let running = false;

  const take = () => {
    let n = 0;
    let weight = 0;
    while (n < queue.length && n < limits.maxItems) {
      const w = limits.weight(queue[n]!.item);
      if (n > 0 && weight + w > limits.maxWeight) break;
      weight += w;
      n++;
    }
    return queue.splice(0, n);
  };

  /** Set while a flush waits for announced items: the next submit wakes it. */
  let wake: (() => void) | null = null;
  // Waits on a timer and on submits, not in a loop: the process stays idle (and the requests still
  // being read get the event loop) until an item comes or the time is up.
  const gather = async () => {
    const until = performance.now() + (limits.gatherMs ?? 0);
    while (limits.comingSoon!() > 0 && queue.length < limits.maxItems) {
      const left = until - performance.now();
      if (left <= 0) return;
      await new Promise<void>((resume) => {
        const timer = setTimeout(resume, left);
        wake = () => {
          clearTimeout(timer);
          resume();
        };
      });
      wake = null;
    }
  };

  /**
   * A flush the database refused rolled its transaction back: each item is tried again on its own,
   * so one item the database refuses does not fail the others that shared its flush. (Were the
   * commit in fact done, its answer lost, the items' own idempotency would make the retry a no-op.)
   */
  const flushOrEachAlone = async (items: T[]): Promise<Outcome<R>[]> => {
    try {
      return await flush(items);
    } catch (error) {
      if (items.length === 1 || !limits.oneItemsFault?.(error)) return items.map(() => ({ ok: false, error }));
    }
    const outcomes: Outcome<R>[] = [];
    for (const item of items) {
      try {
        outcomes.push((await flush([item]))[0] ?? { ok: false, error: new Error('group commit: no outcome') });
      } catch (error) {
        outcomes.push({ ok: false, error });
      }
    }
    return outcomes;
  };

  const drain = async () => {
    running = true;
    try {
      while (queue.length) {
        if (limits.comingSoon?.()) await gather(); // else flush now: a lone item waits for nobody
        const batch = take();
        const outcomes = await flushOrEachAlone(batch.map((p) => p.item));
        batch.forEach((p, i) => {
          const outcome = outcomes[i] ?? { ok: false, error: new Error('group commit: no outcome for an item') };
          if (outcome.ok) p.resolve(outcome.value);
          else p.reject(outcome.error);
        });
      }
    } finally {
      running = false;
    }
  };

  const submit = (item: T) =>
    new Promise<R>((resolve, reject) => {
      queue.push({ item, resolve, reject });
      wake?.();
      if (!running) void drain();
    });
  return Object.assign(submit, { recheck: () => wake?.() });
}
