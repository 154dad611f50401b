import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { InsertQueryNode, ValuesNode, type KyselyPlugin } from 'kysely';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { generate } from 'otplib';
import pg from 'pg';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { openMigratedDatabase, type DatabaseHandle, type Db } from '../db/database';
import type { MailMessage } from '../lib/mailer';
import { createPasswordHasher, type PasswordHasher } from '../lib/passwords';
import { createUser, type NewUserInput } from '../modules/users/users.service';
import type { UserRow } from '../modules/users/users.repository';

/**
 * Every api test file gets its own database: a SQLite file in a temp dir, or — when
 * QC_TEST_DATABASE_URL points at a PostgreSQL server — a fresh schema there (dropped afterwards).
 */
export interface TestEnv {
  env: Record<string, string>;
  tmpDir: string;
  cleanup(): Promise<void>;
}

export const usingPostgres = Boolean(process.env.QC_TEST_DATABASE_URL);

/**
 * Tests of one database only: on the other run they are reported as skipped (not dropped, not
 * counted as passed).
 */
export const sqliteOnly: jest.It = usingPostgres ? test.skip : test;
export const postgresOnly: jest.It = usingPostgres ? test : test.skip;

export async function createTestEnv(overrides: Record<string, string> = {}): Promise<TestEnv> {
  const tmpDir = mkdtempSync(path.join(os.tmpdir(), 'qc-api-test-'));
  const env: Record<string, string> = {
    QC_DATA_DIR: tmpDir,
    QC_SECRET_KEY: randomBytes(32).toString('base64url'),
    QC_LOG_LEVEL: 'silent',
    // Cheap hashes keep the suite fast; the secure defaults are checked in config.test.ts.
    QC_ARGON2_MEMORY_KIB: '64',
    QC_ARGON2_TIME_COST: '1',
    QC_STATIC_DIR: path.join(tmpDir, 'static'),
    QC_REMOTES_DIR: path.join(tmpDir, 'remotes'),
    QC_LOGIN_RATE_ACCOUNT_MAX: '1000',
    QC_LOGIN_RATE_IP_MAX: '1000',
    QC_DB_POOL_MAX: '4',
    // Tests sign in as admins without two-factor; the default (admin,domain_admin) is tested in
    // mfa-required.test.ts.
    QC_MFA_REQUIRED_ROLES: 'none',
  };
  let dropSchema = async () => {};
  const base = process.env.QC_TEST_DATABASE_URL;
  if (base) {
    const schema = `qc_test_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: base });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    const url = new URL(base);
    url.searchParams.set('options', `-c search_path=${schema}`);
    env.QC_DATABASE_URL = url.toString();
    dropSchema = async () => {
      const c = new pg.Client({ connectionString: base });
      await c.connect();
      await c.query(`drop schema if exists ${schema} cascade`);
      await c.end();
    };
  }
  return {
    env: { ...env, ...overrides },
    tmpDir,
    async cleanup() {
      await dropSchema();
      rmSync(tmpDir, { recursive: true, force: true });
    },
  };
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  db: Db;
  database: DatabaseHandle;
  passwords: PasswordHasher;
  tmpDir: string;
  /** The QC_* variables this app was configured from (for the CLI or a second app on the same DB). */
  env: Record<string, string>;
  /** Every e-mail the app sent (the test app's mailer records them instead of sending; empty with mailer: 'smtp'). */
  mails: MailMessage[];
  createUser(input: Partial<NewUserInput> & { email: string }): Promise<UserRow>;
  login(email: string, password?: string): Promise<{ access: string; refresh: string }>;
  close(): Promise<void>;
}

export const PASSWORD = 'correct horse battery';

/**
 * A real app (real database, migrated) driven with app.inject(). Its e-mails are recorded in
 * `mails`, or with `mailer: 'smtp'` sent by the app's own mailer to QC_SMTP_URL (a real SMTP sink).
 * Its log lines go to `logStream` when given (raise QC_LOG_LEVEL, 'silent' by default).
 */
export async function createTestApp(
  overrides: Record<string, string> = {},
  options: { mailer?: 'record' | 'smtp'; logStream?: { write(line: string): void } } = {},
): Promise<TestApp> {
  const testEnv = await createTestEnv(overrides);
  const config = loadConfig(testEnv.env, testEnv.tmpDir);
  const database = await openMigratedDatabase(config.database);
  const mails: MailMessage[] = [];
  const recorder = { send: async (m: MailMessage) => void mails.push(m) };
  const app = await buildApp(config, {
    database,
    ...(options.mailer === 'smtp' ? {} : { mailer: recorder }),
    ...(options.logStream ? { logStream: options.logStream } : {}),
  });
  await app.ready();
  const passwords = createPasswordHasher(config.argon2);
  return {
    app,
    config,
    db: database.db,
    database,
    passwords,
    tmpDir: testEnv.tmpDir,
    env: testEnv.env,
    mails,
    createUser: (input) => createUser({ db: database.db, passwords }, { password: PASSWORD, role: 'user', ...input }),
    async login(email, password = PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    async close() {
      // The schema (PostgreSQL) and files go even when closing fails (a test that broke its database):
      // a leftover schema shows in other tests' introspection.
      try {
        await app.close();
      } finally {
        await testEnv.cleanup();
      }
    },
  };
}

/** How many accounts there are: a refusal must leave it as it was. */
export async function countUsers(db: Db): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** process.env without QC_* (a developer's own settings must not leak into a test). */
export function processEnvWithoutQc(): Record<string, string> {
  return Object.fromEntries(
    Object.entries(process.env).filter(([k, v]) => !k.startsWith('QC_') && v !== undefined),
  ) as Record<string, string>;
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export function json<T = Record<string, unknown>>(res: LightMyRequestResponse): T {
  return res.json() as T;
}

/** TOTP code of `secret` for the 30-second step `step` (as authenticator apps compute it). */
export async function totpAt(secret: string, step: number): Promise<string> {
  return generate({ secret, epoch: step * 30 });
}

export const currentStep = () => Math.floor(Date.now() / 30_000);

/**
 * Waits, when fewer than `margin` seconds are left in the current 30-second step, for the next
 * one: a test computing codes for "now ± n steps" then runs inside a single step. The wait can
 * pass jest's 5 s default: a file using it sets a longer timeout.
 */
export async function freshStep(margin = 6): Promise<number> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < margin * 1000) await new Promise((r) => setTimeout(r, left + 50));
  return currentStep();
}

export interface MfaUser {
  id: string;
  email: string;
  secret: string;
  backupCodes: string[];
  /** The session that enabled MFA (still valid). */
  access: string;
  refresh: string;
  /** The step of the code that enabled MFA. */
  enabledStep: number;
}

/** A new user with MFA enabled through the API, using the code of step `enableStep` (default: now - 1). */
export async function createMfaUser(t: TestApp, email: string, enableStep?: number): Promise<MfaUser> {
  const user = await t.createUser({ email });
  const session = await t.login(email);
  const setup = await t.app.inject({
    method: 'POST',
    url: '/api/users/me/mfa/setup/',
    headers: bearer(session.access),
  });
  if (setup.statusCode !== 200) throw new Error(`setup failed: ${setup.statusCode} ${setup.body}`);
  const { secret } = setup.json();
  const step = enableStep ?? currentStep() - 1;
  const enable = await t.app.inject({
    method: 'POST',
    url: '/api/users/me/mfa/enable/',
    headers: bearer(session.access),
    payload: { totp_code: await totpAt(secret, step) },
  });
  if (enable.statusCode !== 200) throw new Error(`enable failed: ${enable.statusCode} ${enable.body}`);
  return { id: user.id, email, secret, backupCodes: enable.json().backup_codes, ...session, enabledStep: step };
}

/** POST /api/auth/login/ that must answer with a second-factor challenge: its partial token. */
export async function partialLogin(t: TestApp, email: string, password = PASSWORD): Promise<string> {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password } });
  const body = res.json();
  if (res.statusCode !== 200 || body.requires_2fa !== true) throw new Error(`no challenge: ${res.body}`);
  return body.partial_token;
}

/**
 * Every INSERT sent through `db.withPlugin(plugin)` (transactions opened from it included): its
 * table and its number of rows, in order. How many statements a write took, without timing it.
 */
export function insertCounter(): { plugin: KyselyPlugin; inserts: [table: string | undefined, rows: number][] } {
  const inserts: [string | undefined, number][] = [];
  const plugin: KyselyPlugin = {
    transformQuery({ node }) {
      if (InsertQueryNode.is(node)) {
        const rows = node.values && ValuesNode.is(node.values) ? node.values.values.length : 0;
        inserts.push([node.into?.table.identifier.name, rows]);
      }
      return node;
    },
    transformResult: async ({ result }) => result,
  };
  return { plugin, inserts };
}

/** A loopback port nobody listens on right now (for a server expected to be unreachable, or started later). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
