import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { createAttemptCounters } from './attempt-counter';
import { throwIfLimited } from './attempt-limiter';

/** The account a sign-in attempt is for: its e-mail as typed, trimmed and lower-cased. */
function accountOf(req: FastifyRequest): string {
  return String((req.body as { email?: unknown }).email ?? '')
    .trim()
    .toLowerCase();
}

/**
 * Sign-in limits per account (e-mail) and per client IP (request.ip honours X-Forwarded-For only
 * from QC_TRUSTED_PROXIES), counted in the database: every process and replica shares them.
 * Every attempt is counted before the password is checked, so parallel guesses cannot slip past
 * the check; failed attempts therefore always count.
 */
export function createLoginLimiter(db: Db, limits: Config['loginRate']) {
  const { windowSeconds } = limits;
  const count = createAttemptCounters(db, [
    { name: 'ip', max: limits.ipMax, windowSeconds },
    { name: 'account', max: limits.accountMax, windowSeconds },
  ]);

  return async function consumeLoginAttempt(req: FastifyRequest): Promise<void> {
    const waits = await count([normalizeIP(req.ip), accountOf(req)]);
    throwIfLimited(waits, 'Too many sign-in attempts. Try again later.');
  };
}
