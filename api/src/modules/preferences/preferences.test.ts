import { StoredPreferences } from '@qc/contracts';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const get = (access: string) =>
  t.app.inject({ method: 'GET', url: '/api/users/me/preferences/', headers: bearer(access) });
const put = (access: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/users/me/preferences/',
    headers: bearer(access),
    payload: payload as object,
  });

test('defaults until saved; a saved copy follows the user to another sign-in; users do not share it', async () => {
  await t.createUser({ email: 'prefs@example.com' });
  await t.createUser({ email: 'neighbour@example.com' });
  const { access } = await t.login('prefs@example.com');
  const first = await get(access);
  expect(first.statusCode).toBe(200);
  expect(first.json()).toEqual({ theme_mode: 'light', default_page_size: 50, updated_at: null });

  const saved = await put(access, { theme_mode: 'dark', default_page_size: 200 });
  expect(saved.statusCode).toBe(200);
  expect(StoredPreferences.strict().parse(saved.json())).toMatchObject({ theme_mode: 'dark', default_page_size: 200 });
  expect(Date.parse(saved.json().updated_at)).toBeGreaterThan(Date.now() - 60_000);

  const elsewhere = await t.login('prefs@example.com'); // "another browser"
  expect((await get(elsewhere.access)).json()).toEqual(saved.json());
  expect((await put(elsewhere.access, { theme_mode: 'system', default_page_size: 10 })).statusCode).toBe(200);
  expect((await get(access)).json()).toMatchObject({ theme_mode: 'system', default_page_size: 10 });

  const { access: other } = await t.login('neighbour@example.com');
  expect((await get(other)).json()).toEqual({ theme_mode: 'light', default_page_size: 50, updated_at: null });
  // Saving the defaults is a choice: it is dated.
  expect((await put(other, { theme_mode: 'light', default_page_size: 50 })).json().updated_at).not.toBeNull();
});

test('validation: theme and page size from the lists only, both required', async () => {
  await t.createUser({ email: 'prefs-bad@example.com' });
  const { access } = await t.login('prefs-bad@example.com');
  const cases: [unknown, string[]][] = [
    [{ theme_mode: 'blue', default_page_size: 50 }, ['theme_mode']],
    [{ theme_mode: 'dark', default_page_size: 30 }, ['default_page_size']],
    [{ theme_mode: 'dark', default_page_size: '50' }, ['default_page_size']],
    [{ theme_mode: 'dark' }, ['default_page_size']],
    [{}, ['default_page_size', 'theme_mode']],
  ];
  for (const [payload, fields] of cases) {
    const res = await put(access, payload);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_error');
    expect(Object.keys(res.json().errors).sort()).toEqual(fields);
  }
  for (const size of [10, 20, 50, 100, 200]) {
    expect((await put(access, { theme_mode: 'light', default_page_size: size })).statusCode).toBe(200);
  }
  expect((await get(access)).json()).toMatchObject({ theme_mode: 'light', default_page_size: 200 });
});

test('anonymous → 401', async () => {
  expect((await t.app.inject({ method: 'GET', url: '/api/users/me/preferences/' })).statusCode).toBe(401);
  const res = await t.app.inject({
    method: 'PUT',
    url: '/api/users/me/preferences/',
    payload: { theme_mode: 'dark', default_page_size: 50 },
  });
  expect(res.statusCode).toBe(401);
});
