import { createTestApp, PASSWORD, type TestApp } from '../../test/helpers';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../app';
import { loadConfig } from '../../config';
import { openMigratedDatabase } from '../../db/database';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({
    QC_LOGIN_RATE_ACCOUNT_MAX: '3',
    QC_LOGIN_RATE_IP_MAX: '5',
    QC_LOGIN_RATE_WINDOW: '600',
    QC_TRUSTED_PROXIES: '10.0.0.1',
  });
  await t.createUser({ email: 'victim@example.com' });
});
afterAll(() => t.close());

const login = (email: string, password: string, remoteAddress: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password }, remoteAddress, headers });

test('per account: failed attempts count; then 429 even with the right password, from any IP', async () => {
  for (let i = 0; i < 3; i++) {
    expect((await login('victim@example.com', 'guess', `192.0.2.${i + 1}`)).statusCode).toBe(401);
  }
  const blocked = await login('Victim@Example.com', PASSWORD, '192.0.2.50');
  expect(blocked.statusCode).toBe(429);
  expect(blocked.json()).toEqual({ detail: expect.any(String), code: 'rate_limited' });
  const retryAfter = Number(blocked.headers['retry-after']);
  expect(retryAfter).toBeGreaterThan(500);
  expect(retryAfter).toBeLessThanOrEqual(600);
});

test("a stranger's wrong passwords do not lock out a browser that signed in to the account before", async () => {
  await t.createUser({ email: 'owner@example.com' });
  const first = await login('owner@example.com', PASSWORD, '192.0.2.60');
  expect(first.statusCode).toBe(200);
  const cookie = String(first.headers['set-cookie']);
  expect(cookie).toMatch(
    /^qc_device=[^;]+; Path=\/api\/auth\/login\/; Max-Age=\d+; HttpOnly; SameSite=Strict; Secure$/,
  );
  const proof = cookie.split(';')[0]!;
  // Someone else spends the account's budget (and gets no proof for it)…
  for (let i = 0; i < 3; i++) {
    const res = await login('owner@example.com', 'guess', `203.0.113.${i + 10}`);
    expect([res.statusCode, res.headers['set-cookie']]).toEqual([401, undefined]);
  }
  expect((await login('owner@example.com', PASSWORD, '203.0.113.20')).statusCode).toBe(429);
  // …the owner's browser still signs in, on a budget of its own.
  expect((await login('owner@example.com', PASSWORD, '192.0.2.61', { cookie: proof })).statusCode).toBe(200);
  // A proof is for its account only, and cannot be forged.
  expect((await login('victim@example.com', PASSWORD, '192.0.2.62', { cookie: proof })).statusCode).toBe(429);
  const forged = proof.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
  expect((await login('owner@example.com', PASSWORD, '192.0.2.63', { cookie: forged })).statusCode).toBe(429);
  // Its own budget is limited too: guessing from a stolen proof is no faster.
  const statuses = [];
  for (let i = 0; i < 4; i++)
    statuses.push((await login('owner@example.com', 'guess', '192.0.2.64', { cookie: proof })).statusCode);
  expect(statuses).toEqual([401, 401, 401, 429]);
});

test("each browser's budget is its own: one holder spending theirs does not lock out another", async () => {
  await t.createUser({ email: 'twodevices@example.com' });
  const proofOf = async (ip: string) =>
    String((await login('twodevices@example.com', PASSWORD, ip)).headers['set-cookie']).split(';')[0]!;
  const laptop = await proofOf('192.0.2.80');
  const phone = await proofOf('192.0.2.81');
  expect(laptop).not.toBe(phone);
  const statuses = [];
  for (let i = 0; i < 4; i++) {
    statuses.push((await login('twodevices@example.com', 'guess', '192.0.2.82', { cookie: laptop })).statusCode);
  }
  expect(statuses).toEqual([401, 401, 401, 429]);
  expect((await login('twodevices@example.com', PASSWORD, '192.0.2.83', { cookie: phone })).statusCode).toBe(200);
});

test('sign-ins that succeed give their attempt back: signing in often locks nobody out', async () => {
  await t.createUser({ email: 'frequent@example.com' });
  for (let i = 0; i < 6; i++)
    expect((await login('frequent@example.com', PASSWORD, '192.0.2.70')).statusCode).toBe(200);
  // The failures still count, on the account and on the address.
  const statuses = [];
  for (let i = 0; i < 4; i++) statuses.push((await login('frequent@example.com', 'guess', '192.0.2.71')).statusCode);
  expect(statuses).toEqual([401, 401, 401, 429]);
});

test('per IP: many accounts from one address → 429; another address is unaffected', async () => {
  const ip = '198.51.100.7';
  for (let i = 0; i < 5; i++) expect((await login(`spray${i}@example.com`, 'guess', ip)).statusCode).toBe(401);
  const blocked = await login('spray9@example.com', 'guess', ip);
  expect(blocked.statusCode).toBe(429);
  expect(blocked.headers['retry-after']).toBeDefined();
  expect((await login('spray9@example.com', 'guess', '198.51.100.8')).statusCode).toBe(401);
});

test('X-Forwarded-For counts only from a trusted proxy', async () => {
  // Through the trusted proxy, each client address has its own budget…
  for (let i = 0; i < 6; i++) {
    const res = await login(`proxied${i}@example.com`, 'guess', '10.0.0.1', { 'x-forwarded-for': `203.0.113.${i}` });
    expect(res.statusCode).toBe(401);
  }
  // …while a forged header from anyone else is ignored: the peer address is limited.
  const statuses = [];
  for (let i = 0; i < 6; i++) {
    const res = await login(`forged${i}@example.com`, 'guess', '192.0.2.200', {
      'x-forwarded-for': `203.0.113.${100 + i}`,
    });
    statuses.push(res.statusCode);
  }
  expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
});

/** Another api instance (its own connection, as another process or replica) on the test app's database. */
async function secondInstance(): Promise<FastifyInstance> {
  const config = loadConfig(t.env, t.tmpDir);
  const app = await buildApp(config, { database: await openMigratedDatabase(config.database) });
  await app.ready();
  return app;
}

test('two api instances on one database share the sign-in limit', async () => {
  await t.createUser({ email: 'shared@example.com' });
  const other = await secondInstance();
  try {
    const instances = [t.app, other];
    const statuses = [];
    for (let i = 0; i < 5; i++) {
      const res = await instances[i % 2]!.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { email: 'shared@example.com', password: i < 3 ? 'guess' : PASSWORD },
        remoteAddress: `192.0.2.${100 + i}`,
      });
      statuses.push(res.statusCode);
    }
    // QC_LOGIN_RATE_ACCOUNT_MAX=3 in all: alone, each instance would have let the right password in.
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  } finally {
    await other.close();
  }
});

test('X-Forwarded-For without QC_TRUSTED_PROXIES: a warning in the log, once (every client would be the proxy)', async () => {
  const config = loadConfig({ ...t.env, QC_TRUSTED_PROXIES: '', QC_LOG_LEVEL: 'warn' }, t.tmpDir);
  const lines: string[] = [];
  const app = await buildApp(config, {
    database: await openMigratedDatabase(config.database),
    logStream: { write: (line) => void lines.push(line) },
  });
  try {
    await app.inject({ method: 'GET', url: '/api/health/' });
    expect(lines.join('')).not.toContain('QC_TRUSTED_PROXIES');
    for (let i = 0; i < 2; i++) {
      await app.inject({ method: 'GET', url: '/api/health/', headers: { 'x-forwarded-for': '203.0.113.9' } });
    }
    expect(lines.filter((l) => l.includes('QC_TRUSTED_PROXIES is empty'))).toHaveLength(1);
  } finally {
    await app.close();
  }
});
