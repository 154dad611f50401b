import { normalizeIP } from '@fastify/rate-limit';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../config';
import type { Db } from '../../db/database';
import { normaliseAddress } from '../../lib/addresses';
import { createAttemptCounters } from './attempt-counter';
import { throwIfLimited } from './attempt-limiter';
import { cookieValue, createDeviceProofs, DEVICE_COOKIE, DEVICE_PROOF_MAX_AGE_S } from './device-proof';

/** The account a sign-in attempt is for: its e-mail in the stored form (U-label and A-label count as one). */
function accountOf(req: FastifyRequest): string {
  return normaliseAddress(String((req.body as { email?: unknown }).email ?? ''));
}

/** What one sign-in attempt was counted in: its browser's own budget (a valid proof), or the account's. */
export interface LoginBudget {
  device: string | null;
  count: ReturnType<typeof createAttemptCounters>;
  keys: string[];
}

/**
 * Sign-in limits per account (e-mail) and per client IP (request.ip honours X-Forwarded-For only
 * from QC_TRUSTED_PROXIES), counted in the database: every process and replica shares them.
 * Every attempt is counted before the password is checked, so parallel guesses cannot slip past
 * the check; failed attempts therefore always count.
 *
 * Anyone can spend an account's budget with wrong passwords, so it would lock its owner out. A
 * browser holding that account's device proof (it signed in before) spends a budget of its own,
 * kept per device, which only its holder can use up. A sign-in that succeeds gives its attempt back.
 */
export function createLoginLimiter(
  db: Db,
  limits: Config['loginRate'],
  secret: string,
  /** Called once per window, at the attempt that first goes over the account's budget (a lock-out). */
  onAccountLocked?: (account: string, req: FastifyRequest) => Promise<void>,
) {
  const { windowSeconds } = limits;
  const ip = { name: 'ip', max: limits.ipMax, windowSeconds };
  const stranger = createAttemptCounters(db, [ip, { name: 'account', max: limits.accountMax, windowSeconds }]);
  const knownDevice = createAttemptCounters(db, [ip, { name: 'device', max: limits.accountMax, windowSeconds }]);
  const proofs = createDeviceProofs(secret);

  const budgetOf = (req: FastifyRequest): LoginBudget => {
    const account = accountOf(req);
    const device = proofs.deviceOf(account, cookieValue(req.headers.cookie, DEVICE_COOKIE));
    return device
      ? { device, count: knownDevice, keys: [normalizeIP(req.ip), `${account} ${device}`] }
      : { device, count: stranger, keys: [normalizeIP(req.ip), account] };
  };

  return {
    /** Counts the attempt; the budget it was counted in, for `succeeded`. */
    async consume(req: FastifyRequest): Promise<LoginBudget> {
      const budget = budgetOf(req);
      const tallies = await budget.count.tally(budget.keys);
      // Each attempt gets its own count (one atomic statement), so exactly one sees the first one
      // over. A device's own budget running out locks out only that browser, not the account.
      if (!budget.device && tallies[1]!.count === limits.accountMax + 1) await onAccountLocked?.(accountOf(req), req);
      throwIfLimited(
        tallies.map((t) => t.wait),
        'Too many sign-in attempts. Try again later.',
      );
      return budget;
    },
    /** After the right password: the attempt is taken back, and this browser holds the account's proof. */
    async succeeded(budget: LoginBudget, req: FastifyRequest, reply: FastifyReply): Promise<void> {
      const { device, count, keys } = budget;
      await count.refund(keys);
      // Secure whatever the request's scheme (behind a TLS proxy it may read http); browsers keep a
      // Secure cookie on http://localhost too, and elsewhere on plain http they drop it: no budget
      // of its own, nothing worse.
      const proof = proofs.issue(accountOf(req), device ?? undefined);
      reply.header(
        'set-cookie',
        `${DEVICE_COOKIE}=${proof}; Path=/api/auth/login/; Max-Age=${DEVICE_PROOF_MAX_AGE_S}; HttpOnly; SameSite=Strict; Secure`,
      );
    },
  };
}
