import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import { deriveKey } from './keys';

const VERSION = 'v1';

/**
 * Small values kept encrypted at rest (AES-256-GCM, key derived from QC_SECRET_KEY per purpose). The
 * associated data binds a ciphertext to its row (e.g. the user id): copied onto another row it no
 * longer opens. Format: `v1.<base64url(iv | tag | ciphertext)>`.
 */
export interface SecretBox {
  seal(plaintext: string, aad: string): string;
  /** null when it does not open (other key, other row, tampered, or not ours). */
  open(sealed: string, aad: string): string | null;
}

export function createSecretBox(secret: string, purpose: string): SecretBox {
  const key = deriveKey(secret, `box:${purpose}`);
  return {
    seal(plaintext, aad) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(aad, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
      return `${VERSION}.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed, aad) {
      const [version, payload, ...rest] = sealed.split('.');
      if (version !== VERSION || !payload || rest.length) return null;
      try {
        const raw = Buffer.from(payload, 'base64url');
        if (raw.length < 28) return null;
        const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
        decipher.setAAD(Buffer.from(aad, 'utf8'));
        decipher.setAuthTag(raw.subarray(12, 28));
        return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
      } catch {
        return null;
      }
    },
  };
}

/** Keyed hash (HMAC-SHA256, key derived from QC_SECRET_KEY per purpose) of a high-entropy value. */
export function createKeyedHash(secret: string, purpose: string): (value: string) => string {
  const key = deriveKey(secret, `hmac:${purpose}`);
  return (value) => createHmac('sha256', key).update(value, 'utf8').digest('hex');
}
