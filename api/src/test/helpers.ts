import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { buildApp } from '../app';
import { loadConfig, type Config } from '../config';
import { openMigratedDatabase, type DatabaseHandle, type Db } from '../db/database';
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
  createUser(input: Partial<NewUserInput> & { email: string }): Promise<UserRow>;
  login(email: string, password?: string): Promise<{ access: string; refresh: string }>;
  close(): Promise<void>;
}

export const PASSWORD = 'correct horse battery';

/** A real app (real database, migrated) driven with app.inject(). */
export async function createTestApp(overrides: Record<string, string> = {}): Promise<TestApp> {
  const testEnv = await createTestEnv(overrides);
  const config = loadConfig(testEnv.env, testEnv.tmpDir);
  const database = await openMigratedDatabase(config.database);
  const app = await buildApp(config, { database });
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
    createUser: (input) => createUser({ db: database.db, passwords }, { password: PASSWORD, role: 'user', ...input }),
    async login(email, password = PASSWORD) {
      const res = await app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password } });
      if (res.statusCode !== 200) throw new Error(`login failed: ${res.statusCode} ${res.body}`);
      return res.json();
    },
    async close() {
      await app.close();
      await testEnv.cleanup();
    },
  };
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
