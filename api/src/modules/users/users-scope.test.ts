import type { AdminUser } from '@qc/contracts';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import type { UserRow } from './users.repository';

// Who may do what on /api/users/ (issue 16): an admin manages everyone; a domain_admin only the
// `user`s of their own domain; a user nothing. Outside one's scope a user does not exist (404),
// on every {id} route, and nothing about them changes.

let t: TestApp;
const rows: Record<string, UserRow> = {};
const tokens: Record<string, string> = {};
let domainA: string;
let domainB: string;

const PEOPLE = [
  ['admin', 'root@admin.example', 'admin', undefined],
  ['admin2', 'second@admin.example', 'admin', undefined],
  ['daA', 'boss@a.example', 'domain_admin', 'a.example'],
  ['daA2', 'deputy@a.example', 'domain_admin', 'a.example'],
  ['userA', 'ann@a.example', 'user', 'a.example'],
  ['userA2', 'abe@a.example', 'user', 'a.example'],
  ['daB', 'boss@b.example', 'domain_admin', 'b.example'],
  ['userB', 'bob@b.example', 'user', 'b.example'],
  ['loner', 'solo@nowhere.example', 'user', undefined],
] as const;
type Person = (typeof PEOPLE)[number][0];

beforeAll(async () => {
  t = await createTestApp();
  for (const [key, email, role, domain] of PEOPLE) {
    rows[key] = await t.createUser({ email, role, domain });
    tokens[key] = (await t.login(email)).access;
  }
  domainA = rows.userA!.domain_id!;
  domainB = rows.userB!.domain_id!;
});
afterAll(() => t.close());

const call = (who: Person, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: object) =>
  t.app.inject({ method, url, headers: bearer(tokens[who]!), ...(payload && { payload }) });

/** Every {id} route, with a body that would change something (or nothing harmful) if it were allowed. */
const ID_ROUTES = [
  ['GET', ''],
  ['PATCH', '', { first_name: 'Changed' }],
  ['DELETE', ''],
  ['POST', 'mfa/reset/'],
  ['POST', 'invitation/'],
] as const;

const snapshot = async () =>
  t.db.selectFrom('users').select(['id', 'first_name', 'role', 'domain_id']).orderBy('id').execute();

describe('outside the caller’s scope: 404 on every {id} route, nothing changes', () => {
  const OUTSIDE: [Person, Person[]][] = [
    ['daA', ['admin', 'admin2', 'daA', 'daA2', 'daB', 'userB', 'loner']],
    ['daB', ['admin', 'daA', 'daA2', 'userA', 'userA2', 'loner', 'daB']],
  ];
  test.each(OUTSIDE)('%s', async (caller, targets) => {
    const before = await snapshot();
    for (const target of targets) {
      for (const [method, path, payload] of ID_ROUTES) {
        const res = await call(caller, method, `/api/users/${rows[target]!.id}/${path}`, payload);
        expect([target, method, path, res.statusCode, res.json().code]).toEqual([
          target,
          method,
          path,
          404,
          'not_found',
        ]);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  test('an unknown or malformed id is 404 for an admin too', async () => {
    for (const id of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', 'nope', '1']) {
      for (const [method, path, payload] of ID_ROUTES) {
        const res = await call('admin', method, `/api/users/${id}/${path}`, payload);
        expect([id, method, path, res.statusCode]).toEqual([id, method, path, 404]);
      }
    }
  });
});

describe('inside the scope', () => {
  test('a domain_admin reads and updates their domain’s users; an admin anyone', async () => {
    for (const [caller, target] of [
      ['daA', 'userA'],
      ['daB', 'userB'],
      ['admin', 'daA2'],
      ['admin', 'admin2'],
      ['admin', 'loner'],
    ] as [Person, Person][]) {
      const id = rows[target]!.id;
      const read = await call(caller, 'GET', `/api/users/${id}/`);
      expect([caller, target, read.statusCode]).toEqual([caller, target, 200]);
      expect(read.json<AdminUser>().email).toBe(rows[target]!.email);
      const patched = await call(caller, 'PATCH', `/api/users/${id}/`, { last_name: `by ${caller}` });
      expect([caller, target, patched.statusCode, patched.json().last_name]).toEqual([
        caller,
        target,
        200,
        `by ${caller}`,
      ]);
      // The route is reached: this user has a password, so there is no invitation to send again.
      const resend = await call(caller, 'POST', `/api/users/${id}/invitation/`);
      expect([caller, target, resend.statusCode, resend.json().code]).toEqual([
        caller,
        target,
        409,
        'invitation_not_pending',
      ]);
    }
  });

  test('lists: an admin sees everyone; a domain_admin only their domain’s users', async () => {
    const emails = async (who: Person) => {
      const res = await call(who, 'GET', '/api/users/?page_size=200');
      expect(res.statusCode).toBe(200);
      return res.json<{ results: AdminUser[] }>().results.map((u) => u.email);
    };
    expect(await emails('admin')).toEqual(PEOPLE.map((p) => p[1]).sort());
    expect(await emails('daA')).toEqual(['abe@a.example', 'ann@a.example']);
    expect(await emails('daB')).toEqual(['bob@b.example']);
    // Filters cannot widen it: another domain, or another role, is simply nothing.
    for (const query of [`domain=${domainB}`, 'role=admin', 'role=domain_admin', `domain=${domainA}&role=user`]) {
      const res = await call('daA', 'GET', `/api/users/?${query}`);
      expect([query, res.json().results.length]).toEqual([query, query.endsWith('role=user') ? 2 : 0]);
    }
  });
});

describe('a user gets 403 on every route here', () => {
  test('list, create and every {id} route, even on themselves, whatever the body', async () => {
    const before = await snapshot();
    const list = await call('userA', 'GET', '/api/users/?role=bogus');
    expect([list.statusCode, list.json().code]).toEqual([403, 'forbidden']);
    const create = await call('userA', 'POST', '/api/users/', { email: 'new@a.example', role: 'user' });
    expect(create.statusCode).toBe(403);
    for (const target of ['userA', 'userA2', 'daA'] as Person[]) {
      for (const [method, path, payload] of ID_ROUTES) {
        const res = await call('userA', method, `/api/users/${rows[target]!.id}/${path}`, payload);
        expect([target, method, path, res.statusCode]).toEqual([target, method, path, 403]);
      }
    }
    expect(await snapshot()).toEqual(before);
  });

  test('without a token: 401', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/users/' });
    expect(res.statusCode).toBe(401);
  });
});

describe('a domain_admin’s forbidden moves: 403, nothing created or changed', () => {
  test('creating an admin, a domain_admin, or a user of another domain', async () => {
    const count = async () => (await t.db.selectFrom('users').select('id').execute()).length;
    const before = await count();
    for (const body of [
      { email: 'x1@a.example', role: 'admin', password: 'long enough password' },
      { email: 'x2@a.example', role: 'domain_admin', password: 'long enough password' },
      { email: 'x3@b.example', role: 'user', domain_id: domainB, password: 'long enough password' },
    ]) {
      const res = await call('daA', 'POST', '/api/users/', body);
      expect([body.email, res.statusCode, res.json().code]).toEqual([body.email, 403, 'forbidden']);
    }
    expect(await count()).toBe(before);
  });

  test('creating a user: the domain left out (or given as theirs) is theirs', async () => {
    const omitted = await call('daA', 'POST', '/api/users/', {
      email: 'y1@a.example',
      role: 'user',
      password: 'long enough password',
    });
    expect(omitted.statusCode).toBe(201);
    expect(omitted.json().domain).toEqual({ id: domainA, name: 'a.example' });
    const explicit = await call('daA', 'POST', '/api/users/', {
      email: 'y2@a.example',
      role: 'user',
      domain_id: domainA,
      password: 'long enough password',
    });
    expect([explicit.statusCode, explicit.json().domain.id]).toEqual([201, domainA]);
  });

  test('changing a role or a domain (an unchanged value is accepted, so a whole form can be sent)', async () => {
    const id = rows.userA2!.id;
    for (const body of [{ role: 'domain_admin' }, { role: 'admin' }, { domain_id: domainB }, { domain_id: null }]) {
      const res = await call('daA', 'PATCH', `/api/users/${id}/`, { ...body, first_name: 'Nope' });
      expect([body, res.statusCode]).toEqual([body, 403]);
    }
    const same = await call('daA', 'PATCH', `/api/users/${id}/`, {
      role: 'user',
      domain_id: domainA,
      first_name: 'Ok',
    });
    expect([same.statusCode, same.json().first_name]).toEqual([200, 'Ok']);
  });
});

describe('the history of these changes, and who reads it', () => {
  test('admin reads all; the domain_admins of the target’s domain read theirs; others nothing', async () => {
    const since = new Date().toISOString();
    const made = await call('admin', 'POST', '/api/users/', {
      email: 'hist@a.example',
      role: 'user',
      domain_id: domainA,
      password: 'long enough password',
    });
    const id = made.json().id as string;
    expect((await call('daA', 'PATCH', `/api/users/${id}/`, { last_name: 'Audited' })).statusCode).toBe(200);
    expect((await call('admin', 'POST', `/api/users/${id}/mfa/reset/`)).statusCode).toBe(204);
    expect(
      (await call('admin', 'PATCH', `/api/users/${rows.admin2!.id}/`, { last_name: 'Elsewhere' })).statusCode,
    ).toBe(200);
    expect((await call('daA', 'DELETE', `/api/users/${id}/`)).statusCode).toBe(204);

    const seen = async (who: Person) => {
      const res = await call(
        who,
        'GET',
        `/api/history/?category=administration&date_from=${encodeURIComponent(since)}`,
      );
      expect(res.statusCode).toBe(200);
      const results = res.json().results as { action: string; user: { email: string }; target: { label: string } }[];
      // As a set: rows of the same millisecond have no fixed order.
      return results.map((r) => [r.action, r.user.email, r.target.label]).sort();
    };
    const onHist = [
      ['user_create', 'root@admin.example', 'hist@a.example'],
      ['user_update', 'boss@a.example', 'hist@a.example'],
      ['mfa_reset', 'root@admin.example', 'hist@a.example'],
    ];
    const deleted = ['user_delete', 'boss@a.example', 'hist@a.example'];
    const sorted = (list: string[][]) => [...list].sort();
    expect(await seen('admin')).toEqual(
      sorted([...onHist, ['user_update', 'root@admin.example', 'second@admin.example'], deleted]),
    );
    expect(await seen('daA')).toEqual(sorted([...onHist, deleted]));
    expect(await seen('daA2')).toEqual(sorted([...onHist, deleted]));
    expect(await seen('daB')).toEqual([]);
    expect(await seen('userB')).toEqual([]);
    // The changed fields are named; a domain_admin's own change carries their domain.
    const row = await t.db
      .selectFrom('history')
      .select(['changes', 'actor_domain'])
      .where('action', '=', 'user_update')
      .where('target_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ changes: JSON.stringify(['last_name']), actor_domain: 'a.example' });
  });
});

describe('addresses: mail belongs to its address (review)', () => {
  test('a domain_admin cannot give an account an address of another domain: 400 errors.email, nothing changes', async () => {
    const created = await call('daA', 'POST', '/api/users/', {
      email: 'ceo@b.example',
      role: 'user',
      password: 'attacker chosen pw',
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().errors).toHaveProperty('email');
    expect(await t.db.selectFrom('users').select('id').where('email', '=', 'ceo@b.example').execute()).toEqual([]);

    const before = await snapshot();
    const moved = await call('daA', 'PATCH', `/api/users/${rows.userA2!.id}/`, { email: 'cfo@b.example' });
    expect(moved.statusCode).toBe(400);
    expect(moved.json().errors).toHaveProperty('email');
    expect(await snapshot()).toEqual(before);
    const row = await t.db.selectFrom('users').select('email').where('id', '=', rows.userA2!.id).executeTakeFirst();
    expect(row?.email).toBe('abe@a.example');
  });

  test('their own domain is fine, whatever the case of the address', async () => {
    const res = await call('daA', 'POST', '/api/users/', {
      email: 'New.Hire@A.example',
      role: 'user',
      password: 'a long password',
    });
    expect(res.statusCode).toBe(201);
    expect((res.json() as AdminUser).email).toBe('new.hire@a.example');
  });

  test('an admin may give any address', async () => {
    const res = await call('admin', 'POST', '/api/users/', {
      email: 'guest@elsewhere.example',
      role: 'user',
      domain_id: domainA,
      password: 'a long password',
    });
    expect(res.statusCode).toBe(201);
  });
});
