import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from 'node:crypto';
import type { TokenPair } from '@qc/contracts';
import { deriveKey } from '../../lib/keys';

/** Opaque, 256 random bits. Only its SHA-256 is stored. */
export function generateRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/**
 * The grace answer (DESIGN §4) must return the pair issued at rotation, so it is kept — encrypted
 * (AES-256-GCM) under a key derived from the OLD refresh token plus the server secret. The database
 * holds only the token's hash, so a database dump alone cannot open it, and only a caller presenting
 * that old token can. The session id is bound as associated data.
 */
function graceKey(secret: string, oldRefresh: string): Buffer {
  const salt = deriveKey(secret, 'grace-salt');
  return Buffer.from(hkdfSync('sha256', Buffer.from(oldRefresh, 'utf8'), salt, 'qc:grace-pair', 32));
}

export function sealGracePair(secret: string, oldRefresh: string, sessionId: string, pair: TokenPair): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', graceKey(secret, oldRefresh), iv);
  cipher.setAAD(Buffer.from(sessionId, 'utf8'));
  const body = Buffer.concat([cipher.update(JSON.stringify(pair), 'utf8'), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url');
}

export function openGracePair(secret: string, oldRefresh: string, sessionId: string, sealed: string): TokenPair | null {
  try {
    const raw = Buffer.from(sealed, 'base64url');
    const decipher = createDecipheriv('aes-256-gcm', graceKey(secret, oldRefresh), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(sessionId, 'utf8'));
    decipher.setAuthTag(raw.subarray(12, 28));
    const text = Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    const pair = JSON.parse(text) as TokenPair;
    return typeof pair.access === 'string' && typeof pair.refresh === 'string' ? pair : null;
  } catch {
    return null;
  }
}
