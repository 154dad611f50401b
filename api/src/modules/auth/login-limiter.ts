import { normalizeIP, type CreateRateLimitOptions } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import { HttpError } from '../../lib/http-error';

// The in-memory store is an LRU: it must be large enough that spraying many e-mails cannot evict
// a victim's counter (the library's default is 5000 keys).
const LRU_KEYS = 50_000;

/**
 * Sign-in limits per account (e-mail) and per client IP (request.ip honours X-Forwarded-For only
 * from QC_TRUSTED_PROXIES). Every attempt is counted before the password is checked, so parallel
 * guesses cannot slip past the check; failed attempts therefore always count.
 * The store is @fastify/rate-limit's in-memory one: with several replicas each keeps its own counts.
 */
export function createLoginLimiter(app: FastifyInstance, limits: Config['loginRate']) {
  const limiter = (max: number, keyGenerator: (req: FastifyRequest) => string) => {
    const options: CreateRateLimitOptions & { cache: number } = {
      max,
      timeWindow: limits.windowSeconds * 1000,
      keyGenerator,
      cache: LRU_KEYS, // honoured by the store, missing from the type
    };
    return app.createRateLimit(options);
  };
  const byIp = limiter(limits.ipMax, (req) => `ip:${normalizeIP(req.ip)}`);
  const byAccount = limiter(
    limits.accountMax,
    (req) =>
      `account:${String((req.body as { email?: unknown }).email ?? '')
        .trim()
        .toLowerCase()}`,
  );

  return async function consumeLoginAttempt(req: FastifyRequest): Promise<void> {
    const results = await Promise.all([byIp(req), byAccount(req)]);
    let retryAfter = 0;
    for (const r of results) if (!r.isAllowed && r.isExceeded) retryAfter = Math.max(retryAfter, r.ttlInSeconds, 1);
    if (retryAfter) {
      throw new HttpError(429, 'rate_limited', 'Too many sign-in attempts. Try again later.', undefined, {
        'retry-after': String(retryAfter),
      });
    }
  };
}
