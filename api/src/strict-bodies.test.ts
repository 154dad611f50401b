import { duplicateKey } from './lib/strict-json';
import { bearer, createMfaUser, createTestApp, PASSWORD, type TestApp } from './test/helpers';

// Issue 21 items 6 (strict bodies: unknown fields, duplicate keys) and 7 (an encoded /api prefix).

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ email: 'ann@example.com' });
  token = (await t.login('ann@example.com')).access;
});
afterAll(() => t.close());

const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } });

describe('duplicate keys (item 6)', () => {
  test('a login with two password keys is refused with 400, whichever comes first', async () => {
    for (const body of [
      `{"email":"ann@example.com","password":"wrong","password":"${PASSWORD}"}`,
      `{"email":"ann@example.com","password":"${PASSWORD}","password":"wrong"}`,
      `{"email":"ann@example.com","password":"wrong","pass\\u0077ord":"${PASSWORD}"}`,
    ]) {
      const res = await post('/api/auth/login/', body);
      expect([body, res.statusCode]).toEqual([body, 400]);
      expect(res.json()).toEqual({
        detail: expect.any(String),
        code: 'validation_error',
        errors: { password: 'Given more than once.' },
      });
    }
    // The same body without the duplicate signs in.
    expect((await post('/api/auth/login/', `{"email":"ann@example.com","password":"${PASSWORD}"}`)).statusCode).toBe(
      200,
    );
  });

  test('a duplicate inside a nested object is refused too; equal keys in sibling objects are not duplicates', async () => {
    expect(duplicateKey('{"a":{"b":1,"b":2}}')).toBe('b');
    expect(duplicateKey('[{"a":1},{"a":2}]')).toBeNull();
    expect(duplicateKey('{"a":{"x":1},"b":{"x":1}}')).toBeNull();
    expect(duplicateKey('{"a":"\\"a\\":","b":["a","a"]}')).toBeNull(); // keys inside strings and arrays
    expect(duplicateKey('{"a" : 1, "a"\n: 2}')).toBe('a');
    const res = t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '{"first_name":"Ann","first_name":"Eve"}',
    });
    expect((await res).statusCode).toBe(400);
  });

  test('the check costs little: a 900 KB body is scanned in well under the parse budget', () => {
    const big = JSON.stringify({
      items: Array.from({ length: 20_000 }, (_, i) => ({ id: `x${i}`, v: 'y'.repeat(20) })),
    });
    expect(big.length).toBeGreaterThan(800_000);
    const start = process.hrtime.bigint();
    expect(duplicateKey(big)).toBeNull();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    expect(ms).toBeLessThan(500); // ~10 ms on an idle machine; generous for a busy one
  });
});

describe('unknown fields (item 6)', () => {
  test('sign-in with an unknown field → 400 naming it', async () => {
    const res = await post(
      '/api/auth/login/',
      JSON.stringify({ email: 'ann@example.com', password: PASSWORD, role: 'admin' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error', errors: { role: 'Not a field of this request.' } });
  });

  test('verify-totp with an unknown field → 400, and the challenge is still usable', async () => {
    const mfa = await createMfaUser(t, 'mfa-strict@example.com');
    const challenge = (await t.login(mfa.email)) as unknown as { partial_token: string };
    const res = await post(
      '/api/auth/verify-totp/',
      JSON.stringify({ partial_token: challenge.partial_token, backup_code: mfa.backupCodes[0], remember: true }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_error');
    const ok = await post(
      '/api/auth/verify-totp/',
      JSON.stringify({ partial_token: challenge.partial_token, backup_code: mfa.backupCodes[0] }),
    );
    expect(ok.statusCode).toBe(200);
  });

  test('refresh and logout with an unknown field → 400', async () => {
    const { refresh } = await t.login('ann@example.com');
    for (const url of ['/api/auth/refresh/', '/api/auth/logout/']) {
      const res = await post(url, JSON.stringify({ refresh, extra: 1 }));
      expect([url, res.statusCode]).toEqual([url, 400]);
    }
  });
});

describe('a percent-encoded /api prefix (item 7)', () => {
  test.each(['/%61pi/users/me/', '/%61%70%69/users/me/', '/api/%75sers/me/'])(
    '%s gets the api headers, as /api/users/me/ does',
    async (url) => {
      const plain = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(token) });
      const encoded = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(encoded.statusCode).toBe(200);
      expect(encoded.json()).toEqual(plain.json());
      for (const header of ['cache-control', 'content-security-policy', 'x-content-type-options', 'x-frame-options']) {
        expect([header, encoded.headers[header]]).toEqual([header, plain.headers[header]]);
      }
      expect(encoded.headers['cache-control']).toMatch(/private/);
    },
  );

  test('the repeated-parameter guard holds on an encoded prefix', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/%61pi/quarantine/?status=held&status=released',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error', errors: { status: 'Given more than once.' } });
  });

  test('an unknown encoded api path is the api 404, not the console page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/%61pi/nope/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });
});
