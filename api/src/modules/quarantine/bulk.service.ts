import type { BulkItemResult, BulkRequest, BulkResponse } from '@qc/contracts';
import type { AppContext } from '../../app-context';
import { HttpError } from '../../lib/http-error';
import type { RelayTimeouts } from '../../lib/smtp-relay';
import { deleteMessage, type Actor } from './quarantine.service';
import { answerWithin, inFlightReleases, type ReleaseLogger } from './release-inflight';
import { releaseToOutcome, type RelayBreaker } from './release.service';

type Deps = Pick<AppContext, 'db' | 'config'>;

/** Ids acted on at once: releases wait on the relay, so a few run side by side (each claims its rows). */
export const BULK_CONCURRENCY = 4;

/**
 * Runs `fn` over `items` with at most `limit` running at once, into `results` (in the items' order;
 * read early, it holds the ones settled so far).
 */
async function mapLimited<T, R>(
  items: T[],
  limit: number,
  fn: (item: T) => Promise<R>,
  results = new Array<R>(items.length),
): Promise<R[]> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

/** The releases a bulk request asks for (its release budget): one per distinct id, none for a delete. */
export function bulkReleaseCount(request: BulkRequest): number {
  return request.action === 'release' ? new Set(request.ids).size : 0;
}

/**
 * The same action on many e-mails, each through the single-item service (same scoping, claim,
 * history row and error codes): an id that fails is reported with the code the single route would
 * have answered, the others go on. A repeated id is acted on once. Once no connection to the relay
 * could be made, the releases still to start fail as relay_unreachable at once (their rows become
 * release_failed, as after a real attempt) instead of each waiting out the connection timeout.
 * A release answers within QC_RELEASE_ANSWER_MS for the whole request: the ids not settled by then
 * are `releasing`, and the action goes on (as many at once as before) to record each outcome.
 */
export async function bulkAction(
  deps: Deps,
  actor: Actor,
  request: BulkRequest,
  log: ReleaseLogger,
  options: { timeouts?: RelayTimeouts } = {},
): Promise<BulkResponse> {
  const ids = [...new Set(request.ids)];
  const breaker: RelayBreaker = { down: false };
  const settled: BulkItemResult[] = new Array(ids.length);
  const work = mapLimited(
    ids,
    BULK_CONCURRENCY,
    async (id): Promise<BulkItemResult> => {
      try {
        if (request.action === 'delete') {
          await deleteMessage(deps, actor, id);
          return { id, status: 'deleted' };
        }
        const released = await releaseToOutcome(deps, actor, id, {
          confirmResend: false,
          timeouts: options.timeouts,
          breaker,
          log,
        });
        return { id, status: released.status };
      } catch (err) {
        if (err instanceof HttpError) return { id, status: 'failed', code: err.code };
        log.error({ err, id }, `bulk ${request.action} failed`);
        return { id, status: 'failed', code: 'internal_error' };
      }
    },
    settled,
  );
  if (request.action === 'delete') return { results: await work };
  const answer = await answerWithin(work, deps.config.releaseAnswerMs, inFlightReleases(deps.db), log, {
    bulk: ids.length,
  });
  return { results: Array.isArray(answer) ? answer : ids.map((id, i) => settled[i] ?? { id, status: 'releasing' }) };
}
