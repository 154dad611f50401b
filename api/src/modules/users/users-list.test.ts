import type { AdminUser, UserOrdering } from '@qc/contracts';
import { newId } from '../../lib/ids';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import { ensureDomain } from '../domains/domains.service';
import { SEARCH_HITS_MAX } from './users-list.service';
import type { UserRow } from './users.repository';

// GET /api/users/: keyset pages in each ordering (no row twice, none missed), filters, prefix
// search on e-mail, username, first and last name, and the domain_admin's scope.

let t: TestApp;
let adminToken: string;
let daToken: string;
let domainA: string;
let domainB: string;
const seeded: UserRow[] = [];
const BASE = Date.UTC(2024, 0, 1);

const FIRST = ['Zed', 'Émile', 'anna', 'Bob', 'carla', 'Dmitri', 'eve'];
const LAST = ['Zimmer', 'Young', 'Xu', 'Walker', 'Vance'];

function userRow(i: number, domainId: string | null, overrides: Partial<UserRow> = {}): UserRow {
  return {
    id: newId(BASE + i),
    username: `user${String(i).padStart(2, '0')}`,
    email: `m${String((i * 7) % 30).padStart(2, '0')}.${i}@${domainId === domainA ? 'a' : domainId === domainB ? 'b' : 'c'}.example`,
    first_name: FIRST[i % FIRST.length]!,
    last_name: LAST[i % LAST.length]!,
    password_hash: 'x',
    role: 'user',
    domain_id: domainId,
    is_external: 0,
    is_active: i % 4 === 3 ? 0 : 1,
    mfa_enabled: i % 5 === 0 ? 1 : 0,
    mfa_secret: null,
    mfa_pending_secret: null,
    mfa_last_step: null,
    mfa_required: i % 6 === 1 ? 1 : 0,
    last_login: i % 2 ? BASE + i * 1000 : null,
    mfa_pending_at: null,
    credentials_at: null,
    source: 'local',
    external_id: null,
    // Every third user joined at the same millisecond as the one before: ties broken by id.
    date_joined: BASE + Math.floor(i / 3) * 60_000 + (i % 3 === 2 ? 0 : i % 3),
    ...overrides,
  };
}

beforeAll(async () => {
  t = await createTestApp();
  domainA = (await ensureDomain(t.db, 'a.example')).id;
  domainB = (await ensureDomain(t.db, 'b.example')).id;
  for (let i = 0; i < 30; i++) {
    const row = userRow(i, i % 3 === 0 ? domainA : i % 3 === 1 ? domainB : null, {
      ...(i === 4 && { role: 'admin' as const, domain_id: null }),
      ...(i === 7 && { role: 'domain_admin' as const }),
    });
    await t.db.insertInto('users').values(row).execute();
    seeded.push(row);
  }
  const admin = await t.createUser({ email: 'root@admin.example', role: 'admin', username: 'root' });
  const da = await t.createUser({ email: 'boss@a.example', role: 'domain_admin', domain: 'a.example' });
  seeded.push({ ...admin, date_joined: Number(admin.date_joined) }, { ...da, date_joined: Number(da.date_joined) });
  adminToken = (await t.login('root@admin.example')).access;
  daToken = (await t.login('boss@a.example')).access;
});
afterAll(() => t.close());

const list = (query: string, token = adminToken) =>
  t.app.inject({ method: 'GET', url: `/api/users/?${query}`, headers: bearer(token) });

/** Every page of the query, following next_cursor: the e-mails in order. */
async function walk(query: string, token = adminToken, pageSize = 4): Promise<string[]> {
  const emails: string[] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages++) {
    const res = await list(`${query}&page_size=${pageSize}${cursor ? `&cursor=${cursor}` : ''}`, token);
    expect(res.statusCode).toBe(200);
    const body = res.json<{ results: AdminUser[]; next_cursor: string | null }>();
    expect(body.results.length).toBeLessThanOrEqual(pageSize);
    emails.push(...body.results.map((u) => u.email));
    cursor = body.next_cursor;
    if (!cursor) return emails;
    expect(body.results).toHaveLength(pageSize);
  }
  throw new Error('no last page');
}

const byEmail = (a: UserRow, b: UserRow) => (a.email < b.email ? -1 : 1);
const byJoined = (a: UserRow, b: UserRow) => a.date_joined - b.date_joined || (a.id < b.id ? -1 : 1);
const ORDERS: Record<UserOrdering, (a: UserRow, b: UserRow) => number> = {
  email: byEmail,
  '-email': (a, b) => byEmail(b, a),
  date_joined: byJoined,
  '-date_joined': (a, b) => byJoined(b, a),
};
const expected = (filter: (u: UserRow) => boolean, ordering: UserOrdering) =>
  seeded
    .filter(filter)
    .sort(ORDERS[ordering])
    .map((u) => u.email);

describe('keyset pages: every user once, in order, in each ordering', () => {
  test.each(Object.keys(ORDERS) as UserOrdering[])('admin, %s', async (ordering) => {
    const emails = await walk(`ordering=${encodeURIComponent(ordering)}`);
    expect(emails).toEqual(expected(() => true, ordering));
    expect(new Set(emails).size).toBe(seeded.length);
  });

  test.each(Object.keys(ORDERS) as UserOrdering[])(
    'domain_admin of a.example (its users only), %s',
    async (ordering) => {
      const emails = await walk(`ordering=${encodeURIComponent(ordering)}`, daToken, 3);
      expect(emails).toEqual(expected((u) => u.domain_id === domainA && u.role === 'user', ordering));
      expect(emails.length).toBeGreaterThan(6);
    },
  );

  test('the default ordering is by e-mail; an item is the AdminUser shape', async () => {
    const res = await list('page_size=200');
    const body = res.json<{ results: AdminUser[] }>();
    expect(body.results.map((u) => u.email)).toEqual(expected(() => true, 'email'));
    const one = body.results.find((u) => u.email === seeded[1]!.email)!;
    expect(one).toMatchObject({
      id: seeded[1]!.id,
      domain: { id: domainB, name: 'b.example' },
      last_login: new Date(seeded[1]!.last_login!).toISOString(),
      mfa_required: true,
      mfa_enabled: false,
      is_active: true,
      invitation_pending: false,
    });
  });
});

describe('filters', () => {
  const cases: [string, (u: UserRow) => boolean][] = [
    ['role=admin', (u) => u.role === 'admin'],
    ['role=user&is_active=false', (u) => u.role === 'user' && u.is_active === 0],
    ['is_active=true', (u) => u.is_active === 1],
    ['mfa=enabled', (u) => u.mfa_enabled === 1],
    ['mfa=disabled', (u) => u.mfa_enabled === 0],
    ['mfa=required', (u) => u.mfa_required === 1 && u.mfa_enabled === 0],
    ['domain=B', (u) => u.domain_id === domainB],
    [
      'domain=A&mfa=disabled&is_active=true',
      (u) => u.domain_id === domainA && u.mfa_enabled === 0 && u.is_active === 1,
    ],
  ];
  test.each(cases)('%s, in both orderings, paged', async (template, filter) => {
    // The domain ids exist only once the data is seeded.
    const query = template.replace('domain=A', `domain=${domainA}`).replace('domain=B', `domain=${domainB}`);
    for (const ordering of ['-email', 'date_joined'] as const) {
      const want = expected(filter, ordering);
      expect(want.length).toBeGreaterThan(0);
      expect(await walk(`${query}&ordering=${ordering}`, adminToken, 2)).toEqual(want);
    }
  });
});

describe('search: the start of the e-mail, username, first or last name, any case', () => {
  const cases: [string, (u: UserRow) => boolean][] = [
    ['m0', (u) => u.email.startsWith('m0')],
    ['M1', (u) => u.email.startsWith('m1')],
    ['user1', (u) => u.username.startsWith('user1')],
    ['ZED', (u) => u.first_name === 'Zed'],
    ['zimm', (u) => u.last_name === 'Zimmer'],
    ['Anna', (u) => u.first_name === 'anna'],
    ['Émile', (u) => u.first_name === 'Émile'],
    ['ÉMILE', (u) => u.first_name === 'Émile'],
    ['x', (u) => u.last_name === 'Xu'],
    ['root', (u) => u.username === 'root'],
  ];
  test.each(cases)('q=%s', async (q, filter) => {
    const want = expected(filter, 'email');
    expect(want.length).toBeGreaterThan(0);
    expect(await walk(`q=${encodeURIComponent(q)}`, adminToken, 2)).toEqual(want);
  });

  test('only the start matches (not the middle); a search with filters and the domain_admin’s scope', async () => {
    expect((await list('q=mmer')).json().results).toEqual([]);
    expect((await list('q=example')).json().results).toEqual([]);
    const inA = (u: UserRow) => u.domain_id === domainA && u.role === 'user';
    expect(await walk('q=m&ordering=-date_joined', daToken, 2)).toEqual(
      expected((u) => inA(u) && u.email.startsWith('m'), '-date_joined'),
    );
    expect(await walk('q=zed&is_active=true', adminToken, 1)).toEqual(
      expected((u) => u.first_name === 'Zed' && u.is_active === 1, 'email'),
    );
  });
});

describe('bad queries: 400 naming the parameter', () => {
  test.each([
    ['ordering=name', 'ordering'],
    ['mfa=maybe', 'mfa'],
    ['is_active=yes', 'is_active'],
    ['role=boss', 'role'],
    ['page_size=0', 'page_size'],
    ['sort=email', 'sort'],
    ['cursor=not-a-cursor', 'cursor'],
  ])('%s', async (query, field) => {
    const res = await list(query);
    expect([res.statusCode, Object.keys(res.json().errors ?? {})]).toEqual([400, [field]]);
  });

  test('a cursor made for another ordering is refused', async () => {
    const { next_cursor } = (await list('page_size=2&ordering=email')).json();
    const res = await list(`page_size=2&ordering=date_joined&cursor=${next_cursor}`);
    expect([res.statusCode, Object.keys(res.json().errors)]).toEqual([400, ['cursor']]);
  });
});

describe('a common search term (more hits than SEARCH_HITS_MAX) is tested along the ordered walk', () => {
  test('the same answers either way', async () => {
    const big = await createTestApp();
    try {
      await big.createUser({ email: 'root@admin.example', role: 'admin', username: 'root' });
      const token = (await big.login('root@admin.example')).access;
      const rows = Array.from({ length: SEARCH_HITS_MAX + 50 }, (_, i) => ({
        ...userRow(i, null),
        email: `common${String(i).padStart(5, '0')}@c.example`,
        username: `u${i}`,
        first_name: i % 10 === 0 ? 'Rare' : 'Other',
        last_name: i % 2 ? 'Commonwealth' : 'Smith',
      }));
      for (let i = 0; i < rows.length; i += 200)
        await big.db
          .insertInto('users')
          .values(rows.slice(i, i + 200))
          .execute();
      const page = async (query: string) =>
        (await big.app.inject({ method: 'GET', url: `/api/users/?${query}`, headers: bearer(token) })).json<{
          results: AdminUser[];
          next_cursor: string | null;
        }>();
      // "common" starts every e-mail and half the last names: well over the limit.
      const first = await page('q=common&page_size=50&ordering=-email');
      const want = rows
        .map((r) => r.email)
        .sort()
        .reverse();
      expect(first.results.map((u) => u.email)).toEqual(want.slice(0, 50));
      const second = await page(`q=common&page_size=50&ordering=-email&cursor=${first.next_cursor}`);
      expect(second.results.map((u) => u.email)).toEqual(want.slice(50, 100));
      // "rare" matches a tenth: resolved by the indexes first.
      const rare = await page('q=RARE&page_size=200&ordering=email');
      expect(rare.results.map((u) => u.email)).toEqual(
        rows
          .filter((r) => r.first_name === 'Rare')
          .map((r) => r.email)
          .slice(0, 200),
      );
    } finally {
      await big.close();
    }
  }, 30_000);
});
