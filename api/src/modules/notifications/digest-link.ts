import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { DigestAction } from '@qc/contracts';
import { deriveKey } from '../../lib/keys';

/**
 * A digest link's token: `<payload>.<signature>`, both base64url. The payload names the link (`id`,
 * single use is kept by id in digest_link_uses), the recipient it was made for (`u`), the action
 * (`a`), the message (`m`, null for unsubscribe), whose digest it came from (`k`: the user's own or
 * their domain's) and its expiry (`e`, epoch seconds). HMAC-SHA-256 with a key of its own purpose.
 */
export interface DigestLinkClaims {
  id: string;
  userId: string;
  action: DigestAction;
  messageId: string | null;
  kind: 'user' | 'domain';
  expiresAt: number; // epoch ms
}

const b64 = (buf: Buffer) => buf.toString('base64url');
const sign = (secret: string, payload: string) =>
  createHmac('sha256', deriveKey(secret, 'digest-link')).update(payload).digest();

export function signDigestLink(secret: string, claims: Omit<DigestLinkClaims, 'id'> & { id?: string }): string {
  const body = {
    v: 1,
    id: claims.id ?? b64(randomBytes(16)),
    u: claims.userId,
    a: claims.action,
    m: claims.messageId,
    k: claims.kind,
    e: Math.floor(claims.expiresAt / 1000),
  };
  const payload = b64(Buffer.from(JSON.stringify(body), 'utf8'));
  return `${payload}.${b64(sign(secret, payload))}`;
}

/**
 * The claims of a token whose signature holds, else null (tampered, truncated, another key, not
 * ours). Expiry is the caller's to check against its clock: an expired link is told apart from a
 * forged one.
 */
export function verifyDigestLink(secret: string, token: string): DigestLinkClaims | null {
  if (typeof token !== 'string' || token.length > 1024) return null;
  const dot = token.indexOf('.');
  if (dot <= 0 || dot !== token.lastIndexOf('.')) return null;
  const payload = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1), 'base64url');
  const expected = sign(secret, payload);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  try {
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Record<string, unknown>;
    const action = DigestAction.safeParse(body.a);
    if (
      body.v !== 1 ||
      typeof body.id !== 'string' ||
      typeof body.u !== 'string' ||
      !action.success ||
      !(body.m === null || typeof body.m === 'string') ||
      (body.k !== 'user' && body.k !== 'domain') ||
      typeof body.e !== 'number'
    )
      return null;
    if ((action.data === 'unsubscribe') !== (body.m === null)) return null;
    return {
      id: body.id,
      userId: body.u,
      action: action.data,
      messageId: body.m,
      kind: body.k,
      expiresAt: body.e * 1000,
    };
  } catch {
    return null;
  }
}
