import { hkdfSync } from 'node:crypto';

/**
 * One secret (QC_SECRET_KEY), independent sub-keys per purpose: a leak or misuse of one purpose's key
 * (say, a token signature) tells nothing about another.
 */
export function deriveKey(secret: string, purpose: string, length = 32): Uint8Array {
  return new Uint8Array(hkdfSync('sha256', Buffer.from(secret, 'utf8'), Buffer.alloc(0), `qc:${purpose}`, length));
}
