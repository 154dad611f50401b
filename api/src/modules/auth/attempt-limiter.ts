import type { CreateRateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { HttpError } from '../../lib/http-error';

// Same store sizing as the sign-in limiter: spraying many keys must not evict a victim's counter.
const LRU_KEYS = 50_000;

/** Counts one attempt under `key`; resolves to the seconds to wait when over the limit, else 0. */
export type AttemptCounter = (request: FastifyRequest, key: string) => Promise<number>;

/**
 * A counter over @fastify/rate-limit's in-memory store whose key is chosen by the caller (a user id
 * taken from a verified token, say), not derived from the request. Every call counts.
 */
export function createAttemptCounter(app: FastifyInstance, max: number, windowSeconds: number): AttemptCounter {
  const keys = new WeakMap<FastifyRequest, string>();
  const options: CreateRateLimitOptions & { cache: number } = {
    max,
    timeWindow: windowSeconds * 1000,
    keyGenerator: (req) => keys.get(req) ?? '',
    cache: LRU_KEYS, // honoured by the store, missing from the type
  };
  const limit = app.createRateLimit(options);
  return async (request, key) => {
    keys.set(request, key);
    const result = await limit(request);
    return !result.isAllowed && result.isExceeded ? Math.max(result.ttlInSeconds, 1) : 0;
  };
}

export function tooManyAttempts(retryAfter: number, detail: string): HttpError {
  return new HttpError(429, 'rate_limited', detail, undefined, { 'retry-after': String(retryAfter) });
}

/** Throws 429 (with Retry-After) when any of the counts is over its limit. */
export function throwIfLimited(waits: number[], detail: string): void {
  const retryAfter = Math.max(0, ...waits);
  if (retryAfter) throw tooManyAttempts(retryAfter, detail);
}

/** Password and code checks of a signed-in user (password change, MFA changes): per user. */
export type ReauthLimiter = (request: FastifyRequest, userId: string) => Promise<void>;

export function createReauthLimiter(app: FastifyInstance, max: number, windowSeconds: number): ReauthLimiter {
  const count = createAttemptCounter(app, max, windowSeconds);
  return async (request, userId) => {
    throwIfLimited([await count(request, `reauth:${userId}`)], 'Too many attempts. Try again later.');
  };
}
