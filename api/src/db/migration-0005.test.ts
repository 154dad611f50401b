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

test('0005 backfills each recipient’s days (the same as a rebuild), and can be undone', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migrator(handle);
    expect((await m.migrateTo('0004_statistics_retention')).error).toBeUndefined();
    // Rows as issue 5 stored them (with its rollup kept): two days, three statuses, a message without a score.
    await insertFixture(handle, FIXTURE_MESSAGES, [
      ...FIXTURE_RECIPIENTS,
      ['m3', 'ann@a.example', 'deleted', D1 + DAY + 60_000, D1 + DAY + 70_000],
    ]);
    await rebuildStatistics(handle.db);
    await handle.db.deleteFrom('quarantine_daily').where('scope', '=', 'recipient').execute();
    const before = await daily(handle); // global and domain days only, as 0004 kept them

    expect((await m.migrateTo('0005_recipient_statistics')).error).toBeUndefined();
    const backfilled = await daily(handle);
    expect(backfilled.filter((r) => r.scope !== 'recipient')).toEqual(before);
    const pick = (id: string, day: number) =>
      backfilled.find((r) => r.scope === 'recipient' && r.scope_id === id && Number(r.day) === day);
    expect(backfilled.filter((r) => r.scope === 'recipient')).toHaveLength(5);
    expect(pick('ann@a.example', D1)).toMatchObject({ quarantined: 2, risk_low: 1, risk_high: 1, released: 0 });
    expect(pick('ann@a.example', D1 + DAY)).toMatchObject({ quarantined: 1, released: 1, deleted: 1, risk_low: 0 });
    expect(pick('bob@a.example', D1 + DAY)).toMatchObject({ quarantined: 1, risk_low: 0, risk_critical: 0 });
    expect(pick('carl@b.example', D1)).toMatchObject({ quarantined: 1, risk_high: 1, deleted: 0 });
    expect(pick('carl@b.example', D1 + 2 * DAY)).toMatchObject({ quarantined: 0, deleted: 1 });
    // The same as the repair job computes.
    await rebuildStatistics(handle.db);
    expect(await daily(handle)).toEqual(backfilled);

    expect((await m.migrateTo('0004_statistics_retention')).error).toBeUndefined();
    expect(await daily(handle)).toEqual(before);
    expect((await m.migrateTo('0005_recipient_statistics')).error).toBeUndefined();
    expect(await daily(handle)).toEqual(backfilled);
  }));
