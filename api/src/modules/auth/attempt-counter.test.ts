import { createTestEnv, type TestEnv } from '../../test/helpers'; // first: it makes jest able to load kysely
import { loadConfig } from '../../config';
import { openMigratedDatabase, type DatabaseHandle } from '../../db/database';
import { countAttempt, createAttemptCounter, createAttemptCounters, pruneExpiredAttempts } from './attempt-counter';

let env: TestEnv;
let handle: DatabaseHandle;
beforeAll(async () => {
  env = await createTestEnv();
  handle = await openMigratedDatabase(loadConfig(env.env, env.tmpDir).database);
});
afterAll(async () => {
  await handle.close();
  await env.cleanup();
});

const T0 = Date.parse('2026-03-01T12:00:00Z');
const row = (key: string) => handle.db.selectFrom('rate_limits').selectAll().where('key', '=', key).executeTakeFirst();

test('max attempts pass; the next ones wait until the window (opened by the first attempt) ends', async () => {
  const count = createAttemptCounter(handle.db, { name: 'basic', max: 3, windowSeconds: 60 });
  expect(await count('k', T0)).toBe(0);
  expect(await count('k', T0 + 1_000)).toBe(0);
  expect(await count('k', T0 + 2_000)).toBe(0);
  expect(await count('k', T0 + 10_500)).toBe(50); // 49.5 s left, rounded up
  expect(await count('k', T0 + 59_999)).toBe(1); // never 0 while over the limit
  expect(await row('basic:k')).toEqual({ key: 'basic:k', count: 5, window_ends_at: T0 + 60_000 });
});

test('after the window ends, counting starts again at 1', async () => {
  const count = createAttemptCounter(handle.db, { name: 'again', max: 1, windowSeconds: 60 });
  expect(await count('k', T0)).toBe(0);
  expect(await count('k', T0 + 30_000)).toBe(30);
  expect(await count('k', T0 + 60_000)).toBe(0);
  expect(await row('again:k')).toEqual({ key: 'again:k', count: 1, window_ends_at: T0 + 120_000 });
  expect(await count('k', T0 + 61_000)).toBe(59);
});

test('keys, and the same key of two limiters, are counted apart', async () => {
  const a = createAttemptCounter(handle.db, { name: 'a', max: 1, windowSeconds: 60 });
  const b = createAttemptCounter(handle.db, { name: 'b', max: 1, windowSeconds: 60 });
  expect(await a('x', T0)).toBe(0);
  expect(await a('y', T0)).toBe(0);
  expect(await b('x', T0)).toBe(0);
  expect(await a('x', T0)).toBe(60);
  expect(await b('y', T0)).toBe(0);
});

test('concurrent attempts on one key are each counted once', async () => {
  const counts = await Promise.all(Array.from({ length: 12 }, () => countAttempt(handle.db, 'race', T0, 60_000)));
  expect(counts.map((r) => r.count).sort((x, y) => x - y)).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
});

test('prune removes only the rows whose window has ended', async () => {
  await handle.db.deleteFrom('rate_limits').execute();
  await countAttempt(handle.db, 'ended', T0, 1_000);
  await countAttempt(handle.db, 'ends-now', T0 + 1_000, 9_000);
  await countAttempt(handle.db, 'open', T0, 60_000);
  expect(await pruneExpiredAttempts(handle.db, T0 + 10_000)).toBe(2);
  const keys = await handle.db.selectFrom('rate_limits').select('key').execute();
  expect(keys).toEqual([{ key: 'open' }]);
});

test('several limits on one attempt are counted in one statement, each with its own max and window', async () => {
  const count = createAttemptCounters(handle.db, [
    { name: 'multi-ip', max: 2, windowSeconds: 60 },
    { name: 'multi-account', max: 1, windowSeconds: 30 },
  ]);
  expect(await count(['1.2.3.4', 'ann'], T0)).toEqual([0, 0]);
  expect(await count(['1.2.3.4', 'bob'], T0 + 1_000)).toEqual([0, 0]);
  expect(await count(['1.2.3.4', 'ann'], T0 + 2_000)).toEqual([58, 28]);
  expect(await row('multi-ip:1.2.3.4')).toEqual({ key: 'multi-ip:1.2.3.4', count: 3, window_ends_at: T0 + 60_000 });
  expect(await row('multi-account:ann')).toEqual({ key: 'multi-account:ann', count: 2, window_ends_at: T0 + 30_000 });
  // The account's shorter window ends first; the address is still over its limit.
  expect(await count(['1.2.3.4', 'ann'], T0 + 30_000)).toEqual([30, 0]);
});
