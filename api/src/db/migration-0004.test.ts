import { createTestEnv } from '../test/helpers'; // first: it makes jest able to load kysely
import { sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { loadConfig } from '../config';
import { rebuildStatistics } from '../modules/statistics/statistics.repository';
import { openDatabase, type DatabaseHandle } from './database';
import { migrationProvider } from './migrations';

const DAY = 86_400_000;
const D1 = Date.parse('2026-03-01T00:00:00Z');

async function migrator(handle: DatabaseHandle) {
  const schema =
    handle.dialect === 'postgres'
      ? (await sql<{ schema: string }>`select current_schema() as schema`.execute(handle.db)).rows[0]?.schema
      : undefined;
  return new Migrator({ db: handle.db, provider: migrationProvider, migrationTableSchema: schema });
}

const daily = (handle: DatabaseHandle) =>
  handle.db.selectFrom('quarantine_daily').selectAll().orderBy('scope').orderBy('scope_id').orderBy('day').execute();

test('0004 backfills the per-day statistics from the rows stored before it, and can be undone', async () => {
  const env = await createTestEnv();
  const handle = openDatabase(loadConfig(env.env, env.tmpDir).database);
  try {
    const m = await migrator(handle);
    expect((await m.migrateTo('0003_quarantine')).error).toBeUndefined();
    // Rows as issue 4 stored them: two days, three statuses, one message without a score.
    const messages: [string, number, number | null][] = [
      ['m1', D1 + 3600_000, 2],
      ['m2', D1 + 7200_000, 12],
      ['m3', D1 + DAY + 60_000, null],
    ];
    for (const [id, at, score] of messages) {
      await sql`insert into quarantine_messages (id, received_at, sender, score, action, size, created_at)
        values (${id}, ${at}, 's@x.example', ${score}, 'reject', 10, ${at})`.execute(handle.db);
    }
    const rows: [string, string, string, number, number][] = [
      ['m1', 'ann@a.example', 'pending', D1 + 3600_000, D1 + 3600_000],
      ['m2', 'ann@a.example', 'released', D1 + 7200_000, D1 + DAY + 5],
      ['m2', 'carl@b.example', 'deleted', D1 + 7200_000, D1 + 2 * DAY + 5],
      ['m3', 'bob@a.example', 'pending', D1 + DAY + 60_000, D1 + DAY + 60_000],
    ];
    for (const [id, rcpt, status, at, updated] of rows) {
      await sql`insert into quarantine_recipients (message_id, recipient, domain, status, received_at, updated_at)
        values (${id}, ${rcpt}, ${rcpt.split('@')[1]}, ${status}, ${at}, ${updated})`.execute(handle.db);
    }

    expect((await m.migrateToLatest()).error).toBeUndefined();
    const backfilled = await daily(handle);
    const pick = (scope: string, id: string, day: number) =>
      backfilled.find((r) => r.scope === scope && r.scope_id === id && Number(r.day) === day);
    expect(pick('global', '*', D1)).toMatchObject({ quarantined: 3, risk_low: 1, risk_high: 2, released: 0 });
    expect(pick('global', '*', D1 + DAY)).toMatchObject({ quarantined: 1, released: 1, risk_low: 0 });
    expect(pick('domain', 'b.example', D1 + 2 * DAY)).toMatchObject({ quarantined: 0, deleted: 1 });
    expect(pick('domain', 'a.example', D1)).toMatchObject({ quarantined: 2, risk_low: 1, risk_high: 1 });
    // The same as the repair job computes.
    await rebuildStatistics(handle.db);
    expect(await daily(handle)).toEqual(backfilled);

    expect((await m.migrateDown()).error).toBeUndefined();
    const tables = (await handle.db.introspection.getTables()).map((t) => t.name);
    expect(tables).not.toContain('quarantine_daily');
    expect(tables).not.toContain('job_locks');
    expect((await m.migrateToLatest()).error).toBeUndefined();
    expect(await daily(handle)).toEqual(backfilled);
  } finally {
    await handle.close();
    await env.cleanup();
  }
});
