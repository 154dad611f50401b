import { createHmac } from 'node:crypto';

/**
 * RFC 6238 TOTP as an authenticator app computes it (HMAC-SHA1, 30-second steps, 6 digits) from
 * the base32 secret the console shows: the specs play the user's phone. No dependency on the api's
 * own TOTP library, so a disagreement between the two is a failure, not a tautology.
 */
export const TOTP_PERIOD_S = 30;
const DIGITS = 6;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (any case; spaces and padding ignored, as apps accept a typed key). */
export function base32Decode(input: string): Buffer {
  const clean = input.toUpperCase().replace(/[\s=]/g, '');
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const ch of clean) {
    const v = BASE32.indexOf(ch);
    if (v < 0) throw new Error(`not a base32 character: ${JSON.stringify(ch)}`);
    value = (value << 5) | v;
    bits += 5;
    if (bits >= 8) {
      bits -= 8;
      bytes.push((value >>> bits) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

/** The time step of a moment (default: now). */
export function totpStep(ms = Date.now()): number {
  return Math.floor(ms / 1000 / TOTP_PERIOD_S);
}

/** The code of a time step (default: the current one). */
export function totp(secret: string, step = totpStep()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const bin = mac.readUInt32BE(offset) & 0x7fffffff;
  return String(bin % 10 ** DIGITS).padStart(DIGITS, '0');
}

/** A 6-digit code that matches none of the steps the server may accept now (±1 step). */
export function wrongTotp(secret: string): string {
  const now = totpStep();
  const accepted = new Set([now - 1, now, now + 1, now + 2].map((s) => totp(secret, s)));
  return ['000000', '111111', '222222', '333333', '444444'].find((c) => !accepted.has(c))!;
}

/**
 * Waits until the current step is later than `step`. The api accepts a step once (replay
 * protection): right after a code was used, the next sign-in needs the next step's code.
 */
export async function waitForStepAfter(step: number): Promise<void> {
  const wait = (step + 1) * TOTP_PERIOD_S * 1000 - Date.now();
  if (wait > 0) await new Promise((r) => setTimeout(r, wait + 50));
}
