import { createTestEnv, sqliteOnly } from '../test/helpers'; // first: it makes jest able to load kysely
import SqliteDatabase from 'better-sqlite3';
import fs from 'node:fs';
import { sql } from 'kysely';
import { loadConfig } from '../config';
import { migrateToLatest, openDatabase, openMigratedDatabase } from './database';
import { migrationProvider } from './migrations';

const TABLES = [
  'domains',
  'email_changes',
  'feedback',
  'feedback_images',
  'history',
  'history_audience',
  'job_locks',
  'mfa_backup_codes',
  'mfa_partial_tokens',
  'quarantine_counts',
  'quarantine_daily',
  'quarantine_deliveries',
  'quarantine_messages',
  'quarantine_raw',
  'quarantine_recipients',
  'sessions',
  'user_preferences',
  'users',
];

test('migrations create every table, run once, and ignore other schemas on the same server', async () => {
  const a = await createTestEnv();
  const b = await createTestEnv();
  const dbA = openDatabase(loadConfig(a.env, a.tmpDir).database);
  const dbB = openDatabase(loadConfig(b.env, b.tmpDir).database);
  const all = Object.keys(await migrationProvider.getMigrations()).sort();
  expect(all.slice(0, 3)).toEqual(['0001_core', '0002_account', '0003_quarantine']);
  try {
    expect(await migrateToLatest(dbA)).toEqual(all);
    expect(await migrateToLatest(dbA)).toEqual([]); // already applied
    // B shares the PostgreSQL server (and database) with A when tests run on PostgreSQL.
    expect(await migrateToLatest(dbB)).toEqual(all);
    for (const db of [dbA, dbB]) {
      const tables = (await db.db.introspection.getTables()).map((t) => t.name);
      for (const name of TABLES) expect(tables).toContain(name);
    }
  } finally {
    await dbA.close();
    await dbB.close();
    await a.cleanup();
    await b.cleanup();
  }
});

/** A migrated database of the run's kind, closed and removed after `fn`. */
async function withMigrated(fn: (handle: ReturnType<typeof openDatabase>) => Promise<void>) {
  const env = await createTestEnv();
  const handle = openDatabase(loadConfig(env.env, env.tmpDir).database);
  try {
    await migrateToLatest(handle);
    await fn(handle);
  } finally {
    await handle.close();
    await env.cleanup();
  }
}

sqliteOnly('SQLite is opened durable (WAL, synchronous=FULL) with foreign keys on', () =>
  withMigrated(async (handle) => {
    const pragma = async (name: string) =>
      Object.values((await sql.raw(`pragma ${name}`).execute(handle.db)).rows[0] as object)[0];
    expect(await pragma('journal_mode')).toBe('wal');
    expect(await pragma('synchronous')).toBe(2); // FULL
    expect(await pragma('foreign_keys')).toBe(1);
  }),
);

sqliteOnly(
  'the database file and its -wal and -shm are readable by their owner only, under umask 022 and after an earlier run left them 0644',
  async () => {
    const env = await createTestEnv();
    const { file } = loadConfig(env.env, env.tmpDir).database as { file: string };
    const modes = () => ['', '-wal', '-shm'].map((s) => fs.statSync(`${file}${s}`).mode & 0o777);
    const umask = process.umask(0o022);
    try {
      let handle = openDatabase(loadConfig(env.env, env.tmpDir).database);
      await migrateToLatest(handle);
      expect(modes()).toEqual([0o600, 0o600, 0o600]);
      await handle.close();
      for (const s of ['', '-wal', '-shm']) {
        if (fs.existsSync(`${file}${s}`)) fs.chmodSync(`${file}${s}`, 0o644);
        else fs.writeFileSync(`${file}${s}`, '', { mode: 0o644 });
      }
      handle = openDatabase(loadConfig(env.env, env.tmpDir).database);
      await sql`select 1`.execute(handle.db);
      expect(modes()).toEqual([0o600, 0o600, 0o600]);
      await handle.close();
    } finally {
      process.umask(umask);
      await env.cleanup();
    }
  },
);

sqliteOnly(
  'a full disk is reported as such: the rollback after SQLite ended the transaction itself does not hide it',
  () =>
    withMigrated(async (handle) => {
      const { page_count } = (await sql<{ page_count: number }>`pragma page_count`.execute(handle.db)).rows[0]!;
      await sql.raw(`pragma max_page_count = ${page_count + 2}`).execute(handle.db);
      const err = await handle.db
        .transaction()
        .execute(async (trx) => {
          await sql`create table big (x text)`.execute(trx);
          for (let i = 0; i < 50; i++) await sql`insert into big values (${'y'.repeat(100_000)})`.execute(trx);
        })
        .catch((e: unknown) => e);
      expect(String(err)).toMatch(/database or disk is full/);
      // And the connection is usable afterwards.
      expect((await sql<{ one: number }>`select 1 as one`.execute(handle.db)).rows).toEqual([{ one: 1 }]);
    }),
);

test('foreign keys are enforced (both databases)', () =>
  withMigrated(async (handle) => {
    const orphan = handle.db
      .insertInto('sessions')
      .values({
        id: 's',
        user_id: 'nobody',
        family_id: 's',
        refresh_hash: 'h',
        created_at: 0,
        expires_at: 0,
        rotated_at: null,
        replaced_by: null,
        grace_pair: null,
        revoked_at: null,
      })
      .execute();
    await expect(orphan).rejects.toMatchObject({
      code: expect.stringMatching(/^(SQLITE_CONSTRAINT_FOREIGNKEY|23503)$/),
    });
  }));

// Several processes write the SQLite file (api workers, the CLI). Another connection stands for
// another process here.

sqliteOnly('a transaction holds the write lock from its start: reading first cannot make its write fail', async () => {
  const env = await createTestEnv();
  const config = loadConfig(env.env, env.tmpDir);
  const handle = await openMigratedDatabase(config.database);
  if (config.database.kind !== 'sqlite') throw new Error('SQLite only');
  const other = new SqliteDatabase(config.database.file, { timeout: 50 });
  const insertDomain = (name: string) =>
    sql`insert into domains (id, name, description, created_at, updated_at) values (${name}, ${name}, '', 0, 0)`;
  try {
    await handle.db.transaction().execute(async (trx) => {
      await sql`select count(*) from domains`.execute(trx);
      // With a deferred BEGIN the other writer would get in here, and this transaction's write below
      // would then fail with SQLITE_BUSY (its snapshot is stale) instead of waiting.
      expect(() => other.prepare(`insert into domains values ('b', 'b', '', 0, 0)`).run()).toThrow(
        /database is locked/,
      );
      await insertDomain('a').execute(trx);
    });
    other.prepare(`insert into domains values ('b', 'b', '', 0, 0)`).run(); // once committed, the other writes
    const { rows } = await sql<{ name: string }>`select name from domains order by name`.execute(handle.db);
    expect(rows.map((r) => r.name)).toEqual(['a', 'b']);
  } finally {
    other.close();
    await handle.close();
    await env.cleanup();
  }
});
