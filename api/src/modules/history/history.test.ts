import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import { fillHistoryAudience } from '../../db/migration-0012-history-audience';
import { ingestOk, INGEST_TOKEN, meta, mime } from '../../test/quarantine';
import { setPrimaryAddress } from '../users/user-addresses.repository';

let t: TestApp;
const tokens: Record<string, string> = {};
const ids: string[] = [];

interface Entry {
  id: string;
  date: string;
  user: { id: string | null; email: string; role: string };
  action: string;
  email_id: string;
  email: { subject: string | null } | null;
  ip_address: string | null;
  result: string;
  code: string | null;
}

beforeAll(async () => {
  // 127.0.0.1 (app.inject's address) is a trusted proxy here: X-Forwarded-For gives the client.
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN, QC_TRUSTED_PROXIES: '127.0.0.1' });
  for (const [email, role, domain] of [
    ['root@admin.example', 'admin', undefined],
    ['boss@a.example', 'domain_admin', 'a.example'],
    ['ann@a.example', 'user', 'a.example'],
    ['carl@b.example', 'user', 'b.example'],
  ] as const) {
    await t.createUser({ email, role, domain });
    tokens[email] = (await t.login(email)).access;
  }
  ids.push(await ingestOk(t, meta({ rcpt_to: ['ann@a.example', 'carl@b.example'] }), mime({ subject: 'one' })));
  ids.push(await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'two' })));
  const act = async (email: string, method: 'GET' | 'DELETE', url: string, ip: string) => {
    await new Promise((r) => setTimeout(r, 3)); // distinct milliseconds: a fixed order to assert
    return t.app.inject({ method, url, headers: { ...bearer(tokens[email]!), 'x-forwarded-for': ip } });
  };
  expect((await act('ann@a.example', 'GET', `/api/quarantine/${ids[0]}/raw/`, '198.51.100.1')).statusCode).toBe(200);
  expect((await act('carl@b.example', 'GET', `/api/quarantine/${ids[0]}/raw/`, '198.51.100.2')).statusCode).toBe(200);
  expect((await act('ann@a.example', 'DELETE', `/api/quarantine/${ids[1]}/`, '198.51.100.1')).statusCode).toBe(204);
  expect((await act('carl@b.example', 'DELETE', `/api/quarantine/${ids[1]}/`, '198.51.100.2')).statusCode).toBe(404);
  expect((await act('boss@a.example', 'GET', `/api/quarantine/${ids[1]}/raw/`, '198.51.100.3')).statusCode).toBe(200);
});
afterAll(() => t.close());

async function history(email: string, query = ''): Promise<{ results: Entry[]; next_cursor: string | null }> {
  const res = await t.app.inject({ method: 'GET', url: `/api/history/${query}`, headers: bearer(tokens[email]!) });
  expect(res.statusCode).toBe(200);
  return res.json();
}

test('admin sees every action, newest first, with the client IP from a trusted proxy', async () => {
  const { results } = await history('root@admin.example');
  expect(results.map((r) => [r.user.email, r.action, r.result, r.code, r.ip_address])).toEqual([
    ['boss@a.example', 'download', 'success', null, '198.51.100.3'],
    ['carl@b.example', 'delete', 'failure', 'email_not_found', '198.51.100.2'],
    ['ann@a.example', 'delete', 'success', null, '198.51.100.1'],
    ['carl@b.example', 'download', 'success', null, '198.51.100.2'],
    ['ann@a.example', 'download', 'success', null, '198.51.100.1'],
  ]);
  expect(results[0]).toMatchObject({ email_id: ids[1], user: { role: 'domain_admin' } });
  expect(Date.parse(results[0]!.date)).toBeGreaterThan(Date.now() - 60_000);
});

test('a user reads their actions and those on their mail; a domain_admin their users’ and their domain’s mail’s', async () => {
  const rows = async (email: string) =>
    (await history(email)).results.map((r) => [r.user.email, r.action, r.email_id, r.ip_address]);
  // boss's download of ann's mail is ann's to read, but not where it came from.
  expect(await rows('ann@a.example')).toEqual([
    ['boss@a.example', 'download', ids[1], null],
    ['ann@a.example', 'delete', ids[1], '198.51.100.1'],
    ['ann@a.example', 'download', ids[0], '198.51.100.1'],
  ]);
  // carl shares mail one with ann, not her download of it: a user's action is about their own copy.
  // His attempt on ann's mail (404) is not in his trail: it would tell him that the id exists.
  expect(await rows('carl@b.example')).toEqual([['carl@b.example', 'download', ids[0], '198.51.100.2']]);
  // Each row names its mail by subject, only where the caller may see that mail.
  expect((await history('carl@b.example')).results.map((r) => r.email)).toEqual([{ subject: 'one' }]);
  expect((await history('root@admin.example')).results.map((r) => r.email?.subject)).toEqual([
    'two',
    'two',
    'two',
    'one',
    'one',
  ]);
  expect(await rows('boss@a.example')).toEqual([
    ['boss@a.example', 'download', ids[1], '198.51.100.3'],
    ['ann@a.example', 'delete', ids[1], '198.51.100.1'],
    ['ann@a.example', 'download', ids[0], '198.51.100.1'],
  ]);
});

test('a probe of a foreign id leaves the prober’s trail as a probe of an unknown id does: unchanged', async () => {
  const other = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
  try {
    await other.createUser({ email: 'ops@admin.example', role: 'admin' });
    await other.createUser({ email: 'eve@b.example', role: 'user', domain: 'b.example' });
    await other.createUser({ email: 'chief@b.example', role: 'domain_admin', domain: 'b.example' });
    await other.createUser({ email: 'zed@c.example', role: 'domain_admin', domain: 'c.example' });
    const foreign = await ingestOk(other, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'not yours' }));
    const unknown = '01ZZZZZZZZZZZZZZZZZZZZZZZZ';
    const trail = async (email: string) => {
      const token = (await other.login(email)).access;
      const res = await other.app.inject({ method: 'GET', url: '/api/history/', headers: bearer(token) });
      return res.json().results.map((r: Entry) => [r.user.email, r.action, r.email_id, r.code]);
    };
    const probe = async (email: string, id: string) => {
      const token = (await other.login(email)).access;
      for (const [method, url] of [
        ['GET', `/api/quarantine/${id}/raw/`],
        ['POST', `/api/quarantine/${id}/release/`],
        ['DELETE', `/api/quarantine/${id}/`],
      ] as const) {
        const res = await other.app.inject({ method, url, headers: bearer(token) });
        expect([url, res.statusCode, res.json().code]).toEqual([url, 404, 'email_not_found']);
      }
      const bulk = await other.app.inject({
        method: 'POST',
        url: '/api/quarantine/bulk/',
        headers: bearer(token),
        payload: { ids: [id], action: 'delete' },
      });
      expect(bulk.json().results).toEqual([{ id, status: 'failed', code: 'email_not_found' }]);
    };
    // A user and a domain_admin probe an id that exists (not theirs) and one that does not.
    for (const email of ['eve@b.example', 'zed@c.example']) {
      await probe(email, unknown);
      await probe(email, foreign);
    }
    // Neither they nor their domain's admin can tell the two answers apart from their trail.
    for (const reader of ['eve@b.example', 'chief@b.example', 'zed@c.example']) {
      expect([reader, await trail(reader)]).toEqual([reader, []]);
    }
    // An admin, who sees every e-mail anyway, still has the attempts on the one that exists.
    const seen = await trail('ops@admin.example');
    expect(seen.filter((r: string[]) => r[2] === unknown)).toEqual([]);
    expect(new Set(seen.map((r: string[]) => `${r[0]} ${r[2]} ${r[3]}`))).toEqual(
      new Set([`eve@b.example ${foreign} email_not_found`, `zed@c.example ${foreign} email_not_found`]),
    );
  } finally {
    await other.close();
  }
});

test('the readers written with each row are those migration 0012 derives from the rows', async () => {
  const readers = () =>
    t.db.selectFrom('history_audience').selectAll().orderBy('history_id').orderBy('audience').execute();
  const written = await readers();
  expect(written.length).toBeGreaterThan(0);
  await t.db.deleteFrom('history_audience').execute();
  await fillHistoryAudience(t.db);
  expect(await readers()).toEqual(written);
});

test("an admin's action is read by the mail's users and domain_admins, without its IP, and not by the admin's own domain", async () => {
  const other = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
  try {
    await other.createUser({ email: 'ops@a.example', role: 'admin', domain: 'a.example' });
    await other.createUser({ email: 'boss@a.example', role: 'domain_admin', domain: 'a.example' });
    await other.createUser({ email: 'bob@b.example', role: 'user', domain: 'b.example' });
    await other.createUser({ email: 'chief@b.example', role: 'domain_admin', domain: 'b.example' });
    const id = await ingestOk(other, meta({ rcpt_to: ['bob@b.example'] }));
    const ops = (await other.login('ops@a.example')).access;
    expect(
      (await other.app.inject({ method: 'GET', url: `/api/quarantine/${id}/raw/`, headers: bearer(ops) })).statusCode,
    ).toBe(200);
    const seenBy = async (email: string) => {
      const token = (await other.login(email)).access;
      const res = await other.app.inject({ method: 'GET', url: '/api/history/', headers: bearer(token) });
      return res.json().results.map((r: Entry) => [r.user.email, r.email_id, r.ip_address]);
    };
    expect(await seenBy('boss@a.example')).toEqual([]);
    expect(await seenBy('bob@b.example')).toEqual([['ops@a.example', id, null]]);
    expect(await seenBy('chief@b.example')).toEqual([['ops@a.example', id, null]]);
    expect(await seenBy('ops@a.example')).toEqual([['ops@a.example', id, '127.0.0.1']]);
  } finally {
    await other.close();
  }
});

test('what was done with mail follows its address, as the mail does; a user keeps their own actions', async () => {
  const other = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
  try {
    await other.createUser({ email: 'ops@x.example', role: 'admin' });
    const ann = await other.createUser({ email: 'ann@a.example', role: 'user', domain: 'a.example' });
    const id = await ingestOk(other, meta({ rcpt_to: ['ann@a.example'] }));
    for (const email of ['ops@x.example', 'ann@a.example']) {
      const token = (await other.login(email)).access;
      const res = await other.app.inject({ method: 'GET', url: `/api/quarantine/${id}/raw/`, headers: bearer(token) });
      expect(res.statusCode).toBe(200);
    }
    // ann's address moves to ann2@…, and a new account gets her old one (and with it the mail).
    await other.db.updateTable('users').set({ email: 'ann2@a.example' }).where('id', '=', ann.id).execute();
    await setPrimaryAddress(other.db, ann.id, 'ann2@a.example'); // her addresses follow (issue 31)
    await other.createUser({ email: 'ann@a.example', role: 'user', domain: 'a.example' });
    const seenBy = async (email: string) => {
      const token = (await other.login(email)).access;
      const res = await other.app.inject({ method: 'GET', url: '/api/history/', headers: bearer(token) });
      return res.json().results.map((r: Entry) => r.user.email);
    };
    expect(await seenBy('ann@a.example')).toEqual(['ann@a.example', 'ops@x.example']);
    expect(await seenBy('ann2@a.example')).toEqual(['ann@a.example']);
  } finally {
    await other.close();
  }
});

test('?user= narrows the caller’s scope, never widens it: another domain’s user gives an empty list', async () => {
  const carlId = (await history('root@admin.example', '?user=carl%40b.example')).results[0]!.user.id!;
  for (const caller of ['boss@a.example', 'ann@a.example']) {
    for (const query of ['?user=carl%40b.example', `?user=${carlId}`]) {
      expect([caller, query, (await history(caller, query)).results]).toEqual([caller, query, []]);
    }
  }
  // Within the scope the filter still applies (so the empty lists above are the scope's doing).
  expect((await history('boss@a.example', '?user=ann%40a.example')).results.map((r) => r.user.email)).toEqual([
    'ann@a.example',
    'ann@a.example',
  ]);
});

test('filters: action, user (e-mail or id), dates; keyset pages', async () => {
  expect((await history('root@admin.example', '?action=delete')).results).toHaveLength(2);
  expect((await history('root@admin.example', '?user=CARL%40b.example')).results).toHaveLength(2);
  const carlId = (await history('carl@b.example')).results[0]!.user.id!;
  expect((await history('root@admin.example', `?user=${carlId}`)).results).toHaveLength(2);
  expect((await history('root@admin.example', '?date_to=2000-01-01')).results).toEqual([]);
  const bad = await t.app.inject({
    method: 'GET',
    url: '/api/history/?action=nope',
    headers: bearer(tokens['ann@a.example']!),
  });
  expect(bad.statusCode).toBe(400);
  const nul = await t.app.inject({
    method: 'GET',
    url: '/api/history/?user=ann%00',
    headers: bearer(tokens['ann@a.example']!),
  });
  expect([nul.statusCode, Object.keys(nul.json().errors ?? {})]).toEqual([400, ['user']]);
  // A reversed range is a 400 naming date_from, not an empty page; the same day on both ends is fine.
  const reversed = await t.app.inject({
    method: 'GET',
    url: '/api/history/?date_from=2026-11-20&date_to=2026-11-19T23:59:59%2B01:00',
    headers: bearer(tokens['ann@a.example']!),
  });
  expect(reversed.statusCode).toBe(400);
  expect(reversed.json()).toMatchObject({ code: 'validation_error', errors: { date_from: expect.any(String) } });
  expect((await history('root@admin.example', '?date_from=2000-01-01&date_to=2000-01-01')).results).toEqual([]);

  const all = (await history('root@admin.example')).results.map((r) => r.id);
  const seen: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await history('root@admin.example', `?page_size=2${cursor ? `&cursor=${cursor}` : ''}`);
    seen.push(...page.results.map((r) => r.id));
    cursor = page.next_cursor;
  } while (cursor && seen.length < 20);
  expect(seen).toEqual(all);

  // A user's pages merge two readers (own actions, their address's mail): each row once, in order.
  const annAll = (await history('ann@a.example')).results.map((r) => r.id);
  expect(annAll).toHaveLength(3);
  const annSeen: string[] = [];
  cursor = null;
  do {
    const page = await history('ann@a.example', `?page_size=1${cursor ? `&cursor=${cursor}` : ''}`);
    annSeen.push(...page.results.map((r) => r.id));
    cursor = page.next_cursor;
  } while (cursor && annSeen.length < 20);
  expect(annSeen).toEqual(annAll);
});

test('without a trusted proxy, X-Forwarded-For is ignored', async () => {
  const plain = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
  try {
    await plain.createUser({ email: 'ann@a.example', role: 'user' });
    const token = (await plain.login('ann@a.example')).access;
    const id = await ingestOk(plain, meta({ rcpt_to: ['ann@a.example'] }));
    await plain.app.inject({
      method: 'GET',
      url: `/api/quarantine/${id}/raw/`,
      headers: { ...bearer(token), 'x-forwarded-for': '203.0.113.9' },
    });
    const res = await plain.app.inject({ method: 'GET', url: '/api/history/', headers: bearer(token) });
    expect(res.json().results[0].ip_address).toBe('127.0.0.1');
  } finally {
    await plain.close();
  }
});

test('history rows are never changed by later actions (append-only)', async () => {
  const before = await t.db.selectFrom('history').selectAll().orderBy('id').execute();
  await t.app.inject({
    method: 'DELETE',
    url: `/api/quarantine/${ids[0]}/`,
    headers: bearer(tokens['ann@a.example']!),
  });
  const after = await t.db.selectFrom('history').selectAll().orderBy('id').execute();
  expect(after.slice(0, before.length)).toEqual(before);
  expect(after).toHaveLength(before.length + 1);
});
