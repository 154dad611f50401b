// First: the test helpers it loads make jest able to load kysely.
import { migratorFor, withEmptyDatabase } from '../test/migrations';
import { sql } from 'kysely';

test('0007 creates the rate_limits table (an upsert counts in it); undone by down', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0007_rate_limits')).error).toBeUndefined();
    await handle.db
      .insertInto('rate_limits')
      .values({ key: 'ip:192.0.2.1', count: 1, window_ends_at: 2 ** 41 })
      .execute();
    await sql`insert into rate_limits (key, count, window_ends_at) values ('ip:192.0.2.1', 1, 0)
      on conflict (key) do update set count = rate_limits.count + 1`.execute(handle.db);
    expect(await handle.db.selectFrom('rate_limits').selectAll().execute()).toEqual([
      { key: 'ip:192.0.2.1', count: 2, window_ends_at: 2 ** 41 },
    ]);
    expect((await m.migrateDown()).error).toBeUndefined();
    // The error's message, not toThrow: better-sqlite3's errors may come from another realm than jest's Error.
    const gone = await sql`select count(*) from rate_limits`.execute(handle.db).then(
      () => 'still there',
      (err: Error) => err.message,
    );
    expect(gone).toMatch(/rate_limits/);
    expect((await m.migrateToLatest()).error).toBeUndefined();
  }));
