import type { Db } from '../../db/database';
import { HttpError } from '../../lib/http-error';
import { createAttemptCounter } from './attempt-counter';

export function tooManyAttempts(retryAfter: number, detail: string): HttpError {
  return new HttpError(429, 'rate_limited', detail, undefined, { 'retry-after': String(retryAfter) });
}

/** Throws 429 (with Retry-After) when any of the counts is over its limit. */
export function throwIfLimited(waits: number[], detail: string): void {
  const retryAfter = Math.max(0, ...waits);
  if (retryAfter) throw tooManyAttempts(retryAfter, detail);
}

/** Password and code checks of a signed-in user (password change, MFA changes): per user. */
export type ReauthLimiter = (userId: string) => Promise<void>;

export function createReauthLimiter(db: Db, max: number, windowSeconds: number): ReauthLimiter {
  const count = createAttemptCounter(db, { name: 'reauth', max, windowSeconds });
  return async (userId) => {
    throwIfLimited([await count(userId)], 'Too many attempts. Try again later.');
  };
}
