import type { ReleaseInProgress } from '@qc/contracts';
import type { Db } from '../../db/database';
import type { ErrorLogger } from '../../lib/error-handler';
import { HttpError } from '../../lib/http-error';

/**
 * The releases of one database still under way, some of them after their request was answered
 * (202 releasing). The app's close stops them from starting anything new (`signal`: a relay not yet
 * sent the data gives up, nothing sent) and waits for the rest, so that every outcome is recorded
 * before the database closes.
 */
export interface InFlightReleases {
  readonly signal: AbortSignal;
  track(work: Promise<unknown>): void;
  close(): Promise<void>;
}

// Keyed by the database: every service that releases (route, Not spam, bulk, digest links) reaches
// the same set through the deps it already has, and each test app has its own.
const registry = new WeakMap<Db, InFlightReleases>();

export function inFlightReleases(db: Db): InFlightReleases {
  let releases = registry.get(db);
  if (!releases) {
    const stop = new AbortController();
    const pending = new Set<Promise<unknown>>();
    releases = {
      signal: stop.signal,
      track(work) {
        const settled = work.then(
          () => undefined,
          () => undefined,
        );
        pending.add(settled);
        void settled.then(() => pending.delete(settled));
      },
      async close() {
        stop.abort();
        while (pending.size) await Promise.all(pending);
      },
    };
    registry.set(db, releases);
  }
  return releases;
}

/** Fastify's request logger as the release services use it (tests may give one without warn). */
export type ReleaseLogger = ErrorLogger & { warn?(obj: object, msg: string): void };

/** What a release request answers once its time is up and the relay has not: 202 (DESIGN §4 contract). */
export const IN_PROGRESS: ReleaseInProgress = { status: 'releasing' };

/**
 * `work`'s result if it settles within `ms`, else IN_PROGRESS while it goes on (tracked, so the
 * app's close waits for it). An error it ends with after that is no one's answer any more: an
 * expected one (the relay's refusal, already recorded) is a warning, anything else an error.
 */
export async function answerWithin<T>(
  work: Promise<T>,
  ms: number,
  releases: InFlightReleases,
  log: ReleaseLogger | undefined,
  what: object,
): Promise<T | ReleaseInProgress> {
  let answered = false;
  releases.track(
    work.catch((err: unknown) => {
      if (!answered) return;
      if (err instanceof HttpError) {
        log?.warn?.({ ...what, code: err.code }, 'a release went on after its answer: not delivered');
      } else {
        log?.error({ ...what, err }, 'a release went on after its answer and failed');
      }
    }),
  );
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<ReleaseInProgress>((resolve) => {
    timer = setTimeout(() => {
      answered = true;
      resolve(IN_PROGRESS);
    }, ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
