import { bearer, createTestApp, usingPostgres, type TestApp } from '../../test/helpers'; // first: it makes jest able to load kysely
import { DOMAIN_DETAIL_USERS, DOMAIN_HAS_USERS_MESSAGE, type Domain, type DomainDetail } from '@qc/contracts';
import { sql } from 'kysely';
import { ensureDomain, normaliseDomainName } from './domains.service';

let t: TestApp;
const tokens: Record<string, string> = {};
const ADMIN = 'root@admin.example';
const BOSS_A = 'boss@a.example';
const ANN_A = 'ann@a.example';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

beforeAll(async () => {
  t = await createTestApp({ QC_TRUSTED_PROXIES: '127.0.0.1' });
  for (const [email, role, domain] of [
    [ADMIN, 'admin', undefined],
    [BOSS_A, 'domain_admin', 'a.example'],
    [ANN_A, 'user', 'a.example'],
  ] as const) {
    await t.createUser({ email, role, domain });
    tokens[email] = (await t.login(email)).access;
  }
});
afterAll(() => t.close());

function call(method: Method, url: string, as: string | null, payload?: object) {
  return t.app.inject({
    method,
    url,
    headers: { ...(as ? bearer(tokens[as]!) : {}), 'x-forwarded-for': '198.51.100.7' },
    ...(payload ? { payload } : {}),
  });
}

async function create(name: string, description?: string): Promise<Domain> {
  const res = await call('POST', '/api/domains/', ADMIN, { name, ...(description ? { description } : {}) });
  expect(res.statusCode).toBe(201);
  return res.json();
}

const domainCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('domains')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

interface AuditEntry {
  action: string;
  user: { email: string; role: string };
  email_id: string | null;
  target: { kind: string; id: string | null; label: string } | null;
  changes: string[] | null;
  ip_address: string | null;
  result: string;
}

async function adminHistory(as: string): Promise<AuditEntry[]> {
  const res = await call('GET', '/api/history/?category=administration&page_size=200', as);
  expect(res.statusCode).toBe(200);
  return res.json().results;
}

describe('permissions: admin only', () => {
  const routes = (id: string): [Method, string, object?][] => [
    ['GET', '/api/domains/'],
    ['POST', '/api/domains/', { name: 'perm-new.example' }],
    ['GET', `/api/domains/${id}/`],
    ['PATCH', `/api/domains/${id}/`, { description: 'changed' }],
    ['DELETE', `/api/domains/${id}/`],
  ];

  test('a domain_admin and a user get 403 on every route, anonymous 401, and nothing changes', async () => {
    const target = await create('perm.example', 'kept');
    const before = await domainCount();
    for (const [method, url, payload] of routes(target.id)) {
      for (const who of [BOSS_A, ANN_A]) {
        const res = await call(method, url, who, payload);
        expect([method, url, who, res.statusCode, res.json().code]).toEqual([method, url, who, 403, 'forbidden']);
      }
      const anonymous = await call(method, url, null, payload);
      expect([method, url, anonymous.statusCode]).toEqual([method, url, 401]);
    }
    // Refused before the body or the id is looked at: an invalid body or unknown id is still 403.
    expect((await call('POST', '/api/domains/', BOSS_A, { bogus: 1 })).statusCode).toBe(403);
    expect((await call('GET', '/api/domains/nope/', ANN_A)).statusCode).toBe(403);
    expect(await domainCount()).toBe(before);
    const detail = await call('GET', `/api/domains/${target.id}/`, ADMIN);
    expect(detail.json()).toMatchObject({ name: 'perm.example', description: 'kept' });
  });

  test('an admin may use every route', async () => {
    const target = await create('perm2.example');
    const codes = [];
    for (const [method, url, payload] of routes(target.id))
      codes.push((await call(method, url, ADMIN, payload)).statusCode);
    expect(codes).toEqual([200, 201, 200, 200, 204]);
  });
});

describe('names', () => {
  test('IDNA-normalised to lower-case A-labels without the final dot; display_name in U-labels', async () => {
    const idn = await create('Bücher.Example.', 'Books');
    expect(idn).toMatchObject({
      name: 'xn--bcher-kva.example',
      display_name: 'bücher.example',
      description: 'Books',
      users_count: 0,
    });
    expect(Date.parse(idn.created_at)).toBeGreaterThan(Date.now() - 60_000);
    expect(idn.updated_at).toBe(idn.created_at);
    expect(await create('  MiXeD.Example.COM ')).toMatchObject({
      name: 'mixed.example.com',
      display_name: 'mixed.example.com',
    });
    expect(await create('пример.рф')).toMatchObject({ name: 'xn--e1afmkfd.xn--p1ai', display_name: 'пример.рф' });
    const stored = await t.db.selectFrom('domains').select('name').where('id', '=', idn.id).executeTakeFirstOrThrow();
    expect(stored.name).toBe('xn--bcher-kva.example');
  });

  test.each([
    ['a..b'],
    ['-a.example'],
    ['a-.example'],
    ['example'],
    [`${'x'.repeat(64)}.com`],
    [`${'abcdefghi.'.repeat(25)}example`], // 259 characters
    ['exa mple.com'],
    ['a_b.example'],
    ['a.b/c.example'], // the URL parser would keep only 'a.b'
    ['a.b?c.example'],
    ['user@a.example'],
    ['a.example:25'],
    ['1.2.3.4'],
    ['xn--zz.example'], // does not decode
    ['xn--abc-.example'], // decodes to 'abc', which is no U-label
    ['xn--.example'],
    ['.example'],
    ['   '],
  ])('%j is refused with errors.name, and nothing is created', async (name) => {
    const before = await domainCount();
    const res = await call('POST', '/api/domains/', ADMIN, { name });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error', errors: { name: expect.any(String) } });
    expect(Object.keys(res.json().errors)).toEqual(['name']);
    expect(await domainCount()).toBe(before);
  });

  test('the longest valid name passes (63-character labels, 253 characters)', async () => {
    const name = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(61)}`;
    expect(name).toHaveLength(253);
    expect((await create(name)).name).toBe(name);
    expect(normaliseDomainName(`${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(62)}`)).toBeNull();
  });

  test('unknown fields, a missing name and a description too long are named', async () => {
    const unknown = await call('POST', '/api/domains/', ADMIN, { name: 'fields.example', color: 'red', users: [] });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toEqual({
      color: 'Not a field of this request.',
      users: 'Not a field of this request.',
    });
    const missing = await call('POST', '/api/domains/', ADMIN, { description: 'x' });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().errors)).toEqual(['name']);
    const long = await call('POST', '/api/domains/', ADMIN, { name: 'fields.example', description: 'x'.repeat(501) });
    expect(long.statusCode).toBe(400);
    expect(Object.keys(long.json().errors)).toEqual(['description']);
    expect(await t.db.selectFrom('domains').select('id').where('name', '=', 'fields.example').execute()).toEqual([]);
  });

  test('a duplicate is 409 domain_taken on errors.name, however it is written', async () => {
    await create('dup.example');
    await create('dürer.example');
    for (const name of ['dup.example', 'DUP.Example.', 'xn--drer-0ra.example', 'DÜRER.example']) {
      const res = await call('POST', '/api/domains/', ADMIN, { name });
      expect([name, res.statusCode, res.json().code, Object.keys(res.json().errors ?? {})]).toEqual([
        name,
        409,
        'domain_taken',
        ['name'],
      ]);
    }
  });

  test('concurrent creations of one name: one 201, the others 409 (the unique index decides)', async () => {
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => call('POST', '/api/domains/', ADMIN, { name: 'race.example' })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const created = await adminHistory(ADMIN);
    expect(created.filter((r) => r.action === 'domain_create' && r.target?.label === 'race.example')).toHaveLength(1);
  });

  test('ensureDomain (CLI, users) shares the rules and the normalisation', async () => {
    const row = await ensureDomain(t.db, 'Straße.Example');
    expect(row.name).toBe('xn--strae-oqa.example');
    expect((await ensureDomain(t.db, 'xn--strae-oqa.example.')).id).toBe(row.id);
    await expect(ensureDomain(t.db, 'not a domain')).rejects.toMatchObject({
      statusCode: 400,
      errors: { domain: 'Invalid domain name' },
    });
  });
});

describe('read, update', () => {
  test('detail: the users count and the first users by e-mail; unknown id 404', async () => {
    const d = await create('team.example');
    for (const email of ['zoe@team.example', 'bob@team.example', 'amy@team.example']) {
      await t.createUser({ email, domain: 'team.example', role: email.startsWith('amy') ? 'domain_admin' : 'user' });
    }
    const res = await call('GET', `/api/domains/${d.id}/`, ADMIN);
    expect(res.statusCode).toBe(200);
    const detail: DomainDetail = res.json();
    expect(detail).toMatchObject({ id: d.id, name: 'team.example', users_count: 3 });
    expect(detail.users.map((u) => [u.email, u.role, u.is_active])).toEqual([
      ['amy@team.example', 'domain_admin', true],
      ['bob@team.example', 'user', true],
      ['zoe@team.example', 'user', true],
    ]);
    expect(DOMAIN_DETAIL_USERS).toBeGreaterThanOrEqual(3);
    const unknown = await call('GET', '/api/domains/01HZZZZZZZZZZZZZZZZZZZZZZZ/', ADMIN);
    expect([unknown.statusCode, unknown.json().code]).toEqual([404, 'not_found']);
  });

  test('PATCH renames and describes; updated_at moves; the history names the fields changed', async () => {
    const d = await create('old-name.example', 'before');
    await t.createUser({ email: 'boss@old-name.example', role: 'domain_admin', domain: 'old-name.example' });
    const res = await call('PATCH', `/api/domains/${d.id}/`, ADMIN, { name: 'New-Name.Example', description: 'after' });
    expect(res.statusCode).toBe(200);
    const updated: Domain = res.json();
    expect(updated).toMatchObject({ id: d.id, name: 'new-name.example', description: 'after', users_count: 1 });
    expect(updated.created_at).toBe(d.created_at);
    expect(Date.parse(updated.updated_at)).toBeGreaterThan(Date.parse(d.updated_at));
    // Only what differs counts: the same name again changes nothing and writes nothing.
    const before = (await adminHistory(ADMIN)).length;
    const same = await call('PATCH', `/api/domains/${d.id}/`, ADMIN, {
      name: 'new-name.example',
      description: 'after',
    });
    expect(same.json()).toMatchObject({ updated_at: updated.updated_at });
    expect((await adminHistory(ADMIN)).length).toBe(before);
    const undescribed = await call('PATCH', `/api/domains/${d.id}/`, ADMIN, { description: '' });
    expect(undescribed.json()).toMatchObject({ name: 'new-name.example', description: '' });
    const [latest, rename] = (await adminHistory(ADMIN)).filter((r) => r.target?.label === 'new-name.example');
    expect(latest).toMatchObject({ action: 'domain_update', changes: ['description'] });
    expect(rename).toMatchObject({
      action: 'domain_update',
      target: { kind: 'domain', id: d.id, label: 'new-name.example' },
      changes: ['name', 'description'],
    });
  });

  test('PATCH refuses a taken or invalid name, unknown fields and unknown ids, and changes nothing', async () => {
    const d = await create('keep.example', 'mine');
    await create('taken.example');
    const taken = await call('PATCH', `/api/domains/${d.id}/`, ADMIN, { name: 'TAKEN.example', description: 'no' });
    expect([taken.statusCode, taken.json().code, taken.json().errors]).toEqual([
      409,
      'domain_taken',
      { name: 'Already exists' },
    ]);
    const invalid = await call('PATCH', `/api/domains/${d.id}/`, ADMIN, { name: 'a..b' });
    expect([invalid.statusCode, Object.keys(invalid.json().errors)]).toEqual([400, ['name']]);
    const unknown = await call('PATCH', `/api/domains/${d.id}/`, ADMIN, { users_count: 9 });
    expect([unknown.statusCode, unknown.json().errors]).toEqual([400, { users_count: 'Not a field of this request.' }]);
    const missing = await call('PATCH', '/api/domains/01HZZZZZZZZZZZZZZZZZZZZZZZ/', ADMIN, { description: 'x' });
    expect(missing.statusCode).toBe(404);
    expect((await call('GET', `/api/domains/${d.id}/`, ADMIN)).json()).toMatchObject({
      name: 'keep.example',
      description: 'mine',
      updated_at: d.updated_at,
    });
  });
});

describe('delete', () => {
  test('refused with spec §5’s message while the domain has users, allowed once it has none', async () => {
    const d = await create('busy.example');
    const user = await t.createUser({ email: 'only@busy.example', domain: 'busy.example' });
    const refused = await call('DELETE', `/api/domains/${d.id}/`, ADMIN);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({ detail: DOMAIN_HAS_USERS_MESSAGE, code: 'domain_has_users' });
    expect((await call('GET', `/api/domains/${d.id}/`, ADMIN)).statusCode).toBe(200);
    expect(
      (await adminHistory(ADMIN)).find((r) => r.action === 'domain_delete' && r.target?.label === 'busy.example'),
    ).toBeUndefined();

    await t.db.deleteFrom('users').where('id', '=', user.id).execute();
    expect((await call('DELETE', `/api/domains/${d.id}/`, ADMIN)).statusCode).toBe(204);
    expect((await call('GET', `/api/domains/${d.id}/`, ADMIN)).statusCode).toBe(404);
    expect((await call('DELETE', `/api/domains/${d.id}/`, ADMIN)).statusCode).toBe(404);
    const [row] = (await adminHistory(ADMIN)).filter((r) => r.target?.label === 'busy.example');
    expect(row).toMatchObject({
      action: 'domain_delete',
      target: { kind: 'domain', id: null, label: 'busy.example' },
      user: { email: ADMIN, role: 'admin' },
      email_id: null,
      result: 'success',
    });
  });

  test('a user moved into the domain while the delete runs is never orphaned: 409, both kept', async () => {
    const d = await create('racing.example');
    const mover = await t.createUser({ email: 'mover@a.example', domain: 'a.example' });
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let moved!: () => void;
    const hasMoved = new Promise<void>((resolve) => (moved = resolve));
    // Not committed yet while the DELETE starts: on PostgreSQL the DELETE's own check cannot see it.
    const move = t.db.transaction().execute(async (trx) => {
      await trx.updateTable('users').set({ domain_id: d.id }).where('id', '=', mover.id).execute();
      moved();
      await gate;
    });
    await hasMoved;
    let finished = false;
    const del = call('DELETE', `/api/domains/${d.id}/`, ADMIN).then((res) => ((finished = true), res));
    if (usingPostgres) {
      // The DELETE waits on the row lock the uncommitted move holds on the domain.
      await waitFor(async () => {
        const waiting = await sql<{ n: number }>`select count(*)::int as n from pg_stat_activity
          where wait_event_type = 'Lock' and query like 'delete from "domains"%'`.execute(t.db);
        return waiting.rows[0]!.n === 1;
      });
    } else {
      await new Promise((r) => setTimeout(r, 200)); // SQLite: one writer; the DELETE waits its turn
    }
    expect(finished).toBe(false);
    release();
    await move;
    const res = await del;
    expect([res.statusCode, res.json().code]).toEqual([409, 'domain_has_users']);
    const user = await t.db
      .selectFrom('users')
      .select('domain_id')
      .where('id', '=', mover.id)
      .executeTakeFirstOrThrow();
    expect(user.domain_id).toBe(d.id);
    expect((await call('GET', `/api/domains/${d.id}/`, ADMIN)).json()).toMatchObject({ users_count: 1 });
  });
});

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('list', () => {
  test('sorted by name, keyset pages, prefix search, users counts', async () => {
    const letters = ['c', 'a', 'g', 'e', 'b', 'f', 'd'];
    for (const l of letters) await create(`page${l}.example`);
    await t.createUser({ email: 'u1@paged.example', domain: 'paged.example' });
    await t.createUser({ email: 'u2@paged.example', domain: 'paged.example' });
    await t.createUser({ email: 'u3@pageb.example', domain: 'pageb.example' });
    const names: string[] = [];
    const counts: Record<string, number> = {};
    const sizes: number[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const res = await call('GET', `/api/domains/?q=PAGE&page_size=3&cursor=${cursor}`, ADMIN);
      expect(res.statusCode).toBe(200);
      const body: { results: Domain[]; next_cursor: string | null } = res.json();
      sizes.push(body.results.length);
      for (const d of body.results) {
        names.push(d.name);
        counts[d.name] = d.users_count;
      }
      cursor = body.next_cursor;
    }
    expect(sizes).toEqual([3, 3, 1]);
    expect(names).toEqual([...'abcdefg'].map((l) => `page${l}.example`));
    expect(counts).toMatchObject({ 'paged.example': 2, 'pageb.example': 1, 'pagea.example': 0 });
  });

  test('search: U-labels, A-labels, and LIKE wildcards taken literally', async () => {
    const search = async (q: string) =>
      ((await call('GET', `/api/domains/?q=${encodeURIComponent(q)}`, ADMIN)).json().results as Domain[]).map(
        (d) => d.name,
      );
    await create('bücherei.test');
    expect(await search('bücherei')).toEqual(['xn--bcherei-n2a.test']);
    expect(await search('XN--BCHEREI')).toEqual(['xn--bcherei-n2a.test']);
    expect(await search('%')).toEqual([]);
    expect(await search('_')).toEqual([]);
    expect(await search('nothing-like-this')).toEqual([]);
  });

  test('a bad cursor or page size is 400 naming it', async () => {
    const cursor = await call('GET', '/api/domains/?cursor=%25%25', ADMIN);
    expect([cursor.statusCode, Object.keys(cursor.json().errors)]).toEqual([400, ['cursor']]);
    const size = await call('GET', '/api/domains/?page_size=201', ADMIN);
    expect([size.statusCode, Object.keys(size.json().errors)]).toEqual([400, ['page_size']]);
    const unknown = await call('GET', '/api/domains/?sort=name', ADMIN);
    expect([unknown.statusCode, unknown.json().errors]).toEqual([400, { sort: 'Not a field of this request.' }]);
  });
});

describe('history', () => {
  test('each change is written with its actor; admins and that domain’s domain_admin read it, nobody else', async () => {
    const d = await create('audited.example', 'first');
    await t.createUser({ email: 'boss@audited.example', role: 'domain_admin', domain: 'audited.example' });
    await t.createUser({ email: 'user@audited.example', role: 'user', domain: 'audited.example' });
    for (const email of ['boss@audited.example', 'user@audited.example']) tokens[email] = (await t.login(email)).access;
    expect((await call('PATCH', `/api/domains/${d.id}/`, ADMIN, { description: 'second' })).statusCode).toBe(200);

    const mine = (rows: AuditEntry[]) => rows.filter((r) => r.target?.label === 'audited.example');
    const expected = [
      {
        action: 'domain_update',
        user: { email: ADMIN, role: 'admin' },
        target: { kind: 'domain', id: d.id, label: 'audited.example' },
        changes: ['description'],
        email_id: null,
        result: 'success',
      },
      {
        action: 'domain_create',
        target: { kind: 'domain', id: d.id, label: 'audited.example' },
        changes: null,
      },
    ];
    const forAdmin = mine(await adminHistory(ADMIN));
    expect(forAdmin).toMatchObject(expected);
    expect(forAdmin[0]!.ip_address).toBe('198.51.100.7');
    // Its domain_admin reads them (not where the admin was); a user of the domain and another
    // domain's domain_admin do not.
    const forBoss = mine(await adminHistory('boss@audited.example'));
    expect(forBoss).toMatchObject(expected);
    expect(forBoss[0]!.ip_address).toBeNull();
    expect(mine(await adminHistory('user@audited.example'))).toEqual([]);
    expect(mine(await adminHistory(BOSS_A))).toEqual([]);
    // The category filter: not among the mail actions.
    const mail = await call('GET', '/api/history/?category=mail', ADMIN);
    expect(mine(mail.json().results)).toEqual([]);
  });
});
