import { randomBytes } from 'node:crypto';
import { isIP } from 'node:net';
import fs from 'node:fs';
import path from 'node:path';
import { Cron } from 'croner';
import { z } from 'zod';
import { BULK_MAX_IDS, LIMITS, ROLES, type Role } from '@qc/contracts';
import { ldapConfig, LDAP_ENV, type LdapConfig } from './config-ldap';
import { oidcConfig, OIDC_ENV, type OidcConfig } from './config-oidc';
import { int, optional } from './config-env';
import { usableCpus } from './lib/cpus';

export type { LdapConfig, OidcConfig };

/** The repository root: defaults for the built front end are relative to it, not to the cwd. */
export const REPO_ROOT = path.resolve(__dirname, '..', '..');

export const SECRET_KEY_FILE = 'secret.key';

export type DatabaseConfig = { kind: 'sqlite'; file: string } | { kind: 'postgres'; url: string; poolMax: number };

export interface Config {
  port: number;
  host: string;
  /** Processes serving requests (node:cluster when more than one); default: the CPUs, at most 8. */
  workers: number;
  dataDir: string;
  database: DatabaseConfig;
  secretKey: string;
  remotesFile: string | null;
  remotesDir: string;
  staticDir: string;
  trustedProxies: string[];
  /** Lifetimes in seconds. */
  accessTtl: number;
  refreshTtl: number;
  /** Seconds from sign-in after which no refresh is given, however often the session was used. */
  sessionMaxAge: number;
  refreshGrace: number;
  partialTtl: number;
  /**
   * Roles whose users must have two-factor on (QC_MFA_REQUIRED_ROLES, default admin and domain_admin):
   * without it, sign-in goes to the set-up step, as for a user with mfa_required.
   */
  mfaRequiredRoles: Role[];
  /** Seconds a started two-factor set-up (and the set-up token of a sign-in) stays usable. */
  mfaSetupTtl: number;
  loginRate: { accountMax: number; ipMax: number; windowSeconds: number };
  /** Second-factor checks (window: loginRate.windowSeconds); maxFailures wrong codes burn a partial token. */
  mfaRate: { accountMax: number; ipMax: number; maxFailures: number };
  /** Password checks of a signed-in user (password change, MFA changes) per user and window. */
  reauthMax: number;
  emailChangeTtl: number;
  /** Lifetime (seconds) of the link e-mailed to a user created without a password. */
  invitationTtl: number;
  feedbackRate: { max: number; windowSeconds: number };
  /** Feedback a user may send in any 24 hours (stored submissions); beyond it: 429. */
  feedbackDailyMax: number;
  /**
   * Per user and minute: raw downloads, searches (a list with a typed term), releases (per message);
   * learns sent to Rspamd, per minute and per day.
   */
  budgets: { downloads: number; searches: number; releases: number; learn: { minute: number; day: number } };
  /** Roles whose users may teach Rspamd's Bayes (QC_LEARN_ROLES; default: every role). */
  learnRoles: Role[];
  mailFrom: string;
  /** Days raw mail is kept (0: never purged). */
  retentionDays: number;
  /** Cron pattern (croner) of the retention job. */
  retentionSchedule: string;
  /** Messages (and sessions) purged per transaction. */
  retentionBatch: number;
  /** Days Haraka's log lines are kept (0: never deleted); their rollups are kept 400 days. */
  logRetentionDays: number;
  /** Cron pattern (croner) of the digest job: how often due digests are looked for (not when they go out). */
  digestSchedule: string;
  admin: { email: string | null; password: string | null };
  ingestToken: string | null;
  /**
   * The maps Rspamd fetches (GET/HEAD /api/rspamd/maps/<map>): the secret it sends as HTTP basic auth
   * (null: the maps answer 503), the socket addresses allowed to ask (CIDRs; never X-Forwarded-For),
   * and the seconds the answer's Expires header lies ahead (Rspamd 3.4 polls again then).
   */
  rspamdMaps: { token: string | null; allow: string[]; expiresSeconds: number };
  /**
   * Rspamd's controller, for learning spam/ham (POST <url>/learnspam|learnham with header
   * `Password`): url null answers 503 learn_not_configured.
   */
  rspamdController: { url: string | null; password: string | null };
  /** Largest ingest request body (multipart meta + message), bytes. */
  ingestMaxBytes: number;
  smtpUrl: string | null;
  /** Most recipients offered in one SMTP transaction of a release; the rest go in further ones. */
  relayMaxRcpts: number;
  /** How long a release request waits for the relay before answering 202 releasing (the attempt goes on). */
  releaseAnswerMs: number;
  publicUrl: string;
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  argon2: { memoryCost: number; timeCost: number; parallelism: number };
  ldap: LdapConfig | null;
  /** Single sign-on (QC_OIDC_*); null when QC_OIDC_ISSUER is unset. */
  oidc: OidcConfig | null;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

// An IP, a CIDR, or one of proxy-addr's names (what Fastify's trustProxy understands).
const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);
function isProxyEntry(entry: string): boolean {
  return PROXY_NAMES.has(entry) || isIpOrCidr(entry);
}

/** An IP or a CIDR (host bits may be set: 10.1.2.3/8 means 10.0.0.0/8). */
export function isIpOrCidr(entry: string): boolean {
  const [addr = '', bits, ...rest] = entry.split('/');
  const version = isIP(addr);
  if (!version || rest.length) return false;
  if (bits === undefined) return true;
  return /^\d{1,3}$/.test(bits) && Number(bits) <= (version === 4 ? 32 : 128);
}

function isCronPattern(pattern: string): boolean {
  try {
    new Cron(pattern, { paused: true }).stop();
    return true;
  } catch {
    return false;
  }
}

/**
 * A key or token: long, and not an example's placeholder, which passes a length check yet is public
 * (with QC_SECRET_KEY, anyone could sign tokens). A random string has many distinct characters.
 */
const secret = (min: number) =>
  z
    .string()
    .min(min, { message: `must be at least ${min} characters`, abort: true })
    .refine((v) => !/change.?me|changeme|example|secret|password/i.test(v), {
      message: 'must not be a placeholder',
      abort: true,
    })
    .refine((v) => new Set(v).size >= 10, 'must be random (e.g. openssl rand -hex 32)');

/**
 * A comma-separated list of roles (spaces and repeats ignored); unset: `fallback`. With `none`, the
 * word none is the empty list, and only it: an empty value is unset, so "no role" must be said.
 */
const roleList = (fallback: readonly Role[], { none = false } = {}) =>
  z
    .string()
    .default(fallback.join(','))
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((list) => (none && list.join() === 'none') || list.every((r) => (ROLES as readonly string[]).includes(r)), {
      message: `must be a comma-separated list of roles among ${ROLES.join(', ')}${none ? ', or none' : ''}`,
    })
    .refine((list) => !none || list.length > 0, 'must name at least one role, or none')
    .transform((list) => (none && list.join() === 'none' ? [] : ([...new Set(list)] as Role[])));

/** QC_MFA_REQUIRED_ROLES when unset: the roles that manage others' mail and accounts. */
export const MFA_REQUIRED_ROLES_DEFAULT: readonly Role[] = ['admin', 'domain_admin'];

const EnvSchema = z.object({
  QC_PORT: int(8080, 0, 65535),
  QC_HOST: z.string().min(1).default('127.0.0.1'),
  QC_WORKERS: int(Math.min(usableCpus(), 8), 1, 64),
  QC_DATA_DIR: z.string().min(1).default('./data'),
  QC_DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL (leave unset for the embedded SQLite file)')
    .optional(),
  QC_DB_POOL_MAX: int(10, 1, 100),
  QC_SECRET_KEY: secret(32).optional(),
  QC_REMOTES_FILE: optional,
  QC_REMOTES_DIR: optional,
  QC_STATIC_DIR: optional,
  QC_TRUSTED_PROXIES: z
    .string()
    .optional()
    .transform((v) =>
      (v ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((list) => list.every(isProxyEntry), 'must be a comma-separated list of IPs or CIDRs'),
  QC_ACCESS_TTL: int(300, 5, 3600),
  QC_REFRESH_TTL: int(14 * 24 * 3600, 60, 365 * 24 * 3600),
  QC_SESSION_MAX_AGE: int(30 * 24 * 3600, 60, 365 * 24 * 3600),
  QC_REFRESH_GRACE: int(30, 0, 300),
  QC_PARTIAL_TTL: int(300, 1, 1800),
  // Secure by default: unset (or empty, like every variable) is admin,domain_admin; only the word
  // `none` turns it off, so a value lost on the way can never mean "no two-factor".
  QC_MFA_REQUIRED_ROLES: roleList(MFA_REQUIRED_ROLES_DEFAULT, { none: true }),
  QC_MFA_SETUP_TTL: int(900, 60, 24 * 3600),
  QC_LOGIN_RATE_ACCOUNT_MAX: int(10, 1, 100_000),
  QC_LOGIN_RATE_IP_MAX: int(100, 1, 100_000),
  QC_LOGIN_RATE_WINDOW: int(900, 1, 24 * 3600),
  QC_MFA_RATE_ACCOUNT_MAX: int(10, 1, 100_000),
  QC_MFA_RATE_IP_MAX: int(100, 1, 100_000),
  QC_MFA_MAX_FAILURES: int(5, 1, 100),
  QC_REAUTH_RATE_MAX: int(10, 1, 100_000),
  QC_EMAIL_CHANGE_TTL: int(24 * 3600, 60, 30 * 24 * 3600),
  QC_INVITATION_TTL: int(72 * 3600, 60, 30 * 24 * 3600),
  QC_FEEDBACK_RATE_MAX: int(10, 1, 100_000),
  QC_FEEDBACK_RATE_WINDOW: int(3600, 1, 24 * 3600),
  QC_FEEDBACK_DAILY_MAX: int(30, 1, 100_000),
  QC_BUDGET_DOWNLOADS: int(60, 1, 100_000),
  QC_BUDGET_SEARCHES: int(120, 1, 100_000),
  // A bulk release spends one per message, all or nothing: below BULK_MAX_IDS a full bulk could never pass.
  QC_BUDGET_RELEASES: int(1000, BULK_MAX_IDS, 1_000_000),
  QC_BUDGET_LEARN: int(20, 1, 100_000),
  QC_BUDGET_LEARN_DAILY: int(200, 1, 1_000_000),
  QC_LEARN_ROLES: roleList(ROLES).refine((list) => list.length > 0, 'must name at least one role'),
  QC_RETENTION_DAYS: int(30, 0, 3650),
  QC_RETENTION_SCHEDULE: z
    .string()
    .default('17 * * * *')
    .refine(isCronPattern, 'must be a cron pattern, e.g. "17 * * * *"'),
  QC_RETENTION_BATCH: int(500, 1, 10_000),
  QC_LOG_RETENTION_DAYS: int(30, 0, 3650),
  QC_DIGEST_SCHEDULE: z
    .string()
    .default('*/5 * * * *')
    .refine((v) => v === 'off' || isCronPattern(v), 'must be a cron pattern, e.g. "*/5 * * * *", or "off"'),
  QC_ADMIN_EMAIL: z.email().optional(),
  QC_ADMIN_PASSWORD: z
    .string()
    .min(LIMITS.passwordMin)
    .refine((v) => !/^change.?me/i.test(v), 'must not be a placeholder')
    .optional(),
  QC_INGEST_TOKEN: secret(24).optional(),
  // Written into the maps proxy's config beside Rspamd (a basic-auth header) and into compose's
  // environment: URL-safe characters only, so no quoting can go wrong on the way.
  QC_RSPAMD_MAPS_TOKEN: secret(24)
    .refine((v) => /^[A-Za-z0-9._~-]+$/.test(v), 'may hold only letters, digits and . _ ~ - (it goes into a URL)')
    .optional(),
  QC_RSPAMD_MAPS_ALLOW: z
    .string()
    .default('127.0.0.1/32,::1/128')
    .transform((v) =>
      v
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    )
    .refine((list) => list.length > 0 && list.every(isIpOrCidr), 'must be a comma-separated list of IPs or CIDRs'),
  QC_RSPAMD_MAPS_EXPIRES: int(5, 1, 3600),
  QC_RSPAMD_CONTROLLER_URL: z
    .string()
    .regex(/^https?:\/\/[^/]+/, 'must be an http(s):// URL, e.g. http://127.0.0.1:11334')
    // Credentials in the URL would be sent besides the Password header and end up in logs.
    .refine(
      (v) => !/^https?:\/\/[^/?#]*@/.test(v),
      'must not hold a user name or password (user@ or user:password@): set QC_RSPAMD_CONTROLLER_PASSWORD',
    )
    .optional(),
  // Sent as the controller's `Password` header: one line.
  QC_RSPAMD_CONTROLLER_PASSWORD: z
    .string()
    .min(1)
    .refine((v) => !/[\r\n\0]/.test(v), 'must be one line')
    .optional(),
  // Haraka's max.bytes (25 MiB) plus the form's overhead.
  QC_INGEST_MAX_BYTES: int(26 * 1024 * 1024, 64 * 1024, 1024 * 1024 * 1024),
  QC_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  // RFC 5321 4.5.3.1.8: a relay must take at least 100 recipients per transaction.
  QC_RELAY_MAX_RCPTS: int(100, 1, 10_000),
  // Under the 30 s a reverse proxy commonly gives an answer.
  QC_RELEASE_ANSWER_MS: int(10_000, 100, 60_000),
  QC_MAIL_FROM: z.email().optional(),
  QC_PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/]+/, 'must be an http(s):// URL')
    .optional(),
  QC_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // OWASP's argon2id baseline (19 MiB, t=2, p=1); tests lower it through the same variables.
  QC_ARGON2_MEMORY_KIB: int(19456, 8, 4 * 1024 * 1024),
  QC_ARGON2_TIME_COST: int(2, 1, 100),
  QC_ARGON2_PARALLELISM: int(1, 1, 16),
  ...LDAP_ENV,
  ...OIDC_ENV,
});

/** Every variable the api reads (documented in the repository's .env.example). */
export const ENV_VARIABLES = Object.keys(EnvSchema.shape);

function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) {
      next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    row = next;
  }
  return row[b.length]!;
}

/**
 * Warnings for QC_ variables the api does not read but that are one or two letters away from one it
 * does: a typo such as QC_DATABSE_URL would otherwise run quietly on SQLite. Other QC_ names belong
 * to the tools around the api (scripts, compose, the Haraka plugin) and are left alone.
 */
export function misspeltVariables(env: NodeJS.ProcessEnv): string[] {
  return Object.keys(env)
    .filter((name) => name.startsWith('QC_') && !ENV_VARIABLES.includes(name))
    .flatMap((name) => {
      const known = ENV_VARIABLES.find((k) => editDistance(name, k) <= 2);
      return known ? [`${name} is not a setting of the api: did you mean ${known}? It is ignored.`] : [];
    });
}

/** Writes and flushes to disk (0600): linked into place, it must hold its bytes after a crash. */
function writeDurably(file: string, text: string, flag: string) {
  const fd = fs.openSync(file, flag, 0o600);
  try {
    fs.writeSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Reads (or creates once, 0600) the key file beside the SQLite database. The key is written to a
 * file of its own, then linked into place: a full disk, a crash or a second process starting at the
 * same time never leaves an empty key file behind (every later start would refuse it).
 */
function secretFromFile(dataDir: string): string {
  const file = path.join(dataDir, SECRET_KEY_FILE);
  if (!fs.existsSync(file)) {
    const key = randomBytes(32).toString('base64url') + '\n';
    const draft = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
    try {
      writeDurably(draft, key, 'wx');
      fs.linkSync(draft, file);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      // A file system without hard links: the exclusive write alone (a crash may then leave it empty).
      if (code === 'EPERM' || code === 'ENOTSUP' || code === 'ENOSYS' || code === 'EXDEV') {
        try {
          writeDurably(file, key, 'wx');
        } catch (e) {
          if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
        }
      } else if (code !== 'EEXIST') throw err;
    } finally {
      fs.rmSync(draft, { force: true });
    }
  }
  const key = fs.readFileSync(file, 'utf8').trim();
  if (key.length < 32) throw new ConfigError([`${file}: the secret key must be at least 32 characters`]);
  return key;
}

/**
 * Builds the configuration from the environment. Empty variables count as unset. With SQLite it
 * creates the data directory and, when QC_SECRET_KEY is unset, the secret key file in it.
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): Config {
  const raw = Object.fromEntries(Object.entries(env).filter(([k, v]) => k.startsWith('QC_') && v !== ''));
  const parsed = EnvSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  // A day's learns below a minute's would make the minute's budget a lie.
  if (e.QC_BUDGET_LEARN_DAILY < e.QC_BUDGET_LEARN) {
    throw new ConfigError(['QC_BUDGET_LEARN_DAILY: must be at least QC_BUDGET_LEARN (the per-minute budget)']);
  }
  const resolve = (p: string) => path.resolve(cwd, p);
  const dataDir = resolve(e.QC_DATA_DIR);
  const ldap = ldapConfig(e, resolve, (problems) => new ConfigError(problems));
  const publicUrl = (e.QC_PUBLIC_URL ?? `http://${e.QC_HOST}:${e.QC_PORT}`).replace(/\/+$/, '');

  const database: DatabaseConfig = e.QC_DATABASE_URL
    ? { kind: 'postgres', url: e.QC_DATABASE_URL, poolMax: e.QC_DB_POOL_MAX }
    : { kind: 'sqlite', file: path.join(dataDir, 'qconsole.sqlite') };

  let secretKey = e.QC_SECRET_KEY;
  if (!secretKey) {
    // Replicas on PostgreSQL must share one key, so it cannot be generated per host.
    if (database.kind === 'postgres') throw new ConfigError(['QC_SECRET_KEY: required with QC_DATABASE_URL']);
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
    secretKey = secretFromFile(dataDir);
  } else if (database.kind === 'sqlite') {
    fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  }

  return {
    port: e.QC_PORT,
    host: e.QC_HOST,
    workers: e.QC_WORKERS,
    dataDir,
    database,
    secretKey,
    remotesFile: e.QC_REMOTES_FILE ? resolve(e.QC_REMOTES_FILE) : null,
    remotesDir: e.QC_REMOTES_DIR ? resolve(e.QC_REMOTES_DIR) : REPO_ROOT,
    staticDir: e.QC_STATIC_DIR ? resolve(e.QC_STATIC_DIR) : path.join(REPO_ROOT, 'host', 'dist'),
    trustedProxies: e.QC_TRUSTED_PROXIES,
    accessTtl: e.QC_ACCESS_TTL,
    refreshTtl: e.QC_REFRESH_TTL,
    sessionMaxAge: e.QC_SESSION_MAX_AGE,
    refreshGrace: e.QC_REFRESH_GRACE,
    partialTtl: e.QC_PARTIAL_TTL,
    mfaRequiredRoles: e.QC_MFA_REQUIRED_ROLES,
    mfaSetupTtl: e.QC_MFA_SETUP_TTL,
    loginRate: {
      accountMax: e.QC_LOGIN_RATE_ACCOUNT_MAX,
      ipMax: e.QC_LOGIN_RATE_IP_MAX,
      windowSeconds: e.QC_LOGIN_RATE_WINDOW,
    },
    mfaRate: {
      accountMax: e.QC_MFA_RATE_ACCOUNT_MAX,
      ipMax: e.QC_MFA_RATE_IP_MAX,
      maxFailures: e.QC_MFA_MAX_FAILURES,
    },
    reauthMax: e.QC_REAUTH_RATE_MAX,
    emailChangeTtl: e.QC_EMAIL_CHANGE_TTL,
    invitationTtl: e.QC_INVITATION_TTL,
    feedbackRate: { max: e.QC_FEEDBACK_RATE_MAX, windowSeconds: e.QC_FEEDBACK_RATE_WINDOW },
    feedbackDailyMax: e.QC_FEEDBACK_DAILY_MAX,
    budgets: {
      downloads: e.QC_BUDGET_DOWNLOADS,
      searches: e.QC_BUDGET_SEARCHES,
      releases: e.QC_BUDGET_RELEASES,
      learn: { minute: e.QC_BUDGET_LEARN, day: e.QC_BUDGET_LEARN_DAILY },
    },
    learnRoles: e.QC_LEARN_ROLES,
    retentionDays: e.QC_RETENTION_DAYS,
    retentionSchedule: e.QC_RETENTION_SCHEDULE,
    retentionBatch: e.QC_RETENTION_BATCH,
    logRetentionDays: e.QC_LOG_RETENTION_DAYS,
    digestSchedule: e.QC_DIGEST_SCHEDULE,
    admin: { email: e.QC_ADMIN_EMAIL?.toLowerCase() ?? null, password: e.QC_ADMIN_PASSWORD ?? null },
    ingestToken: e.QC_INGEST_TOKEN ?? null,
    rspamdMaps: {
      token: e.QC_RSPAMD_MAPS_TOKEN ?? null,
      allow: e.QC_RSPAMD_MAPS_ALLOW,
      expiresSeconds: e.QC_RSPAMD_MAPS_EXPIRES,
    },
    rspamdController: {
      url: e.QC_RSPAMD_CONTROLLER_URL ? e.QC_RSPAMD_CONTROLLER_URL.replace(/\/+$/, '') : null,
      password: e.QC_RSPAMD_CONTROLLER_PASSWORD ?? null,
    },
    ingestMaxBytes: e.QC_INGEST_MAX_BYTES,
    smtpUrl: e.QC_SMTP_URL ?? null,
    relayMaxRcpts: e.QC_RELAY_MAX_RCPTS,
    releaseAnswerMs: e.QC_RELEASE_ANSWER_MS,
    mailFrom: e.QC_MAIL_FROM ?? 'quarantine-console@localhost',
    // Links in e-mails use this, never the request's Host header.
    publicUrl,
    logLevel: e.QC_LOG_LEVEL,
    argon2: {
      memoryCost: e.QC_ARGON2_MEMORY_KIB,
      timeCost: e.QC_ARGON2_TIME_COST,
      parallelism: e.QC_ARGON2_PARALLELISM,
    },
    ldap,
    oidc: oidcConfig(e, publicUrl, (problems) => new ConfigError(problems)),
  };
}
