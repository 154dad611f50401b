// First: the test helpers it loads make jest able to load kysely.
import {
  D1,
  DAY,
  dailyRows as daily,
  FIXTURE_MESSAGES,
  FIXTURE_RECIPIENTS,
  insertFixture,
  migratorFor as migrator,
  withEmptyDatabase,
} from '../test/migrations';
import { rebuildStatistics } from '../modules/statistics/statistics.repository';

test('0004 backfills the per-day statistics from the rows stored before it, and can be undone', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migrator(handle);
    expect((await m.migrateTo('0003_quarantine')).error).toBeUndefined();
    // Rows as issue 4 stored them: two days, three statuses, one message without a score.
    await insertFixture(handle, FIXTURE_MESSAGES, FIXTURE_RECIPIENTS);

    expect((await m.migrateTo('0004_statistics_retention')).error).toBeUndefined();
    const backfilled = await daily(handle);
    const pick = (scope: string, id: string, day: number) =>
      backfilled.find((r) => r.scope === scope && r.scope_id === id && Number(r.day) === day);
    expect(pick('global', '*', D1)).toMatchObject({ quarantined: 3, risk_low: 1, risk_high: 2, released: 0 });
    expect(pick('global', '*', D1 + DAY)).toMatchObject({ quarantined: 1, released: 1, risk_low: 0 });
    expect(pick('domain', 'b.example', D1 + 2 * DAY)).toMatchObject({ quarantined: 0, deleted: 1 });
    expect(pick('domain', 'a.example', D1)).toMatchObject({ quarantined: 2, risk_low: 1, risk_high: 1 });
    // The same as the repair job computes (which adds the recipient days of 0005).
    await rebuildStatistics(handle.db);
    expect((await daily(handle)).filter((r) => r.scope !== 'recipient')).toEqual(backfilled);
    await handle.db.deleteFrom('quarantine_daily').where('scope', '=', 'recipient').execute();

    expect((await m.migrateDown()).error).toBeUndefined();
    const tables = (await handle.db.introspection.getTables()).map((t) => t.name);
    expect(tables).not.toContain('quarantine_daily');
    expect(tables).not.toContain('job_locks');
    expect((await m.migrateTo('0004_statistics_retention')).error).toBeUndefined();
    expect(await daily(handle)).toEqual(backfilled);
  }));
