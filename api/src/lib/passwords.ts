import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { randomBytes } from 'node:crypto';
import type { Config } from '../config';

// Algorithm is an ambient const enum (not importable as a value under isolatedModules): 2 = Argon2id.
const ARGON2ID = 2 as Algorithm;

export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
  /** Same cost as a real check, for unknown accounts, so timing does not reveal which e-mails exist. */
  verifyDummy(password: string): Promise<false>;
}

export function createPasswordHasher(params: Config['argon2']): PasswordHasher {
  const options = { algorithm: ARGON2ID, ...params };
  let dummy: Promise<string> | undefined;
  const check = async (passwordHash: string, password: string): Promise<boolean> => {
    // No password yet (a user invited by e-mail): refused, as slowly as a wrong password, so the
    // answer's timing does not tell which accounts have not accepted their invitation.
    if (passwordHash === '') return verifyDummy(password);
    try {
      return await verify(passwordHash, password);
    } catch {
      return false; // a malformed stored hash never authenticates
    }
  };
  const verifyDummy = async (password: string): Promise<false> => {
    dummy ??= hash(randomBytes(24).toString('base64url'), options);
    await check(await dummy, password);
    return false;
  };
  return { hash: (password) => hash(password, options), verify: check, verifyDummy };
}

/** A strong generated password (first admin, resets): 144 random bits, URL-safe. */
export function generatePassword(): string {
  return randomBytes(18).toString('base64url');
}
