import { createTestApp, PASSWORD, sqliteOnly } from '../../test/helpers'; // first: it makes jest able to load kysely
import SqliteDatabase from 'better-sqlite3';
import { DATABASE_RETRY_AFTER_S, isDatabaseUnavailable } from '../../lib/error-handler';
import { pingDatabase, PING_TIMEOUT_MS } from './health.repository';

test('200 while the database answers, 503 when it does not', async () => {
  const t = await createTestApp();
  try {
    const ok = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ status: 'ok' });

    await t.database.close(); // the app keeps running without its database
    const down = await t.app.inject({ method: 'GET', url: '/api/health/' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ detail: expect.any(String), code: 'database_unavailable' });
  } finally {
    await t.close();
  }
});

test('a database that hangs is reported down within the ping timeout (2 s), not waited for', async () => {
  const t = await createTestApp();
  // The app's own database, whose queries are sent and never answered.
  const hung = {
    getExecutor: () =>
      new Proxy(t.db.getExecutor(), {
        get(target, key) {
          if (key === 'executeQuery') return () => new Promise(() => {});
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      }),
  };
  jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate'] });
  try {
    const ping = pingDatabase(hung as never, PING_TIMEOUT_MS).catch((err: unknown) => err);
    await jest.advanceTimersByTimeAsync(PING_TIMEOUT_MS - 1);
    let settled = false;
    void ping.then(() => (settled = true));
    await Promise.resolve();
    expect(settled).toBe(false);
    await jest.advanceTimersByTimeAsync(1);
    expect(String(await ping)).toMatch(/did not answer within 2000 ms/);
  } finally {
    jest.useRealTimers();
    await t.close();
  }
});

sqliteOnly(
  'any route answers 503 database_unavailable with Retry-After while the database cannot be written, then recovers',
  async () => {
    const t = await createTestApp();
    const { file } = t.config.database as { file: string };
    const other = new SqliteDatabase(file);
    try {
      await t.createUser({ email: 'held@example.com' });
      other.exec('begin immediate'); // another process holds the write lock past busy_timeout (5 s)
      const held = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { email: 'held@example.com', password: PASSWORD },
      });
      expect([held.statusCode, held.headers['retry-after'], held.json().code]).toEqual([
        503,
        String(DATABASE_RETRY_AFTER_S),
        'database_unavailable',
      ]);
      other.exec('rollback');
      expect((await t.login('held@example.com')).access).toEqual(expect.any(String));
    } finally {
      other.close();
      await t.close();
    }
  },
  20_000,
);

test('database errors that mean "not reachable for now" are told from the others', () => {
  for (const code of ['ECONNREFUSED', '57P01', '08006', 'SQLITE_BUSY', 'SQLITE_FULL', 'SQLITE_IOERR_WRITE']) {
    expect([code, isDatabaseUnavailable(Object.assign(new Error('x'), { code }))]).toEqual([code, true]);
  }
  expect(isDatabaseUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  for (const code of ['23505', '42P01', 'SQLITE_CONSTRAINT_UNIQUE', 'SQLITE_ERROR', undefined]) {
    expect([code, isDatabaseUnavailable(Object.assign(new Error('x'), { code }))]).toEqual([code, false]);
  }
});
