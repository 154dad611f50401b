import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { deriveKey } from '../../lib/keys';

/** The cookie in which a browser that signed in to an account keeps its proof (login route only). */
export const DEVICE_COOKIE = 'qc_device';
/** How long a proof counts: a browser not used to sign in for this long is a stranger again. */
export const DEVICE_PROOF_MAX_AGE_S = 90 * 24 * 3600;

/**
 * "This browser once gave this account's password" (OWASP's device cookie): a time, a random
 * device id and an HMAC of the account, that time and that id, under a key of its own. It lets its
 * holder sign in on a budget of its own (per device id) that an attacker guessing that account's
 * password cannot use up.
 */
export function createDeviceProofs(secret: string) {
  const key = deriveKey(secret, 'login-device');
  const mac = (account: string, issuedAt: number, device: string) =>
    createHmac('sha256', key).update(`${account}\n${issuedAt}\n${device}`).digest('base64url');
  return {
    /** A proof for this account; `device` keeps a browser's id when it signs in again. */
    issue(account: string, device = randomBytes(12).toString('base64url'), now = Date.now()): string {
      return `${now}.${device}.${mac(account, now, device)}`;
    },
    /** The proof's device id when it is this account's and still valid, else null. */
    deviceOf(account: string, proof: string | undefined, now = Date.now()): string | null {
      const [at, device, given, extra] = (proof ?? '').split('.');
      const issuedAt = Number(at);
      if (extra !== undefined || !device || !given || !Number.isSafeInteger(issuedAt)) return null;
      if (issuedAt > now || now - issuedAt > DEVICE_PROOF_MAX_AGE_S * 1000) return null;
      const expected = Buffer.from(mac(account, issuedAt, device));
      const actual = Buffer.from(given);
      return actual.length === expected.length && timingSafeEqual(actual, expected) ? device : null;
    },
  };
}

/** One cookie's value from a Cookie header (undefined when absent). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}
