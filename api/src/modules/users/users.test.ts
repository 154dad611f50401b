import { CurrentUser } from '@qc/contracts';
import { bearer, createTestApp, PASSWORD, type TestApp } from '../../test/helpers';
import { createUser, setPassword, setRole } from './users.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const me = (access: string) => t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });

test('GET /api/users/me/: the DESIGN §4 shape, with the domain', async () => {
  const row = await t.createUser({
    email: 'da@corp.example',
    role: 'domain_admin',
    domain: 'Corp.Example',
    username: 'dana',
    first_name: 'Dana',
    last_name: 'Admin',
  });
  const res = await me((await t.login('da@corp.example')).access);
  expect(res.statusCode).toBe(200);
  const body = res.json();
  expect(CurrentUser.strict().parse(body)).toEqual(body); // exactly these keys
  expect(body).toEqual({
    id: row.id,
    username: 'dana',
    email: 'da@corp.example',
    first_name: 'Dana',
    last_name: 'Admin',
    role: 'domain_admin',
    domain: { id: expect.any(String), name: 'corp.example' },
    is_external: false,
    mfa_enabled: false,
    date_joined: new Date(row.date_joined).toISOString(),
    pending_email: null,
    source: 'local',
    addresses: ['da@corp.example'],
  });
  expect(body).not.toHaveProperty('password_hash');
});

test('a user without a domain: domain null; username defaults to the local part', async () => {
  await t.createUser({ email: 'solo@example.com' });
  const body = (await me((await t.login('solo@example.com')).access)).json();
  expect(body).toMatchObject({ username: 'solo', role: 'user', domain: null });
});

test('without a token → 401 in the error shape', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/users/me/' });
  expect(res.statusCode).toBe(401);
  expect(res.json()).toEqual({ detail: expect.any(String), code: 'not_authenticated' });
});

describe('users.service', () => {
  const deps = () => ({ db: t.db, passwords: t.passwords });

  test('passwords are argon2id hashes', async () => {
    const row = await t.createUser({ email: 'hash@example.com' });
    expect(row.password_hash).toMatch(/^\$argon2id\$/);
    expect(row.password_hash).not.toContain(PASSWORD);
  });

  test('rejects bad input with per-field errors', async () => {
    await expect(createUser(deps(), { email: 'nope', password: 'short', role: 'boss' })).rejects.toMatchObject({
      statusCode: 400,
      errors: { email: expect.any(String), password: expect.any(String), role: expect.any(String) },
    });
    await expect(
      createUser(deps(), { email: 'da2@example.com', password: PASSWORD, role: 'domain_admin' }),
    ).rejects.toMatchObject({
      errors: { domain: 'A domain admin needs a domain' },
    });
  });

  test('e-mails are unique, whatever their case', async () => {
    await t.createUser({ email: 'dup@example.com' });
    await expect(t.createUser({ email: 'DUP@example.com' })).rejects.toMatchObject({
      statusCode: 409,
      code: 'email_taken',
    });
  });

  test('a password or role change ends the sessions at once', async () => {
    await t.createUser({ email: 'changer@example.com' });
    const a = await t.login('changer@example.com');
    await setPassword(deps(), 'changer@example.com', 'a new long password');
    expect((await me(a.access)).statusCode).toBe(401);
    const b = await t.login('changer@example.com', 'a new long password');
    await setRole(deps(), 'changer@example.com', 'domain_admin', 'changer.example');
    expect((await me(b.access)).statusCode).toBe(401);
    const c = await t.login('changer@example.com', 'a new long password');
    expect((await me(c.access)).json()).toMatchObject({ role: 'domain_admin', domain: { name: 'changer.example' } });
  });
});
