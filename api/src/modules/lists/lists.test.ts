import { createTestApp, PASSWORD, type TestApp } from '../../test/helpers';
import { caller, listVersion, signIn } from '../rspamd/rspamd-test-helpers';

/** Whitelists and blacklists: validation, scope per role, conflicts, clear, history and the map's version. */

let t: TestApp;
let tokens: Record<string, string>;
let call: ReturnType<typeof caller>;
const ids: Record<string, string> = {};
const domains: Record<string, string> = {};

const USERS = [
  ['root@admin.example', 'admin', undefined],
  ['boss@a.example', 'domain_admin', 'a.example'],
  ['boss2@a.example', 'domain_admin', 'a.example'],
  ['ann@a.example', 'user', 'a.example'],
  ['amy@a.example', 'user', 'a.example'],
  ['carl@b.example', 'user', 'b.example'],
  ['bob@b.example', 'domain_admin', 'b.example'],
] as const;

beforeAll(async () => {
  t = await createTestApp();
  tokens = await signIn(t, USERS);
  call = caller({ t, tokens });
  for (const u of await t.db.selectFrom('users').select(['id', 'email']).execute()) ids[u.email] = u.id;
  for (const d of await t.db.selectFrom('domains').select(['id', 'name']).execute()) domains[d.name] = d.id;
});
afterAll(() => t.close());

const version = () => listVersion(t, 'sender-lists');
const add = (as: string, body: object) => call('POST', '/api/lists/', as, body);
const entries = () => t.db.selectFrom('sender_lists').selectAll().execute();

interface HistoryItem {
  action: string;
  user: { email: string };
  target: { kind: string; id: string | null; label: string } | null;
}
async function listHistory(as: string): Promise<HistoryItem[]> {
  const res = await call('GET', '/api/history/?category=lists&page_size=200', as);
  expect(res.statusCode).toBe(200);
  return res.json().results;
}

describe('adding', () => {
  test('a user adds to their own list: stored form, 201, one bump, one history row', async () => {
    const before = await version();
    const res = await add('ann@a.example', { kind: 'whitelist', address: ' Hans@Bücher.Example ' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      kind: 'whitelist',
      scope: 'user',
      address: 'hans@xn--bcher-kva.example',
      address_unicode: 'hans@bücher.example',
      user: { id: ids['ann@a.example'], email: 'ann@a.example' },
      domain: null,
      created_by: { id: ids['ann@a.example'], email: 'ann@a.example' },
    });
    expect(await version()).toBe(before + 1);
    // The Rspamd status page counts the entries Rspamd is served.
    const status = await call('GET', '/api/rspamd/status/', 'root@admin.example');
    const lists = status.json().lists as { list: string; entries: number }[];
    expect(lists.find((l) => l.list === 'sender-lists')?.entries).toBe((await entries()).length);
    const [row] = await listHistory('ann@a.example');
    expect(row).toMatchObject({
      action: 'list_add',
      user: { email: 'ann@a.example' },
      target: { kind: 'list_entry', id: res.json().id, label: 'whitelist hans@xn--bcher-kva.example' },
    });
  });

  test.each([
    ['no @', 'example.com'],
    ['a display name', 'Ann <ann@x.example>'],
    ['a local part over 64 octets', `${'a'.repeat(65)}@x.example`],
    ['over 254 characters', `${'a'.repeat(60)}@${Array(4).fill('b'.repeat(60)).join('.')}.example`],
    ['a single-label domain', '@localhost'],
    ['a right-to-left override', 'moc.elpmaxe\u202E@x.example'],
    ['a zero-width space', 'ja\u200Bne@x.example'],
    ['a C1 control', 'ja\u0085ne@x.example'],
  ])('%s: 400 errors.address "Invalid format", nothing stored', async (_why, address) => {
    const [before, rows] = [await version(), (await entries()).length];
    const res = await add('ann@a.example', { kind: 'blacklist', address });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error', errors: { address: 'Invalid format' } });
    expect([await version(), (await entries()).length]).toEqual([before, rows]);
  });

  test('the same address again: list_exists; on the other list: list_conflict; both name the entry', async () => {
    const first = await add('ann@a.example', { kind: 'blacklist', address: '@spam.example' });
    expect(first.statusCode).toBe(201);
    const id = first.json().id as string;
    const before = await version();
    const again = await add('ann@a.example', { kind: 'blacklist', address: '@SPAM.example' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'list_exists', errors: { address: expect.stringContaining(id) } });
    expect(again.json().detail).toContain(`#${id} @spam.example`);
    const other = await add('ann@a.example', { kind: 'whitelist', address: '@spam.example' });
    expect(other.statusCode).toBe(409);
    expect(other.json().code).toBe('list_conflict');
    expect(other.json().detail).toMatch(new RegExp(`blacklist.*#${id} @spam\\.example`));
    expect(await version()).toBe(before);
    // Another owner may hold the same address.
    expect((await add('amy@a.example', { kind: 'whitelist', address: '@spam.example' })).statusCode).toBe(201);
  });
});

describe('scope per role', () => {
  test('a user: their own list only (403 beyond it)', async () => {
    for (const body of [
      { scope: 'domain' },
      { scope: 'global' },
      { user_id: ids['amy@a.example'] },
      { scope: 'domain', domain_id: domains['a.example'] },
    ]) {
      const res = await add('ann@a.example', { kind: 'blacklist', address: 'x@y.example', ...body });
      expect([body, res.statusCode, res.json().code]).toEqual([body, 403, 'forbidden']);
    }
    const own = await add('ann@a.example', {
      kind: 'blacklist',
      address: 'own@y.example',
      user_id: ids['ann@a.example'],
    });
    expect(own.statusCode).toBe(201);
    const read = await call('GET', `/api/lists/?kind=blacklist&user_id=${ids['amy@a.example']}`, 'ann@a.example');
    expect(read.statusCode).toBe(403);
  });

  test('a domain_admin: own list, their plain users’ lists, their domain’s list; 404 outside, 403 global', async () => {
    const cases: [object, number][] = [
      [{ user_id: ids['ann@a.example'] }, 201],
      [{}, 201],
      [{ scope: 'domain' }, 201],
      [{ scope: 'domain', domain_id: domains['a.example'] }, 409], // the same list as the line above
      [{ user_id: ids['carl@b.example'] }, 404],
      [{ user_id: ids['boss2@a.example'] }, 404], // another domain_admin: not theirs to manage
      [{ user_id: ids['root@admin.example'] }, 404],
      [{ user_id: 'NOSUCHUSER' }, 404],
      [{ scope: 'domain', domain_id: domains['b.example'] }, 404],
      [{ scope: 'domain', domain_id: 'NOSUCHDOMAIN' }, 404],
      [{ scope: 'global' }, 403],
      [{ scope: 'global', user_id: ids['ann@a.example'] }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await add('boss@a.example', { kind: 'blacklist', address: 'boss-pick@z.example', ...body });
      expect([body, res.statusCode]).toEqual([body, status]);
    }
    const rows = (await entries()).filter((e) => e.address === 'boss-pick@z.example');
    expect(rows.map((r) => r.owner_key).sort()).toEqual(
      [`domain:${domains['a.example']}`, `user:${ids['ann@a.example']}`, `user:${ids['boss@a.example']}`].sort(),
    );
  });

  test('an admin: everyone; scope domain needs domain_id; unknown ids 404', async () => {
    const cases: [object, number, string?][] = [
      [{ scope: 'global' }, 201],
      [{ scope: 'domain', domain_id: domains['b.example'] }, 201],
      [{ user_id: ids['carl@b.example'] }, 201],
      [{ scope: 'domain' }, 400, 'domain_id'],
      [{ scope: 'domain', domain_id: 'NOSUCHDOMAIN' }, 404],
      [{ user_id: 'NOSUCHUSER' }, 404],
      [{ scope: 'user', domain_id: domains['b.example'] }, 400, 'domain_id'],
    ];
    for (const [body, status, field] of cases) {
      const res = await add('root@admin.example', { kind: 'whitelist', address: 'root-pick@z.example', ...body });
      expect([body, res.statusCode, Object.keys(res.json().errors ?? {})]).toEqual([
        body,
        status,
        field ? [field] : [],
      ]);
    }
  });
});

describe('reading', () => {
  test('newest first in keyset pages, q any case, total of the owner and kind', async () => {
    for (const n of [1, 2, 3, 4, 5]) {
      expect((await add('amy@a.example', { kind: 'blacklist', address: `Page${n}@P.example` })).statusCode).toBe(201);
    }
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(
        'GET',
        `/api/lists/?kind=blacklist&page_size=2${cursor ? `&cursor=${cursor}` : ''}`,
        'amy@a.example',
      );
      expect(res.statusCode).toBe(200);
      const body = res.json() as { results: { address: string }[]; next_cursor: string | null; total: number };
      expect(body.total).toBe(5);
      seen.push(...body.results.map((r) => r.address));
      cursor = body.next_cursor;
    } while (cursor);
    expect(seen).toEqual([
      'page5@p.example',
      'page4@p.example',
      'page3@p.example',
      'page2@p.example',
      'page1@p.example',
    ]);
    const q = await call('GET', '/api/lists/?kind=blacklist&q=GE3', 'amy@a.example');
    expect(q.json()).toMatchObject({ total: 5, next_cursor: null, results: [{ address: 'page3@p.example' }] });
    // Her domain_admin reads it too; another domain's does not learn it exists.
    const boss = await call('GET', `/api/lists/?kind=blacklist&user_id=${ids['amy@a.example']}`, 'boss@a.example');
    expect(boss.json().total).toBe(5);
    const bob = await call('GET', `/api/lists/?kind=blacklist&user_id=${ids['amy@a.example']}`, 'bob@b.example');
    expect(bob.statusCode).toBe(404);
    expect((await call('GET', '/api/lists/?kind=blacklist&cursor=bad', 'amy@a.example')).statusCode).toBe(400);
    expect((await call('GET', '/api/lists/?kind=greylist', 'amy@a.example')).statusCode).toBe(400);
  });
});

describe('removing and clearing', () => {
  test('an entry of a list the caller may not manage is 404 (IDOR), its manager removes it', async () => {
    const res = await add('ann@a.example', { kind: 'blacklist', address: 'gone@x.example' });
    const id = res.json().id as string;
    for (const as of ['carl@b.example', 'bob@b.example', 'amy@a.example']) {
      expect([as, (await call('DELETE', `/api/lists/${id}/`, as)).statusCode]).toEqual([as, 404]);
    }
    const before = await version();
    expect((await call('DELETE', `/api/lists/${id}/`, 'boss@a.example')).statusCode).toBe(204);
    expect(await version()).toBe(before + 1);
    expect((await call('DELETE', `/api/lists/${id}/`, 'boss@a.example')).statusCode).toBe(404);
    expect((await call('DELETE', '/api/lists/NOSUCHENTRY/', 'root@admin.example')).statusCode).toBe(404);
    // Readers: the actor, admins, the owner's domain_admin, and the owner herself (her list changed).
    const removed = {
      action: 'list_remove',
      user: { email: 'boss@a.example' },
      target: { kind: 'list_entry', id: null, label: 'blacklist gone@x.example' },
    };
    expect((await listHistory('boss@a.example'))[0]).toMatchObject(removed);
    expect((await listHistory('ann@a.example'))[0]).toMatchObject(removed);
    expect((await listHistory('amy@a.example')).map((r) => r.target?.label)).not.toContain('blacklist gone@x.example');
    // The global list's entries are an admin's only.
    const global = await call('GET', '/api/lists/?kind=whitelist&scope=global', 'root@admin.example');
    const globalId = global.json().results[0].id as string;
    expect((await call('DELETE', `/api/lists/${globalId}/`, 'boss@a.example')).statusCode).toBe(404);
  });

  test('clear: the entries of one owner and kind go, one bump, one history row; an empty list: 0, nothing written', async () => {
    const before = await version();
    const res = await call('DELETE', `/api/lists/?kind=blacklist&user_id=${ids['amy@a.example']}`, 'boss@a.example');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ deleted: 5 });
    expect(await version()).toBe(before + 1);
    // Her whitelist is untouched.
    expect((await call('GET', '/api/lists/?kind=whitelist', 'amy@a.example')).json().total).toBe(1);
    const [row] = await listHistory('boss@a.example');
    expect(row).toMatchObject({
      action: 'list_clear',
      target: { kind: 'list', id: `user:${ids['amy@a.example']}`, label: 'blacklist of user amy@a.example' },
    });
    const rowsBefore = (await listHistory('root@admin.example')).length;
    const empty = await call('DELETE', '/api/lists/?kind=blacklist', 'amy@a.example');
    expect(empty.json()).toEqual({ deleted: 0 });
    expect(await version()).toBe(before + 1);
    expect((await listHistory('root@admin.example')).length).toBe(rowsBefore);
    expect((await call('DELETE', '/api/lists/?kind=blacklist&scope=global', 'amy@a.example')).statusCode).toBe(403);
  });
});

test('history rows are read by the actor, admins and the domain_admin of the owner’s domain', async () => {
  const labels = async (as: string) =>
    (await listHistory(as)).map((r) => `${r.action} ${r.user.email} ${r.target?.label}`);
  const annAdd = 'list_add ann@a.example whitelist hans@xn--bcher-kva.example';
  const rootToB = 'list_add root@admin.example whitelist root-pick@z.example';
  expect(await labels('ann@a.example')).toContain(annAdd);
  expect(await labels('boss@a.example')).toContain(annAdd);
  expect(await labels('root@admin.example')).toContain(annAdd);
  expect(await labels('carl@b.example')).not.toContain(annAdd);
  expect(await labels('bob@b.example')).not.toContain(annAdd);
  // The admin's entries: on b.example's list and carl's (bob reads them), the global one (admins only).
  const bob = (await listHistory('bob@b.example')).filter((r) => r.user.email === 'root@admin.example');
  expect(bob.map((r) => r.target?.label)).toEqual(['whitelist root-pick@z.example', 'whitelist root-pick@z.example']);
  expect((await labels('boss@a.example')).filter((l) => l.startsWith('list_add root@'))).toEqual([]);
  expect((await labels('root@admin.example')).filter((l) => l === rootToB)).toHaveLength(3);
  // Not in the other categories.
  const admin = await call('GET', '/api/history/?category=administration&page_size=200', 'root@admin.example');
  expect(admin.json().results.filter((r: HistoryItem) => r.action.startsWith('list_'))).toEqual([]);
});

test('an admin’s or a domain_admin’s own list: the owner’s domain does not read what others do to it', async () => {
  const labels = async (as: string) =>
    (await listHistory(as)).map((r) => `${r.action} ${r.user.email} ${r.target?.label}`);
  // An admin on boss2's list (boss2: domain_admin of a.example), and on her own while she has a domain.
  const onBoss2 = await add('root@admin.example', {
    kind: 'blacklist',
    address: 'by-root@z.example',
    user_id: ids['boss2@a.example'],
  });
  expect(onBoss2.statusCode).toBe(201);
  await t.db
    .updateTable('users')
    .set({ domain_id: domains['a.example']! })
    .where('id', '=', ids['root@admin.example']!)
    .execute();
  try {
    const own = await add('root@admin.example', { kind: 'whitelist', address: 'root-own@z.example' });
    expect(own.statusCode).toBe(201);
  } finally {
    await t.db.updateTable('users').set({ domain_id: null }).where('id', '=', ids['root@admin.example']!).execute();
  }
  const byRoot = 'list_add root@admin.example blacklist by-root@z.example';
  const rootOwn = 'list_add root@admin.example whitelist root-own@z.example';
  expect(await labels('root@admin.example')).toEqual(expect.arrayContaining([byRoot, rootOwn]));
  const boss = await labels('boss@a.example');
  for (const row of [byRoot, rootOwn]) expect([row, boss.includes(row)]).toEqual([row, false]);
  // The row names the owner's list: it is hers to read (as a domain_admin she reads her domain's
  // rows only, so not here: the history's scoping of domain_admins, not the list's).
  const row = await t.db
    .selectFrom('history_audience as a')
    .innerJoin('history as h', 'h.id', 'a.history_id')
    .select('a.audience')
    .where('h.target_label', '=', 'blacklist by-root@z.example')
    .execute();
  expect(row.map((r) => r.audience).sort()).toEqual(
    [`u:${ids['boss2@a.example']}`, `u:${ids['root@admin.example']}`].sort(),
  );
  // A plain user's list stays read by her domain_admin, whoever changed it.
  expect(
    (
      await add('root@admin.example', {
        kind: 'blacklist',
        address: 'for-amy@z.example',
        user_id: ids['amy@a.example'],
      })
    ).statusCode,
  ).toBe(201);
  const forAmy = 'list_add root@admin.example blacklist for-amy@z.example';
  expect(await labels('boss@a.example')).toContain(forAmy);
  expect(await labels('amy@a.example')).toContain(forAmy);
  expect(await labels('ann@a.example')).not.toContain(forAmy);
  // boss2 is the owner without entries of the next tests.
  expect((await call('DELETE', '/api/lists/?kind=blacklist', 'boss2@a.example')).json()).toEqual({ deleted: 1 });
});

describe('owners changed by the users and domains code', () => {
  test('an e-mail change of an owner with entries bumps the map; of one without, not', async () => {
    let before = await version();
    const patch = (id: string, email: string) => call('PATCH', `/api/users/${id}/`, 'root@admin.example', { email });
    expect((await patch(ids['amy@a.example']!, 'amy2@a.example')).statusCode).toBe(200);
    expect(await version()).toBe(before + 1);
    const listed = await call(
      'GET',
      `/api/lists/?kind=whitelist&user_id=${ids['amy@a.example']}`,
      'root@admin.example',
    );
    expect(listed.json().results[0].user.email).toBe('amy2@a.example');
    before = await version();
    expect((await patch(ids['boss2@a.example']!, 'boss3@a.example')).statusCode).toBe(200);
    expect(await version()).toBe(before);
  });

  test('deleting a user with entries bumps the map and takes their entries', async () => {
    const before = await version();
    expect((await call('DELETE', `/api/users/${ids['carl@b.example']}/`, 'root@admin.example')).statusCode).toBe(204);
    expect(await version()).toBe(before + 1);
    expect((await entries()).filter((e) => e.user_id === ids['carl@b.example'])).toEqual([]);
  });

  test('a domain with entries: a rename and its deletion bump the map', async () => {
    const created = await call('POST', '/api/domains/', 'root@admin.example', { name: 'empty.example' });
    expect(created.statusCode).toBe(201);
    const domainId = created.json().id as string;
    let before = await version();
    const res = await add('root@admin.example', {
      kind: 'blacklist',
      address: '@x.example',
      scope: 'domain',
      domain_id: domainId,
    });
    expect(res.statusCode).toBe(201);
    expect(await version()).toBe(before + 1);
    before = await version();
    expect(
      (await call('PATCH', `/api/domains/${domainId}/`, 'root@admin.example', { name: 'renamed.example' })).statusCode,
    ).toBe(200);
    expect(await version()).toBe(before + 1);
    expect((await call('DELETE', `/api/domains/${domainId}/`, 'root@admin.example')).statusCode).toBe(204);
    expect(await version()).toBe(before + 2);
    expect((await entries()).filter((e) => e.domain_id === domainId)).toEqual([]);
    // A domain with users is refused: nothing bumped.
    before = await version();
    expect((await call('DELETE', `/api/domains/${domains['b.example']}/`, 'root@admin.example')).statusCode).toBe(409);
    expect(await version()).toBe(before);
  });

  test('a user confirming their own e-mail change bumps the map when they own entries', async () => {
    const before = await version();
    const res = await call('PATCH', '/api/users/me/', 'ann@a.example', {
      email: 'ann2@a.example',
      current_password: PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    const mail = t.mails.filter((m) => m.to === 'ann2@a.example').at(-1);
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1];
    expect(token).toBeDefined();
    expect(await version()).toBe(before);
    const done = await call('POST', '/api/users/me/email/confirm/', 'ann@a.example', { token });
    expect(done.statusCode).toBe(200);
    expect(await version()).toBe(before + 1);
  });
});
