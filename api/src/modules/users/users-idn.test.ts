import { runCli, type CliIo } from '../../cli/run-cli';
import { bearer, createTestApp, PASSWORD, type TestApp } from '../../test/helpers';

// Issue 21 item 5: an account's e-mail is stored with its domain as A-label, whichever form it is
// given in (API, profile, CLI), and found by either form at sign-in; a local part over 64 octets
// is refused everywhere with one clear message, and changes nothing.

const TOO_LONG = 'The part before @ is at most 64 bytes';
const LONG = `${'a'.repeat(65)}@xn--bcher-kva.example`;
const LONG_UTF8 = `${'é'.repeat(33)}@a.example`; // 33 characters, 66 octets

let t: TestApp;
let admin: string;
let boss: string;
beforeAll(async () => {
  t = await createTestApp();
  await t.createUser({ email: 'root@admin.example', role: 'admin' });
  admin = (await t.login('root@admin.example')).access;
  await t.createUser({ email: 'boss@xn--bcher-kva.example', role: 'domain_admin', domain: 'xn--bcher-kva.example' });
  boss = (await t.login('boss@xn--bcher-kva.example')).access;
});
afterAll(() => t.close());

const api = (method: 'POST' | 'PATCH', url: string, token: string, payload: object) =>
  t.app.inject({ method, url, headers: bearer(token), payload });
const emails = async () =>
  (await t.db.selectFrom('users').select('email').orderBy('email').execute()).map((u) => u.email);
const emailOf = async (id: string) =>
  (await t.db.selectFrom('users').select('email').where('id', '=', id).executeTakeFirstOrThrow()).email;

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const io: CliIo = {
    env: t.env,
    cwd: t.tmpDir,
    stdout: (s) => (stdout += s),
    stderr: (s) => (stderr += s),
    readStdin: async () => '',
  };
  return { code: await runCli(args, io), stdout, stderr };
}

describe('administration API', () => {
  test('an admin creates a user with a U-label address: the A-label is stored and answered', async () => {
    const res = await api('POST', '/api/users/', admin, {
      email: 'Bea@Bücher.Example',
      role: 'user',
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().email).toBe('bea@xn--bcher-kva.example');
    expect(await emailOf(res.json().id)).toBe('bea@xn--bcher-kva.example');
    // The same mailbox in the other form is the same account.
    const again = await api('POST', '/api/users/', admin, { email: 'bea@xn--BCHER-kva.example', role: 'user' });
    expect(again.statusCode).toBe(409);
  });

  test('the domain admin of xn--bcher-kva.example may give a bücher.example address', async () => {
    const res = await api('POST', '/api/users/', boss, {
      email: 'cid@bücher.example',
      role: 'user',
      password: PASSWORD,
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().email).toBe('cid@xn--bcher-kva.example');
  });

  test('an update with a U-label address stores the A-label', async () => {
    const user = await t.createUser({ email: 'dora@a.example' });
    const res = await api('PATCH', `/api/users/${user.id}/`, admin, { email: 'Dora@Bücher.example' });
    expect(res.statusCode).toBe(200);
    expect(await emailOf(user.id)).toBe('dora@xn--bcher-kva.example');
  });

  test('a local part over 64 octets: 400 on create and update, nothing changes', async () => {
    const user = await t.createUser({ email: 'stay@a.example' });
    const before = await emails();
    for (const email of [LONG, LONG_UTF8]) {
      const created = await api('POST', '/api/users/', admin, { email, role: 'user', password: PASSWORD });
      expect(created.statusCode).toBe(400);
      expect(created.json()).toMatchObject({ code: 'validation_error', errors: { email: TOO_LONG } });
    }
    const updated = await api('PATCH', `/api/users/${user.id}/`, admin, { email: LONG });
    expect(updated.statusCode).toBe(400);
    expect(updated.json().errors).toEqual({ email: TOO_LONG });
    expect(await emails()).toEqual(before);
  });
});

describe('sign-in', () => {
  test('the U-label form signs in to the A-label account', async () => {
    await t.createUser({ email: 'eve@xn--bcher-kva.example' });
    for (const email of ['eve@bücher.example', 'Eve@BÜCHER.Example', 'eve@xn--bcher-kva.example']) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { email, password: PASSWORD },
      });
      expect([email, res.statusCode]).toEqual([email, 200]);
    }
  });

  test('a local part over 64 octets: 400 naming the field, no session', async () => {
    const sessions = async () =>
      Number(
        (
          await t.db
            .selectFrom('sessions')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await sessions();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: LONG, password: PASSWORD },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ email: TOO_LONG });
    expect(await sessions()).toBe(before);
  });
});

describe('profile', () => {
  test('an e-mail change to a U-label address waits for the A-label address; too long: 400', async () => {
    await t.createUser({ email: 'fay@a.example' });
    const { access } = await t.login('fay@a.example');
    const patch = (payload: object) => api('PATCH', '/api/users/me/', access, payload);

    const long = await patch({ email: LONG_UTF8, current_password: PASSWORD });
    expect(long.statusCode).toBe(400);
    expect(long.json().errors).toEqual({ email: TOO_LONG });
    expect(await t.db.selectFrom('email_changes').selectAll().execute()).toEqual([]);

    const res = await patch({ email: 'Fay@Bücher.example', current_password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: 'fay@a.example', pending_email: 'fay@xn--bcher-kva.example' });
  });
});

describe('command line', () => {
  test('user:create with a U-label address stores the A-label; the other commands find it by either form', async () => {
    const res = await cli([
      'user:create',
      '--email',
      'Gus@Bücher.Example',
      '--password',
      PASSWORD,
      '--role',
      'domain_admin',
      '--domain',
      'bücher.example',
    ]);
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toContain('gus@xn--bcher-kva.example');
    expect(await emails()).toContain('gus@xn--bcher-kva.example');
    const role = await cli(['user:set-role', '--email', 'gus@bücher.example', '--role', 'user']);
    expect(role).toMatchObject({ code: 0, stdout: expect.stringContaining('gus@xn--bcher-kva.example is now user') });
  });

  test('user:create with a local part over 64 octets: exit 1 with the reason, no user', async () => {
    const before = await emails();
    for (const email of [LONG, LONG_UTF8]) {
      const res = await cli(['user:create', '--email', email, '--password', PASSWORD, '--role', 'user']);
      expect(res).toMatchObject({ code: 1, stderr: expect.stringContaining(TOO_LONG) });
    }
    expect(await emails()).toEqual(before);
  });
});
