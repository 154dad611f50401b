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
