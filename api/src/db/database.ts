import SqliteDatabase from 'better-sqlite3';
import { fold } from '../lib/fold';
import fs from 'node:fs';
import { Kysely, PostgresDialect, sql, SqliteDialect, type Transaction } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import type { DatabaseConfig } from '../config';
import { migrationProvider } from './migrations';
import { preparedStatementName } from './precompiled';
import type { Database } from './schema';

export type Db = Kysely<Database>;
/** What repositories accept: the database or an open transaction. */
export type DbExecutor = Kysely<Database> | Transaction<Database>;
export type Dialect = DatabaseConfig['kind'];

export interface DatabaseHandle {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

interface ErrorLogger {
  error(obj: object, msg: string): void;
}

const INT8_OID = 20;

/**
 * The database holds raw mail, session hashes and the audit trail: readable by its owner only,
 * whatever the umask or the folder's mode. SQLite gives a -wal or -shm file it creates the
 * database's mode; files left by an earlier run are narrowed too.
 */
export function restrictToOwner(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const f of [file, `${file}-wal`, `${file}-shm`]) {
    const stat = fs.statSync(f, { throwIfNoEntry: false });
    // A file of another account (a shared group set up on purpose) is the operator's to decide.
    if (stat && stat.mode & 0o077 && stat.uid === process.getuid?.()) fs.chmodSync(f, stat.mode & 0o700);
  }
}

function openSqlite(file: string): Db {
  restrictToOwner(file);
  const database = new SqliteDatabase(file);
  // Durable by default (DESIGN §5): WAL + synchronous=FULL survives power loss; FKs are off by default.
  database.pragma('journal_mode = WAL');
  database.pragma('synchronous = FULL');
  database.pragma('foreign_keys = ON');
  database.pragma('busy_timeout = 5000');
  database.pragma('wal_autocheckpoint = 10000');
  // The quarantine search's case- and accent-insensitive match (PostgreSQL's is SQL, migration 0019).
  database.function('qc_fold', { deterministic: true }, (v: unknown) => (typeof v === 'string' ? fold(v) : v));
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(database) }) });
}

/**
 * Statements kept per SQL text: Kysely prepares every query anew, which cost ~15 % of a list request.
 * Transactions begin IMMEDIATE (see prepare).
 */
const STATEMENT_CACHE_SIZE = 500;

function withStatementCache(database: SqliteDatabase.Database) {
  const cache = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => database.close(),
    prepare(sqlText: string) {
      // Several processes write this file (api workers, the CLI). A transaction that reads before it
      // writes would get SQLITE_BUSY, without waiting, if another process wrote in between: each one
      // takes the write lock when it begins (waiting up to busy_timeout for it).
      // SQLite ends a transaction by itself on some errors (a full disk, an I/O error): Kysely's
      // rollback would then fail with "no transaction is active" and hide the error that matters.
      const text =
        sqlText === 'begin'
          ? 'begin immediate'
          : sqlText === 'rollback' && !database.inTransaction
            ? 'select 0 where 0'
            : sqlText;
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text); // most recently used last: the Map's first key is the one to evict
      } else {
        statement = database.prepare(text);
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

function openPostgres(url: string, poolMax: number, log: ErrorLogger): Db {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    // A server that stops answering (a hung host, a dropped network): a new connection is given up
    // after 5 s, and TCP keepalive (probing after 10 s idle) finds dead ones. A query already sent
    // on a live connection is not bounded (no statement timeout: migrations and repairs run long).
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    // Timestamps and counters are bigint; epoch ms and counts fit a JS number exactly.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === INT8_OID
          ? (v: string) => Number(v)
          : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // An idle client's error (e.g. the server restarted) is emitted on the pool: without a listener it
  // would crash the process. The pool drops that client and the next query reconnects.
  pool.on('error', (err) => log.error({ err }, 'PostgreSQL pool error'));
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool: withPreparedStatements(pool) }) });
}

/**
 * The pool as Kysely sees it, whose clients run precompiled queries (db/precompiled.ts) as named
 * prepared statements: parsed and planned once per connection instead of on every request.
 */
function withPreparedStatements(pool: pg.Pool) {
  const clients = new WeakMap<pg.PoolClient, pg.PoolClient>(); // Kysely keys its connections by client
  const wrap = (client: pg.PoolClient): pg.PoolClient => {
    let wrapped = clients.get(client);
    if (!wrapped) {
      const query = (text: unknown, values?: unknown[]) => {
        const name = typeof text === 'string' ? preparedStatementName(text) : undefined;
        return name ? client.query({ name, text: text as string, values }) : client.query(text as string, values);
      };
      wrapped = new Proxy(client, {
        get: (target, key) => (key === 'query' ? query : Reflect.get(target, key, target)),
      });
      clients.set(client, wrapped);
    }
    return wrapped;
  };
  const connect = async () => wrap(await pool.connect());
  return new Proxy(pool, { get: (target, key) => (key === 'connect' ? connect : Reflect.get(target, key, target)) });
}

export function openDatabase(
  config: DatabaseConfig,
  log: ErrorLogger = console as unknown as ErrorLogger,
): DatabaseHandle {
  const db = config.kind === 'sqlite' ? openSqlite(config.file) : openPostgres(config.url, config.poolMax, log);
  let closed = false;
  return {
    db,
    dialect: config.kind,
    async close() {
      if (closed) return;
      closed = true;
      await db.destroy();
    },
  };
}

export async function migrateToLatest({ db, dialect }: DatabaseHandle): Promise<string[]> {
  // Kysely looks its bookkeeping tables up by name across ALL schemas; on a server shared with other
  // schemas (other apps, parallel test runs) it must be pinned to ours.
  const schema =
    dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(db)).rows[0]?.schema
      : undefined;
  const migrator = new Migrator({ db, provider: migrationProvider, migrationTableSchema: schema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Opens the configured database and brings its schema up to date (closing it again on failure). */
export async function openMigratedDatabase(config: DatabaseConfig, log?: ErrorLogger): Promise<DatabaseHandle> {
  const handle = openDatabase(config, log);
  try {
    await migrateToLatest(handle);
    return handle;
  } catch (err) {
    await handle.close();
    throw err;
  }
}

/** PostgreSQL settings that, off, let a crash of its server lose transactions it had committed. */
export const DURABILITY_SETTINGS = ['fsync', 'synchronous_commit'] as const;
export type DurabilitySetting = (typeof DURABILITY_SETTINGS)[number];

/** The durability settings that are off ('local', 'remote_write'… of synchronous_commit still flush locally). */
export function unsafeDurability(settings: Record<DurabilitySetting, string>): DurabilitySetting[] {
  return DURABILITY_SETTINGS.filter((name) => settings[name].toLowerCase() === 'off');
}

/**
 * At start-up, one warning per PostgreSQL durability setting that is off (as this session sees it:
 * synchronous_commit may be set per role or database too). The ingest answers Haraka "stored" once
 * committed, and Haraka then drops its copy: a commit a crash can undo loses accepted mail.
 * SQLite's settings are the api's own (synchronous=FULL, set on open).
 */
export async function warnOfUnsafeDurability(
  { db, dialect }: DatabaseHandle,
  log: { warn(obj: object, msg: string): void },
): Promise<void> {
  if (dialect !== 'postgres') return;
  let settings: Record<DurabilitySetting, string>;
  try {
    const { rows } = await sql<Record<DurabilitySetting, string>>`select current_setting('fsync') as fsync,
      current_setting('synchronous_commit') as synchronous_commit`.execute(db);
    settings = rows[0]!;
  } catch (err) {
    // A diagnostic: it never stops the api from serving.
    log.warn({ reason: (err as Error).message }, 'could not read the PostgreSQL durability settings');
    return;
  }
  for (const setting of unsafeDurability(settings)) {
    log.warn(
      { setting, value: settings[setting] },
      `PostgreSQL runs with ${setting} = off: mail the console accepted, and its history, can be lost ` +
        `if the database server crashes. Turn ${setting} on.`,
    );
  }
}

/**
 * The database refused the data of a statement (PostgreSQL classes 22 "data exception" and 23
 * "integrity constraint", SQLite's constraint, mismatch and too-big errors), as opposed to being
 * unavailable, busy or gone: the same statement without that row would have passed.
 */
export function isDataRefusal(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return (
    typeof code === 'string' && (/^2[23][0-9A-Z]{3}$/.test(code) || /^SQLITE_(CONSTRAINT|MISMATCH|TOOBIG)/.test(code))
  );
}

/** A unique-constraint violation, in either dialect's words. */
export function isUniqueViolation(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}
