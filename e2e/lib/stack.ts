import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Everything global-setup started, handed to the test workers through a JSON file. */
export interface SeedUser {
  email: string;
  password: string;
  role: 'admin' | 'domain_admin' | 'user';
  domain?: string;
}

export interface Stack {
  /** The console origin: api + host + remotes on one origin. */
  baseURL: string;
  /** The second loopback origin (CORS on) serving the fixture remote and a moved copy of remote-mail. */
  otherOrigin: string;
  /** The file named by QC_REMOTES_FILE; specs may rewrite it (and must restore it). */
  remotesFile: string;
  /** Its content at start-up. */
  defaultRemotes: Record<string, string>;
  /** URL of the throwing fixture container's mf-manifest.json on the other origin. */
  throwingManifest: string;
  /** URL of the moved copy of remote-mail's mf-manifest.json on the other origin. */
  movedManifest: string;
  accessTtlSeconds: number;
  users: { admin: SeedUser; domainAdmin: SeedUser; user: SeedUser };
  /** Dashboard counts each seeded user must see (spec §2 dashboard). */
  counts: Record<'admin' | 'domainAdmin' | 'user', { pending: number; released: number; deleted: number }> | null;
  /** How the quarantined mail was stored (the public ingest route, or the fallback). */
  seedVia?: string;
  /** Why seeding the quarantined mail failed, if it did. */
  seedError?: string;
  apiLog: string;
}

export const ROOT = path.resolve(__dirname, '..', '..');
const ENV_KEY = 'QC_E2E_STACK';

export function saveStack(file: string, stack: Stack): void {
  writeFileSync(file, JSON.stringify(stack, null, 2));
  process.env[ENV_KEY] = file;
}

let cached: Stack | undefined;
export function stack(): Stack {
  if (cached) return cached;
  const file = process.env[ENV_KEY];
  if (!file) throw new Error(`${ENV_KEY} is not set: run the specs through playwright.config.ts (global setup)`);
  cached = JSON.parse(readFileSync(file, 'utf8')) as Stack;
  return cached;
}
