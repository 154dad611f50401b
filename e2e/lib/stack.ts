import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** A sender domain whose SPF (the run's DNS server) authorises mail from loopback: a whitelist applies to it. */
export const SPF_PASS_DOMAIN = 'spf-pass.e2e.test';

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
  /** The api's environment: the user CLI run by a spec (lib/users.ts) needs the same one. */
  cliEnv: Record<string, string>;
  /** The real mail stack and the SMTP sink (lib/mail-harness.ts); unset when it could not start. */
  mail?: MailInfo;
  /** Why the mail stack could not start (the mail-* specs fail with it, the others run). */
  mailError?: string;
  /** The run's directory (lib/directory-harness.ts); unset when it could not start. */
  directory?: DirectoryInfo;
  directoryError?: string;
  /** The run's OpenID Provider (lib/oidc-harness.ts); unset when it could not start. */
  oidc?: OidcInfo;
  oidcError?: string;
}

/** The OpenID Provider the api offers single sign-on with, as the specs reach it (sso.spec.ts). */
export interface OidcInfo {
  issuer: string;
  /** The button reads "Sign in with <label>". */
  label: string;
  /** oscar: a user of example.org; carol: her e-mail is not verified at the provider. */
  people: Record<'oscar' | 'carol', { login: string; password: string; email: string }>;
}

/** The OpenLDAP subtree the api signs people in with, as the specs reach it (lib/directory.ts). */
export interface DirectoryInfo {
  /** POST /directory/down, /directory/up; PUT /directory/group {cn, uids}. */
  controlUrl: string;
  /** alice: a user with aliases; bob: in the domain admins' group; carol: in the admins' group. */
  people: Record<'alice' | 'bob' | 'carol', { email: string; password: string }>;
  /** An alias of alice's in the console's example.com. */
  aliceAlias: string;
}

/** What lib/mail-harness.ts started for the run, as the specs reach it (lib/mail.ts). */
export interface MailInfo {
  /** Haraka's SMTP port on 127.0.0.1 (Rspamd + the qconsole plugin behind it). */
  smtpPort: number;
  /** The SMTP sink: the api's QC_SMTP_URL (releases) and Haraka's next hop (clean mail). */
  sinkPort: number;
  /** Control endpoint: GET /sink/messages, PUT /sink/mode, POST /api/stop, POST /api/start. */
  controlUrl: string;
  /** The api's QC_INGEST_TOKEN (Haraka's too). */
  ingestToken: string;
  /** The daemons' output (Redis, Rspamd, Haraka). */
  log: string;
  startedInMs: number;
}

export type SinkMode = 'accept' | 'refuse';

/** A message the sink took (GET /sink/messages): `raw` is base64 of the exact bytes. */
export interface SinkMessageJson {
  n: number;
  receivedAt: string;
  envelope: { mailFrom: string; rcptTo: string[] };
  raw: string;
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
