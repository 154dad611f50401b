import { hash, type Algorithm } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import type { Config } from '../../config';
import { deriveKey } from '../../lib/keys';
import { createKeyedHash } from '../../lib/secret-box';
import { newBackupCodes, normalizeBackupCode } from './totp';

const ARGON2ID = 2 as Algorithm; // an ambient const enum: not importable as a value under isolatedModules
const ENCODED = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$([A-Za-z0-9+/]+)\$[A-Za-z0-9+/]+$/;

/**
 * Backup codes are stored as argon2id (the project's QC_ARGON2_* cost), keyed with a sub-key of
 * QC_SECRET_KEY as argon2's secret: a copy of the database alone tests no guess, and a copy of the
 * database and the key tests one guess per argon2 computation (~25 ms, 19 MiB) instead of ~10⁹ HMACs
 * a second on a GPU (issue 21 item 9).
 *
 * One salt per issue of ten codes, not per code: a sign-in attempt then costs one argon2 computation
 * (as a password check), not ten (≈ 250 ms of CPU per attempt, measured). The price: offline, one
 * computation tests a guess against the user's ten codes at once, i.e. 50 − log2(10) ≈ 46.7 bits of
 * work per code, each step an argon2id.
 *
 * Codes stored before this (HMAC-SHA256, hex) keep working until used or replaced: without their
 * plaintext they cannot be re-hashed, and each is used once, so they leave as they are spent.
 */
export interface BackupCodeHasher {
  /** New codes and what to store for them. */
  issue(userId: string): Promise<{ codes: string[]; hashes: string[] }>;
  /** What `code` would be stored as, for each way the user's stored hashes were made (normally one). */
  candidates(userId: string, code: string, stored: string[]): Promise<string[]>;
}

export function createBackupCodeHasher(config: Pick<Config, 'secretKey' | 'argon2'>): BackupCodeHasher {
  const secret = Buffer.from(deriveKey(config.secretKey, 'backup-code-argon2'));
  const legacy = createKeyedHash(config.secretKey, 'backup-code');
  const argon = (userId: string, code: string, salt: Buffer, cost: Config['argon2']) =>
    hash(`${userId}:${normalizeBackupCode(code)}`, { algorithm: ARGON2ID, ...cost, salt, secret });

  return {
    async issue(userId) {
      const codes = newBackupCodes();
      const salt = randomBytes(16);
      const hashes: string[] = [];
      for (const code of codes) hashes.push(await argon(userId, code, salt, config.argon2));
      return { codes, hashes };
    },
    async candidates(userId, code, stored) {
      const out: string[] = [];
      const seen = new Set<string>();
      for (const h of stored) {
        const m = ENCODED.exec(h);
        if (!m) {
          if (!seen.has('legacy')) out.push(legacy(`${userId}:${normalizeBackupCode(code)}`));
          seen.add('legacy');
          continue;
        }
        const [, memoryCost, timeCost, parallelism, salt] = m;
        const key = `${memoryCost},${timeCost},${parallelism},${salt}`;
        if (seen.has(key)) continue;
        seen.add(key);
        const cost = { memoryCost: Number(memoryCost), timeCost: Number(timeCost), parallelism: Number(parallelism) };
        out.push(await argon(userId, code, Buffer.from(salt!, 'base64'), cost));
      }
      // No argon2 hash left to test (none, or only old ones): the same cost anyway, so the answer's
      // timing does not tell that the user has no new-style codes.
      if (!out.some((h) => h.startsWith('$argon2id$'))) await argon(userId, code, randomBytes(16), config.argon2);
      return out;
    },
  };
}
