import { AdminUser, CurrentUser, DirectorySettings, DirectoryTestResult } from '@qc/contracts';
import { bearer, countUsers, createTestApp, PASSWORD, type TestApp } from '../../test/helpers';
import net from 'node:net';
import { closedPort, createTestDirectory, silentServer, urlAddress, type TestDirectory } from '../../test/ldap';
import { ensureDomain } from '../domains/domains.service';

/**
 * Sign-in through a real OpenLDAP (issue 31): provisioning, refresh at each sign-in and each token
 * refresh, refusals that change nothing, and local accounts beside it. The directory is this file's
 * own subtree of the shared test slapd (scripts/ldap.sh, api/src/test/ldap.ts).
 */
let dir: TestDirectory;
let t: TestApp;
const lines: string[] = [];
let adminToken: string;

beforeAll(async () => {
  dir = await createTestDirectory();
  t = await createTestApp(
    { ...dir.env, QC_MFA_REQUIRED_ROLES: 'none', QC_LOG_LEVEL: 'info' },
    { logStream: { write: (line) => void lines.push(line) } },
  );
  await ensureDomain(t.db, 'example.com');
  await t.createUser({ email: 'root@local.example', role: 'admin' });
  adminToken = (await t.login('root@local.example')).access;
});
afterAll(async () => {
  await t?.close();
  await dir?.cleanup();
});

const signIn = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password } });
const me = (access: string) => t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });
const refresh = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh/', payload: { refresh: token } });
const userCount = () => countUsers(t.db);
const byEmail = (email: string) => t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
const testLogin = (login: string, token = adminToken) =>
  t.app.inject({ method: 'POST', url: '/api/admin/directory/test/', headers: bearer(token), payload: { login } });

describe('first sign-in', () => {
  test('Admin → Directory test before: would create, foreign alias not kept; nothing created', async () => {
    const before = await userCount();
    const res = await testLogin('alice@example.com');
    expect(res.statusCode).toBe(200);
    const body = DirectoryTestResult.parse(res.json());
    expect(body).toMatchObject({
      outcome: 'create',
      refusal: null,
      primary: 'alice@example.com',
      role: 'user',
      domain: 'example.com',
    });
    expect(body.addresses).toContainEqual({
      address: 'alice@elsewhere.test',
      kept: false,
      reason: 'outside_domains',
      owner: null,
    });
    expect(await userCount()).toBe(before);
  });

  test('creates the account: source ldap, addresses in console domains only, role and domain; no console password', async () => {
    const res = await signIn('alice@example.com', dir.password('alice'));
    expect(res.statusCode).toBe(200);
    const user = CurrentUser.strict().parse((await me(res.json().access)).json());
    expect(user).toMatchObject({ source: 'ldap', role: 'user', domain: { name: 'example.com' }, is_external: true });
    expect(user.addresses).toEqual(['alice@example.com', 'alice.smith@example.com', 'sales@example.com']);
    expect((await byEmail('alice@example.com'))!.password_hash).toBe('');
    const change = await t.app.inject({
      method: 'POST',
      url: '/api/users/me/password/',
      headers: bearer(res.json().access),
      payload: { current_password: dir.password('alice'), new_password: 'another long password' },
    });
    expect(change.statusCode).toBe(400);
    expect(change.json().code).toBe('directory_managed');
  });

  test('a group gives the role: domain_admin, admin', async () => {
    const bob = await signIn('bob@example.com', dir.password('bob'));
    expect((await me(bob.json().access)).json()).toMatchObject({
      role: 'domain_admin',
      domain: { name: 'example.com' },
    });
    const carol = await signIn('carol@example.com', dir.password('carol'));
    expect((await me(carol.json().access)).json().role).toBe('admin');
  });

  test('an Active Directory person (proxyAddresses, no mail) signs in by their SMTP: address', async () => {
    const res = await signIn('frank@example.com', dir.password('frank'));
    // The default filter looks at mail and uid: frank has no mail, so the uid branch never matches an address.
    expect(res.statusCode).toBe(401);
  });

  test('none of the addresses in a console domain: 403 directory_no_domain, nothing created', async () => {
    const before = await userCount();
    const res = await signIn('erin@elsewhere.test', dir.password('erin'));
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('directory_no_domain');
    expect(await userCount()).toBe(before);
  });

  test('an address another account owns: 403 directory_address_conflict, named in the log, nothing created', async () => {
    await dir.addPerson('gina', { mail: 'gina@example.com', mailAlternateAddress: 'root-alias@example.com' });
    const owner = await t.createUser({ email: 'root-alias@example.com' });
    const before = await userCount();
    const res = await signIn('gina@example.com', 'gina-pass');
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('directory_address_conflict');
    expect(res.body).not.toContain('root-alias'); // the person is not told whose
    expect(await userCount()).toBe(before);
    expect(lines.some((l) => l.includes('directory_address_conflict') && l.includes('root-alias@example.com'))).toBe(
      true,
    );
    const test = DirectoryTestResult.parse((await testLogin('gina@example.com')).json());
    expect(test).toMatchObject({ outcome: 'refused', refusal: 'directory_address_conflict' });
    expect(test.addresses).toContainEqual({
      address: 'root-alias@example.com',
      kept: false,
      reason: 'taken',
      owner: owner.email,
    });
  });
});

describe('one person, one account', () => {
  test("another person who lists someone's address as theirs never gets that account; the log names it", async () => {
    // mallory's mail is outside the console, alice's address only an alias: without the check the
    // "renamed person" fallback would hand alice's account over.
    await dir.addPerson('mallory', { mail: 'mallory@elsewhere.test', mailAlternateAddress: 'alice@example.com' });
    const alice = (await signIn('alice@example.com', dir.password('alice'))).json();
    const before = (await byEmail('alice@example.com'))!;
    const res = await signIn('mallory@elsewhere.test', 'mallory-pass');
    expect([res.statusCode, res.json().code]).toEqual([403, 'directory_address_conflict']);
    expect(await byEmail('alice@example.com')).toEqual(before);
    expect((await me(alice.access)).json().source).toBe('ldap');
    expect((await refresh(alice.refresh)).statusCode).toBe(200);
  });

  test('a person renamed in the directory (old DN gone) keeps their account; the old sessions end', async () => {
    await dir.addPerson('olga', { mail: 'olga@example.com' });
    const first = (await signIn('olga@example.com', 'olga-pass')).json();
    const account = (await byEmail('olga@example.com'))!;
    await dir.deletePerson('olga');
    await dir.addPerson('olga2', { mail: 'olga@example.com' });
    const again = await signIn('olga@example.com', 'olga2-pass');
    expect(again.statusCode).toBe(200);
    expect((await byEmail('olga@example.com'))!).toMatchObject({
      id: account.id,
      external_id: expect.stringContaining('uid=olga2,'),
    });
    expect((await me(first.access)).statusCode).toBe(401);
  });

  test('the same first sign-in twice at once (a double click): one account, both signed in', async () => {
    await dir.addPerson('pat', { mail: 'pat@example.com', mailAlternateAddress: 'pat.x@example.com' });
    const [a, b] = await Promise.all([signIn('pat@example.com', 'pat-pass'), signIn('pat@example.com', 'pat-pass')]);
    expect([a.statusCode, b.statusCode]).toEqual([200, 200]);
    const rows = await t.db.selectFrom('users').select('id').where('email', '=', 'pat@example.com').execute();
    expect(rows).toHaveLength(1);
  });

  test('a directory account has no console password: no invitation, and no sign-in by password without the directory', async () => {
    const alice = (await byEmail('alice@example.com'))!;
    const invite = await t.app.inject({
      method: 'POST',
      url: `/api/users/${alice.id}/invitation/`,
      headers: bearer(adminToken),
    });
    expect([invite.statusCode, invite.json().code]).toEqual([409, 'invitation_not_pending']);
    const item = AdminUser.parse(
      (await t.app.inject({ method: 'GET', url: `/api/users/${alice.id}/`, headers: bearer(adminToken) })).json(),
    );
    expect(item.invitation_pending).toBe(false);
    // The same database without QC_LDAP_URL (say, a replica configured without it), even with a hash set.
    await t.db
      .updateTable('users')
      .set({ password_hash: await t.passwords.hash(PASSWORD) })
      .where('id', '=', alice.id)
      .execute();
    const plain = await createTestApp({
      QC_DATABASE_URL: t.env.QC_DATABASE_URL ?? '',
      QC_DATA_DIR: t.env.QC_DATA_DIR!,
      QC_SECRET_KEY: t.env.QC_SECRET_KEY!,
    });
    try {
      const res = await plain.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { email: 'alice@example.com', password: PASSWORD },
      });
      expect(res.statusCode).toBe(401);
    } finally {
      await plain.close(); // its own (unused) schema and folder go; this file's database stays
    }
    await t.db.updateTable('users').set({ password_hash: '' }).where('id', '=', alice.id).execute();
  });
});

describe('refused before or by the directory, the same as a local account', () => {
  test('wrong password, unknown person, two people with one address: 401 invalid_credentials', async () => {
    for (const [email, password] of [
      ['alice@example.com', 'wrong password'],
      ['nobody@example.com', 'whatever'],
      ['team@example.com', dir.password('ivan')],
      ['dave@example.com', dir.password('dave')], // locked in the directory
    ] as const) {
      const res = await signIn(email, password);
      expect([email, res.statusCode, res.json().code]).toEqual([email, 401, 'invalid_credentials']);
    }
  });

  test('injection in the login never matches anyone; an empty password never binds', async () => {
    const before = await userCount();
    for (const login of [
      '*@example.com',
      'a*@example.com',
      '*)(uid=*@example.com',
      'x)(|(uid=*@example.com',
      'alice@example.com*',
    ]) {
      const res = await signIn(login, 'anything');
      expect([login, res.statusCode]).toEqual([login, expect.any(Number)]);
      expect([login, res.statusCode === 400 || res.statusCode === 401]).toEqual([login, true]);
    }
    for (const login of [')(uid=*))(|(uid=*', '\u0000@example.com', `${'a'.repeat(1000)}@example.com`, '*']) {
      expect((await signIn(login, 'anything')).statusCode).toBe(400);
    }
    expect((await signIn('alice@example.com', '')).statusCode).toBe(400);
    expect((await signIn('alice@example.com', '   ')).statusCode).toBe(401);
    expect(await userCount()).toBe(before);
  });

  test('a local account beside the directory keeps its own password', async () => {
    expect((await signIn('root@local.example', PASSWORD)).statusCode).toBe(200);
    expect((await signIn('root@local.example', 'wrong')).statusCode).toBe(401);
  });
});

describe('each sign-in and each token refresh follows the directory', () => {
  test('removed from the admin group: loses admin at once (sessions end), the next sign-in is domain_admin', async () => {
    const first = (await signIn('carol@example.com', dir.password('carol'))).json();
    await dir.setGroupMembers('qc-admins', ['dave']); // a groupOfNames keeps one member
    expect((await refresh(first.refresh)).statusCode).toBe(401);
    expect((await me(first.access)).statusCode).toBe(401);
    const again = await signIn('carol@example.com', dir.password('carol'));
    expect((await me(again.json().access)).json().role).toBe('domain_admin');
    const history = await t.db
      .selectFrom('history')
      .select(['action', 'actor_email', 'changes'])
      .where('target_label', '=', 'carol@example.com')
      .where('action', '=', 'user_update')
      .execute();
    expect(history).toContainEqual({ action: 'user_update', actor_email: 'directory', changes: '["role"]' });
  });

  test('new aliases in the directory: the next sign-in has them', async () => {
    await dir.setAttribute('alice', 'mailAlternateAddress', ['alice.s@example.com']);
    const res = await signIn('alice@example.com', dir.password('alice'));
    expect((await me(res.json().access)).json().addresses).toEqual(['alice@example.com', 'alice.s@example.com']);
  });

  test('disabled in the directory: the session ends at its next refresh; sign-in refused', async () => {
    const session = (await signIn('bob@example.com', dir.password('bob'))).json();
    const ok = await refresh(session.refresh);
    expect(ok.statusCode).toBe(200);
    await dir.disable('bob');
    expect((await refresh(ok.json().refresh)).statusCode).toBe(401);
    expect((await me(ok.json().access)).statusCode).toBe(401);
    expect((await signIn('bob@example.com', dir.password('bob'))).statusCode).toBe(401);
  });

  test('removed from the directory: the session ends at its next refresh', async () => {
    await dir.addPerson('hank', { mail: 'hank@example.com' });
    const session = (await signIn('hank@example.com', 'hank-pass')).json();
    await dir.deletePerson('hank');
    expect((await refresh(session.refresh)).statusCode).toBe(401);
    expect((await me(session.access)).statusCode).toBe(401);
  });

  test("the console's MFA policy applies to directory users", async () => {
    await t.db.updateTable('users').set({ mfa_required: 1 }).where('email', '=', 'alice@example.com').execute();
    const res = await signIn('alice@example.com', dir.password('alice'));
    expect(res.json()).toEqual({ requires_2fa_setup: true, partial_token: expect.any(String) });
    await t.db.updateTable('users').set({ mfa_required: 0 }).where('email', '=', 'alice@example.com').execute();
  });

  test('an admin cannot change what the directory sets; the users list shows source and addresses', async () => {
    const alice = (await byEmail('alice@example.com'))!;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `/api/users/${alice.id}/`,
      headers: bearer(adminToken),
      payload: { email: 'other@example.com' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('directory_managed');
    const list = await t.app.inject({ method: 'GET', url: '/api/users/?q=alice', headers: bearer(adminToken) });
    const item = AdminUser.parse(list.json().results[0]);
    expect(item).toMatchObject({ source: 'ldap', addresses: ['alice@example.com', 'alice.s@example.com'] });
  });
});

describe('Admin → Directory', () => {
  test('the settings in force, the service password never shown; admin only', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/admin/directory/', headers: bearer(adminToken) });
    const body = DirectorySettings.strict().parse(res.json());
    expect(body).toMatchObject({ enabled: true, bind_password_set: true, user_base: dir.userBase });
    expect(res.body).not.toContain(dir.config.bindPassword!);
    const user = (await signIn('alice@example.com', dir.password('alice'))).json();
    expect(
      (await t.app.inject({ method: 'GET', url: '/api/admin/directory/', headers: bearer(user.access) })).statusCode,
    ).toBe(403);
    expect((await testLogin('alice@example.com', user.access)).statusCode).toBe(403);
  });

  test('a person already signed in: update; unknown: not_found', async () => {
    expect((await testLogin('alice@example.com')).json()).toMatchObject({
      outcome: 'update',
      user_id: expect.any(String),
    });
    expect((await testLogin('nobody@example.com')).json()).toMatchObject({ outcome: 'not_found', dn: null });
  });
});

describe('the directory down or slow', () => {
  test('down: 503 directory_unavailable; local accounts sign in; sessions are kept at refresh', async () => {
    const session = (await signIn('alice@example.com', dir.password('alice'))).json();
    const down = await createTestApp({ ...dir.env, QC_LDAP_URL: `ldap://127.0.0.1:${await closedPort()}` });
    try {
      // The same database is not shared: this app has its own; the refusal and the local sign-in are what count.
      await down.createUser({ email: 'local@local.example' });
      const res = await down.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { email: 'alice@example.com', password: dir.password('alice') },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('directory_unavailable');
      expect((await down.login('local@local.example')).access).toEqual(expect.any(String));
      const settings = await down.app.inject({
        method: 'POST',
        url: '/api/admin/directory/test/',
        headers: bearer((await down.login('local@local.example')).access),
        payload: { login: 'alice@example.com' },
      });
      expect(settings.statusCode).toBe(403); // a user; the admin's 503 is below
    } finally {
      await down.close();
    }
    expect((await refresh(session.refresh)).statusCode).toBe(200);
  });

  test('slow: 503 after the timeout, no socket left open', async () => {
    const silent = await silentServer();
    const slow = await createTestApp({
      ...dir.env,
      QC_LDAP_URL: `ldap://127.0.0.1:${silent.port}`,
      QC_LDAP_TIMEOUT_MS: '300',
    });
    try {
      await slow.createUser({ email: 'root@local.example', role: 'admin' });
      const started = Date.now();
      const res = await slow.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { email: 'alice@example.com', password: 'x' },
      });
      expect(res.statusCode).toBe(503);
      expect(Date.now() - started).toBeLessThan(10_000);
      const admin = (await slow.login('root@local.example')).access;
      const test = await slow.app.inject({
        method: 'POST',
        url: '/api/admin/directory/test/',
        headers: bearer(admin),
        payload: { login: 'alice@example.com' },
      });
      expect([test.statusCode, test.json().code]).toEqual([503, 'directory_unavailable']);
    } finally {
      await slow.close();
    }
    expect(await silent.drained(5_000)).toBe(0);
    await silent.close();
  });

  test('slow at every step, each under the timeout: 503 once the timeout has passed for the whole sign-in', async () => {
    // Every packet waits 300 ms each way: each step (service bind, search, the person's bind)
    // answers within the 900 ms timeout, but the three would take about 1.8 s.
    const target = urlAddress(dir.env.QC_LDAP_URL!);
    const slowRelay = net.createServer((client) => {
      const upstream = net.connect(target.port, target.host);
      const later = (to: net.Socket) => (chunk: Buffer) => void setTimeout(() => to.writable && to.write(chunk), 300);
      client.on('data', later(upstream));
      upstream.on('data', later(client));
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', end).on('close', end);
      upstream.on('error', end).on('close', end);
    });
    await new Promise<void>((resolve) => slowRelay.listen(0, '127.0.0.1', () => resolve()));
    const port = (slowRelay.address() as net.AddressInfo).port;
    const slow = await createTestApp({
      ...dir.env,
      QC_LDAP_URL: `ldap://127.0.0.1:${port}`,
      QC_LDAP_TIMEOUT_MS: '900',
    });
    try {
      await ensureDomain(slow.db, 'example.com');
      const started = Date.now();
      const res = await slow.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { email: 'alice@example.com', password: dir.password('alice') },
      });
      const took = Date.now() - started;
      expect([res.statusCode, res.json().code]).toEqual([503, 'directory_unavailable']);
      expect(took).toBeGreaterThanOrEqual(850);
      expect(took).toBeLessThan(1_700); // the three steps alone would answer after about 1.8 s
    } finally {
      await slow.close();
      slowRelay.close();
    }
  });

  test('not configured: the settings say so, the test is 409', async () => {
    const none = await createTestApp();
    try {
      await none.createUser({ email: 'root@local.example', role: 'admin' });
      const admin = (await none.login('root@local.example')).access;
      const settings = await none.app.inject({ method: 'GET', url: '/api/admin/directory/', headers: bearer(admin) });
      expect(settings.json()).toMatchObject({ enabled: false, url: null });
      const test = await none.app.inject({
        method: 'POST',
        url: '/api/admin/directory/test/',
        headers: bearer(admin),
        payload: { login: 'alice@example.com' },
      });
      expect([test.statusCode, test.json().code]).toEqual([409, 'directory_not_configured']);
    } finally {
      await none.close();
    }
  });
});
