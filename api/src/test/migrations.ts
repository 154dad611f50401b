import { createTestEnv } from './helpers'; // first: it makes jest able to load kysely
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { loadConfig } from '../config';
import { openDatabase, type DatabaseHandle } from '../db/database';
import { migrationProvider } from '../db/migrations';

export const DAY = 86_400_000;
/** The first day of the migration fixtures (a UTC midnight). */
export const D1 = Date.parse('2026-03-01T00:00:00Z');

/** An empty database of the run's kind (no migration applied), closed and removed after `fn`. */
export async function withEmptyDatabase(fn: (handle: DatabaseHandle) => Promise<void>): Promise<void> {
  const env = await createTestEnv();
  const handle = openDatabase(loadConfig(env.env, env.tmpDir).database);
  try {
    await fn(handle);
  } finally {
    await handle.close();
    await env.cleanup();
  }
}

/** A migrator pinned to the connection's schema (PostgreSQL test runs share one server). */
export async function migratorFor(handle: DatabaseHandle): Promise<Migrator> {
  const schema =
    handle.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db)).rows[0]?.schema
      : undefined;
  return new Migrator({ db: handle.db, provider: migrationProvider, migrationTableSchema: schema });
}

/** Every rollup row, in a stable order. */
export const dailyRows = (handle: DatabaseHandle) =>
  handle.db.selectFrom('quarantine_daily').selectAll().orderBy('scope').orderBy('scope_id').orderBy('day').execute();

/** [id, received_at, score] */
export type FixtureMessage = [string, number, number | null];
/** [message id, recipient, status, received_at, updated_at] */
export type FixtureRecipient = [string, string, string, number, number];

/** Rows written in raw SQL, as an older schema's code stored them (only the columns every version has). */
export async function insertFixture(
  handle: DatabaseHandle,
  messages: FixtureMessage[],
  recipients: FixtureRecipient[],
): Promise<void> {
  for (const [id, at, score] of messages) {
    await sql`insert into quarantine_messages (id, received_at, sender, score, action, size, created_at)
      values (${id}, ${at}, 's@x.example', ${score}, 'reject', 10, ${at})`.execute(handle.db);
  }
  for (const [id, rcpt, status, at, updated] of recipients) {
    await sql`insert into quarantine_recipients (message_id, recipient, domain, status, received_at, updated_at)
      values (${id}, ${rcpt}, ${rcpt.split('@')[1]}, ${status}, ${at}, ${updated})`.execute(handle.db);
  }
}

/** Two days, three statuses, one message without a score. */
export const FIXTURE_MESSAGES: FixtureMessage[] = [
  ['m1', D1 + 3600_000, 2],
  ['m2', D1 + 7200_000, 12],
  ['m3', D1 + DAY + 60_000, null],
];
export const FIXTURE_RECIPIENTS: FixtureRecipient[] = [
  ['m1', 'ann@a.example', 'pending', D1 + 3600_000, D1 + 3600_000],
  ['m2', 'ann@a.example', 'released', D1 + 7200_000, D1 + DAY + 5],
  ['m2', 'carl@b.example', 'deleted', D1 + 7200_000, D1 + 2 * DAY + 5],
  ['m3', 'bob@a.example', 'pending', D1 + DAY + 60_000, D1 + DAY + 60_000],
];

export interface SchemaSnapshot {
  /** table → its columns (name, type, nullability, default; on PostgreSQL also the TOAST compression). */
  tables: Record<string, string[]>;
  /** index → its table, key columns and definition (partial predicate, expressions). */
  indexes: Record<string, string>;
  /** Constraints (PostgreSQL), foreign keys (SQLite) and triggers. */
  other: string[];
}

/**
 * The schema of the connection's database (its own schema on PostgreSQL), without Kysely's
 * migration bookkeeping: what a migration's up creates and its down must remove again.
 */
export async function introspectSchema(handle: DatabaseHandle): Promise<SchemaSnapshot> {
  const snapshot: SchemaSnapshot = { tables: {}, indexes: {}, other: [] };
  const bookkeeping = (name: string) => name.startsWith('kysely_migration');
  if (handle.dialect === 'sqlite') {
    const { rows } = await sql<{ type: string; name: string; tbl_name: string; sql: string | null }>`
      select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_stat%' order by name`.execute(
      handle.db,
    );
    for (const row of rows.filter((r) => !bookkeeping(r.tbl_name))) {
      if (row.type === 'table') {
        const columns = await sql<Record<string, unknown>>`select name, type, "notnull", dflt_value, pk, hidden
          from pragma_table_xinfo(${row.name}) order by cid`.execute(handle.db);
        snapshot.tables[row.name] = columns.rows.map((c) => JSON.stringify(c));
        const keys = await sql<Record<string, unknown>>`select * from pragma_foreign_key_list(${row.name})
          order by id, seq`.execute(handle.db);
        for (const k of keys.rows) snapshot.other.push(`${row.name} fk ${JSON.stringify({ ...k, id: undefined })}`);
      } else if (row.type === 'index') {
        const columns = await sql<Record<string, unknown>>`select name, "desc", coll, key
          from pragma_index_xinfo(${row.name}) order by seqno`.execute(handle.db);
        snapshot.indexes[row.name] = JSON.stringify({ table: row.tbl_name, sql: row.sql, columns: columns.rows });
      } else {
        snapshot.other.push(`${row.type} ${row.name}: ${row.sql}`);
      }
    }
  } else {
    const columns = await sql<Record<string, unknown> & { table_name: string }>`
      select c.table_name, c.column_name, c.data_type, c.is_nullable, c.column_default, a.attcompression::text as compression
      from information_schema.columns c
      join pg_attribute a on a.attrelid = (quote_ident(c.table_schema) || '.' || quote_ident(c.table_name))::regclass
        and a.attname = c.column_name
      where c.table_schema = current_schema() order by c.table_name, c.column_name`.execute(handle.db);
    for (const { table_name, ...column } of columns.rows) {
      if (bookkeeping(table_name)) continue;
      (snapshot.tables[table_name] ??= []).push(JSON.stringify(column));
    }
    const indexes = await sql<{ indexname: string; tablename: string; indexdef: string }>`
      select indexname, tablename, indexdef from pg_indexes where schemaname = current_schema()`.execute(handle.db);
    for (const i of indexes.rows.filter((r) => !bookkeeping(r.tablename))) snapshot.indexes[i.indexname] = i.indexdef;
    const constraints = await sql<{ rel: string; conname: string; def: string }>`
      select cl.relname as rel, co.conname, pg_get_constraintdef(co.oid) as def
      from pg_constraint co join pg_class cl on cl.oid = co.conrelid
      where cl.relnamespace = current_schema()::regnamespace order by 1, 2`.execute(handle.db);
    for (const c of constraints.rows.filter((r) => !bookkeeping(r.rel))) {
      snapshot.other.push(`${c.rel} constraint ${c.conname}: ${c.def}`);
    }
    const triggers = await sql<{ t: string }>`select tgname || ' on ' || tgrelid::regclass::text as t
      from pg_trigger where not tgisinternal and tgrelid::regclass::text not like 'kysely_migration%'
        and (select relnamespace from pg_class where oid = tgrelid) = current_schema()::regnamespace
      order by 1`.execute(handle.db);
    for (const t of triggers.rows) snapshot.other.push(`trigger ${t.t}`);
  }
  snapshot.other.sort();
  return snapshot;
}
