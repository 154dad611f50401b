import { createHmac, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../../lib/keys';

/** The cookie in which a browser that signed in to an account keeps its proof (login route only). */
export const DEVICE_COOKIE = 'qc_device';
/** How long a proof counts: a browser not used to sign in for this long is a stranger again. */
export const DEVICE_PROOF_MAX_AGE_S = 90 * 24 * 3600;

/**
 * "This browser once gave this account's password" (OWASP's device cookie): a time and an HMAC of
 * the account and that time, under a key of its own. It lets its holder sign in on a budget an
 * attacker guessing that account's password cannot use up.
 */
export function createDeviceProofs(secret: string) {
  const key = deriveKey(secret, 'login-device');
  const mac = (account: string, issuedAt: number) =>
    createHmac('sha256', key).update(`${account}\n${issuedAt}`).digest('base64url');
  return {
    issue(account: string, now = Date.now()): string {
      return `${now}.${mac(account, now)}`;
    },
    holds(account: string, proof: string | undefined, now = Date.now()): boolean {
      const [at, given, extra] = (proof ?? '').split('.');
      const issuedAt = Number(at);
      if (extra !== undefined || !given || !Number.isSafeInteger(issuedAt)) return false;
      if (issuedAt > now || now - issuedAt > DEVICE_PROOF_MAX_AGE_S * 1000) return false;
      const expected = Buffer.from(mac(account, issuedAt));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected);
    },
  };
}

/** One cookie's value from a Cookie header ('' when absent). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}
