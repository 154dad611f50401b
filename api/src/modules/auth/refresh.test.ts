import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import { hashRefreshToken } from './refresh-tokens';

let t: TestApp;
beforeAll(async () => {
  // A 1-second grace keeps the "after grace" cases fast; the default (30 s) is checked in config.test.ts.
  t = await createTestApp({ QC_REFRESH_GRACE: '1' });
});
afterAll(() => t.close());

const refresh = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh/', payload: { refresh: token } });
const logout = (token: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url: '/api/auth/logout/', payload: { refresh: token }, headers });
const me = (access: string) => t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let n = 0;
async function signIn() {
  const email = `r${++n}@example.com`;
  await t.createUser({ email });
  return t.login(email);
}

test('rotation: a new pair; the new tokens work', async () => {
  const first = await signIn();
  const res = await refresh(first.refresh);
  expect(res.statusCode).toBe(200);
  const second = res.json();
  expect(second.refresh).not.toBe(first.refresh);
  expect(second.access).not.toBe(first.access);
  expect((await me(second.access)).statusCode).toBe(200);
  expect((await refresh(second.refresh)).statusCode).toBe(200);
});

test('reuse within the grace period returns the very same pair', async () => {
  const first = await signIn();
  const second = (await refresh(first.refresh)).json();
  const again = await refresh(first.refresh);
  expect(again.statusCode).toBe(200);
  expect(again.json()).toEqual(second);
  expect((await me(second.access)).statusCode).toBe(200);
});

test('two concurrent refreshes with one token get the same pair', async () => {
  const first = await signIn();
  const [a, b] = await Promise.all([refresh(first.refresh), refresh(first.refresh)]);
  expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
  expect(a.json()).toEqual(b.json());
});

test('reuse after the grace period revokes the whole family, newest tokens included', async () => {
  const first = await signIn();
  const second = (await refresh(first.refresh)).json();
  const third = (await refresh(second.refresh)).json();
  await sleep(1100);
  const reuse = await refresh(first.refresh);
  expect(reuse.statusCode).toBe(401);
  expect(reuse.json().code).toBe('token_reused');
  expect((await refresh(third.refresh)).statusCode).toBe(401);
  expect((await me(third.access)).statusCode).toBe(401);
});

test('a sign-in of the same user in another family is not affected by that revocation', async () => {
  await t.createUser({ email: 'twice@example.com' });
  const tab = await t.login('twice@example.com');
  const other = await t.login('twice@example.com');
  await refresh(tab.refresh);
  await sleep(1100);
  expect((await refresh(tab.refresh)).statusCode).toBe(401);
  expect((await me(other.access)).statusCode).toBe(200);
  expect((await refresh(other.refresh)).statusCode).toBe(200);
});

test('unknown and expired refresh tokens → 401', async () => {
  const unknown = await refresh('x'.repeat(43));
  expect(unknown.statusCode).toBe(401);
  expect(unknown.json().code).toBe('token_invalid');

  const pair = await signIn();
  await t.db
    .updateTable('sessions')
    .set({ expires_at: Date.now() - 1000 })
    .where('refresh_hash', '=', hashRefreshToken(pair.refresh))
    .execute();
  const expired = await refresh(pair.refresh);
  expect(expired.statusCode).toBe(401);
  expect(expired.json().code).toBe('token_expired');
});

test('a sign-in used every day still ends 30 days (QC_SESSION_MAX_AGE) after the password was given', async () => {
  const DAY = 24 * 3600 * 1000;
  const signedIn = Date.now();
  let pair = await signIn();
  const now = jest.spyOn(Date, 'now');
  try {
    // Each rotation's lifetime (14 days) is cut back to the sign-in's end once that comes first.
    for (const day of [10, 20, 29]) {
      now.mockReturnValue(signedIn + day * DAY);
      const res = await refresh(pair.refresh);
      expect([day, res.statusCode]).toEqual([day, 200]);
      pair = res.json();
      const row = await t.db
        .selectFrom('sessions')
        .select('expires_at')
        .where('refresh_hash', '=', hashRefreshToken(pair.refresh))
        .executeTakeFirstOrThrow();
      const expected = Math.min(signedIn + (day + 14) * DAY, signedIn + 30 * DAY);
      expect(Math.abs(Number(row.expires_at) - expected)).toBeLessThan(5_000);
    }
    now.mockReturnValue(signedIn + 30 * DAY + 5_000);
    const late = await refresh(pair.refresh);
    expect([late.statusCode, late.json().code]).toEqual([401, 'token_expired']);
  } finally {
    now.mockRestore();
  }
});

test('the stored grace pair is encrypted: no token appears in the database', async () => {
  const first = await signIn();
  const second = (await refresh(first.refresh)).json();
  const rows = await t.db.selectFrom('sessions').selectAll().execute();
  const dump = JSON.stringify(rows);
  for (const token of [first.refresh, second.refresh, second.access]) expect(dump).not.toContain(token);
});

test('logout: 204, and the access and refresh tokens stop working at once', async () => {
  const first = await signIn();
  const second = (await refresh(first.refresh)).json();
  expect((await me(second.access)).statusCode).toBe(200);
  const res = await logout(second.refresh);
  expect(res.statusCode).toBe(204);
  expect(res.body).toBe('');
  expect((await me(second.access)).statusCode).toBe(401);
  expect((await refresh(second.refresh)).statusCode).toBe(401);
  // Even the old token within its grace period yields nothing now.
  expect((await refresh(first.refresh)).statusCode).toBe(401);
});

test('logout with an access token ends that sign-in too; unknown refresh is still 204', async () => {
  const pair = await signIn();
  const res = await logout('y'.repeat(43), bearer(pair.access));
  expect(res.statusCode).toBe(204);
  expect((await me(pair.access)).statusCode).toBe(401);
  expect((await refresh(pair.refresh)).statusCode).toBe(401);
});

test('refresh and logout validate their body', async () => {
  const res = await t.app.inject({ method: 'POST', url: '/api/auth/refresh/', payload: {} });
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({ code: 'validation_error', errors: { refresh: expect.any(String) } });
});
