import { randomBytes } from 'node:crypto';
import { BACKUP_CODE_ALPHABET, BACKUP_CODE_COUNT, BACKUP_CODE_LENGTH } from '@qc/contracts';
import { generateSecret, generateURI, verify } from 'otplib';

export const TOTP_ISSUER = 'Quarantine Console';
/** 30-second steps (RFC 6238 default, what authenticator apps use). */
export const TOTP_PERIOD = 30;
/** 20 random bytes = 160 bits (RFC 4226's recommended length), as 32 base32 characters. */
const SECRET_BYTES = 20;

/** A new secret from the CSPRNG (otplib draws it from crypto.getRandomValues). */
export function newTotpSecret(): string {
  return generateSecret({ length: SECRET_BYTES });
}

export function otpauthUrl(secret: string, label: string): string {
  return generateURI({ issuer: TOTP_ISSUER, label, secret });
}

/**
 * The time step a code matches, within ±1 step of now (clock drift), and only strictly after
 * `afterStep` (the last accepted one: a code is accepted once); null otherwise.
 */
export async function matchTotp(secret: string, code: string, afterStep: number | null): Promise<number | null> {
  try {
    const result = await verify({
      secret,
      token: code,
      period: TOTP_PERIOD,
      epochTolerance: TOTP_PERIOD,
      ...(afterStep === null ? {} : { afterTimeStep: afterStep }),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null; // malformed code or secret: never a match
  }
}

/** Codes of BACKUP_CODE_LENGTH characters from a 32-character alphabet: 50 random bits each. */
export function newBackupCodes(count = BACKUP_CODE_COUNT): string[] {
  return Array.from({ length: count }, () => {
    let code = '';
    // 256 is a multiple of 32: `b & 31` is uniform.
    for (const b of randomBytes(BACKUP_CODE_LENGTH)) code += BACKUP_CODE_ALPHABET[b & 31];
    return code;
  });
}

/** What users type: any case, with spaces or dashes between groups. */
export function normalizeBackupCode(input: string): string {
  return input.toUpperCase().replace(/[\s-]/g, '');
}
