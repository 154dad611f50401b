import { createTestApp, type TestApp } from '../../test/helpers'; // first: it makes jest able to load kysely
import type { RspamdFilter } from '@qc/contracts';
import { caller, listVersion, rowCount, ruleHistory, signIn } from './rspamd-test-helpers';

let t: TestApp;
let call: ReturnType<typeof caller>;
let tokens: Record<string, string>;
const ADMIN = 'root@admin.example';
const ADMIN2 = 'second@admin.example';
const BASE = '/api/rspamd/filters';

beforeAll(async () => {
  t = await createTestApp({ QC_TRUSTED_PROXIES: '127.0.0.1' });
  tokens = await signIn(t, [
    [ADMIN, 'admin'],
    [ADMIN2, 'admin'],
  ]);
  call = caller({ t, tokens });
});
afterAll(() => t.close());

async function create(type: string, body: object, as = ADMIN): Promise<RspamdFilter> {
  const res = await call('POST', `${BASE}/${type}/`, as, { description: 'A test filter', action: 'reject', ...body });
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  return res.json();
}

describe('create, read, update, delete', () => {
  test('a filter is stored normalised, with its creator, and read back at its family only', async () => {
    const before = await listVersion(t, 'filters-domains');
    const f = await create('domains', { value: 'Bücher.Example.', pattern_type: 'exact', description: 'Books spam' });
    expect(f).toMatchObject({
      type: 'domains',
      value: 'xn--bcher-kva.example',
      pattern_type: 'exact',
      action: 'reject',
      description: 'Books spam',
      enabled: true,
      created_by: { email: ADMIN },
    });
    expect(f.id).toMatch(/^[0-9A-Z]{26}$/);
    expect(await listVersion(t, 'filters-domains')).toBe(before + 1);
    expect((await call('GET', `${BASE}/domains/${f.id}/`, ADMIN)).json()).toEqual(f);
    // Another family's path does not show it.
    const other = await call('GET', `${BASE}/ips/${f.id}/`, ADMIN);
    expect([other.statusCode, other.json().code]).toEqual([404, 'not_found']);
    expect((await call('PATCH', `${BASE}/users/${f.id}/`, ADMIN, { description: 'xxx' })).statusCode).toBe(404);
    expect((await call('DELETE', `${BASE}/special/${f.id}/`, ADMIN)).statusCode).toBe(404);
  });

  test('the pattern type follows the value: an IP wildcard is a cidr, a /32 an exact address', async () => {
    expect(await create('ips', { value: '192.0.2.*', pattern_type: 'wildcard' })).toMatchObject({
      value: '192.0.2.0/24',
      pattern_type: 'cidr',
    });
    expect(await create('ips', { value: '198.51.100.9/32', pattern_type: 'cidr' })).toMatchObject({
      value: '198.51.100.9',
      pattern_type: 'exact',
    });
    expect(await create('users', { value: '@Promo.Example', pattern_type: 'exact' })).toMatchObject({
      value: '*@promo.example',
      pattern_type: 'wildcard',
    });
    expect(await create('special', { value: 'Free MONEY', pattern_type: 'exact' })).toMatchObject({
      value: 'free money',
      pattern_type: 'exact',
    });
  });

  test('update, disable, enable and delete: each bumps the list and is in the history with its actor', async () => {
    const f = await create('users', { value: 'spammer@bad.example', pattern_type: 'exact', action: 'quarantine' });
    const version = () => listVersion(t, 'filters-users');
    let v = await version();
    const changed = await call('PATCH', `${BASE}/users/${f.id}/`, ADMIN2, {
      value: 'Spammer2@Bad.Example',
      description: 'Renamed',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      value: 'spammer2@bad.example',
      description: 'Renamed',
      action: 'quarantine',
    });
    expect(Date.parse(changed.json().updated_at)).toBeGreaterThan(Date.parse(f.updated_at));
    expect(await version()).toBe(++v);

    // Nothing changed: no write, no bump, no history.
    const same = await call('PATCH', `${BASE}/users/${f.id}/`, ADMIN, { value: 'spammer2@bad.example' });
    expect(same.statusCode).toBe(200);
    expect(await version()).toBe(v);

    expect((await call('PATCH', `${BASE}/users/${f.id}/`, ADMIN, { enabled: false })).json().enabled).toBe(false);
    expect(await version()).toBe(++v);
    expect((await call('PATCH', `${BASE}/users/${f.id}/`, ADMIN, { enabled: true })).json().enabled).toBe(true);
    expect(await version()).toBe(++v);
    expect((await call('DELETE', `${BASE}/users/${f.id}/`, ADMIN)).statusCode).toBe(204);
    expect(await version()).toBe(++v);
    expect((await call('GET', `${BASE}/users/${f.id}/`, ADMIN)).statusCode).toBe(404);
    expect((await call('DELETE', `${BASE}/users/${f.id}/`, ADMIN)).statusCode).toBe(404);

    const rows = (await ruleHistory(t, tokens[ADMIN]!)).filter((r) => r.target?.label.startsWith('spammer'));
    // Rows of one millisecond have no set order: compared as a set.
    const shown = rows.map((r) => JSON.stringify([r.action, r.user.email, r.target, r.changes, r.ip_address])).sort();
    const ip = '198.51.100.7';
    const renamed = { kind: 'filter', id: f.id, label: 'spammer2@bad.example' };
    expect(shown).toEqual(
      [
        ['filter_delete', ADMIN, { ...renamed, id: null }, null, ip],
        ['filter_update', ADMIN, renamed, ['enabled'], ip],
        ['filter_update', ADMIN, renamed, ['enabled'], ip],
        ['filter_update', ADMIN2, renamed, ['value', 'description'], ip],
        ['filter_create', ADMIN, { kind: 'filter', id: f.id, label: 'spammer@bad.example' }, null, ip],
      ]
        .map((r) => JSON.stringify(r))
        .sort(),
    );
  });

  test('dry run: the stored form and the conflicts, but nothing saved, no bump, no history', async () => {
    const count = await rowCount(t, 'rspamd_filters');
    const v = await listVersion(t, 'filters-ips');
    const history = (await ruleHistory(t, tokens[ADMIN]!)).length;
    const dry = await call('POST', `${BASE}/ips/?dry_run=true`, ADMIN, {
      value: '2001:DB8:0:0::1',
      pattern_type: 'exact',
      action: 'accept',
      description: 'Partner relay',
    });
    expect(dry.statusCode).toBe(200);
    expect(dry.json()).toMatchObject({
      id: '',
      value: '2001:db8::1',
      pattern_type: 'exact',
      created_by: { email: ADMIN },
    });
    const invalid = await call('POST', `${BASE}/ips/?dry_run=true`, ADMIN, {
      value: '10.0.0.1/24',
      pattern_type: 'cidr',
      action: 'reject',
      description: 'A network',
    });
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json().errors).toEqual({ value: expect.stringContaining('the network is 10.0.0.0/24') });

    const real = await create('ips', { value: '203.0.113.0/24', pattern_type: 'cidr', action: 'reject' });
    const conflict = await call('POST', `${BASE}/ips/?dry_run=true`, ADMIN, {
      value: '203.0.113.*',
      pattern_type: 'wildcard',
      action: 'accept',
      description: 'Same network',
    });
    expect([conflict.statusCode, conflict.json().code]).toEqual([409, 'filter_conflict']);
    const patch = await call('PATCH', `${BASE}/ips/${real.id}/?dry_run=true`, ADMIN, { value: '203.0.114.0/24' });
    expect(patch.json()).toMatchObject({ id: real.id, value: '203.0.114.0/24' });
    expect((await call('GET', `${BASE}/ips/${real.id}/`, ADMIN)).json().value).toBe('203.0.113.0/24');
    expect(await rowCount(t, 'rspamd_filters')).toBe(count + 1);
    expect(await listVersion(t, 'filters-ips')).toBe(v + 1);
    expect((await ruleHistory(t, tokens[ADMIN]!)).length).toBe(history + 1);
  });
});

describe('validation: 400 under errors.value (or the field), nothing saved', () => {
  test.each([
    ['domains', 'exact', 'a..b.example', 'no empty labels'],
    ['domains', 'wildcard', '[ab].example', '"[" is not allowed'],
    ['domains', 'regex', '(a+)+$', 'backtrack catastrophically'],
    ['ips', 'exact', '010.1.1.1', 'Leading zeros'],
    ['ips', 'cidr', '10.0.0.1/24', 'the network is 10.0.0.0/24'],
    ['ips', 'cidr', '::1/129', '/129 is not'],
    ['users', 'exact', `${'a'.repeat(65)}@x.example`, 'at most 64 octets'],
    ['users', 'regex', '(a)\\1', 'Backreferences'],
    ['special', 'regex', 'a(?<=b)', 'Lookbehind'],
    ['special', 'wildcard', '{a,b}*', '"{" is not allowed'],
    ['domains', 'cidr', '10.0.0.0/8', 'pattern types exact, wildcard, regex'],
  ])('%s %s %j', async (type, patternType, value, message) => {
    const count = await rowCount(t, 'rspamd_filters');
    const res = await call('POST', `${BASE}/${type}/`, ADMIN, {
      value,
      pattern_type: patternType,
      action: 'reject',
      description: 'Should fail',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error', errors: { value: expect.stringContaining(message) } });
    expect(await rowCount(t, 'rspamd_filters')).toBe(count);
  });

  test('spec §5 messages, unknown fields, oversize values, an unknown family or action', async () => {
    const missing = await call('POST', `${BASE}/domains/`, ADMIN, { pattern_type: 'exact', description: 'x' });
    expect(missing.json().errors).toEqual({
      value: 'Pattern is required',
      action: 'Action is required',
      description: 'Description is too short',
    });
    const unknown = await call('POST', `${BASE}/domains/`, ADMIN, {
      value: 'a.example',
      pattern_type: 'exact',
      action: 'reject',
      description: 'Fine text',
      priority: 3,
    });
    expect([unknown.statusCode, unknown.json().errors]).toEqual([400, { priority: 'Not a field of this request.' }]);
    const long = await call('POST', `${BASE}/special/`, ADMIN, {
      value: 'x'.repeat(513),
      pattern_type: 'exact',
      action: 'reject',
      description: 'Fine text',
    });
    expect([long.statusCode, Object.keys(long.json().errors)]).toEqual([400, ['value']]);
    const family = await call('POST', `${BASE}/hosts/`, ADMIN, {
      value: 'a.example',
      pattern_type: 'exact',
      action: 'reject',
      description: 'Fine text',
    });
    expect([family.statusCode, family.json().errors]).toEqual([
      400,
      { type: 'Unknown filter type: one of domains, ips, users, special' },
    ]);
    expect((await call('GET', `${BASE}/hosts/`, ADMIN)).statusCode).toBe(400);
    const action = await call('POST', `${BASE}/domains/`, ADMIN, {
      value: 'a.example',
      pattern_type: 'exact',
      action: 'discard',
      description: 'Fine text',
    });
    expect([action.statusCode, Object.keys(action.json().errors)]).toEqual([400, ['action']]);
    const patch = await call('PATCH', `${BASE}/domains/01ARZ3NDEKTSV4RRFFQ69G5FAV/`, ADMIN, { colour: 'red' });
    expect(patch.statusCode).toBe(400);
  });
});

describe('conflicts: one filter per value and family, named in the refusal', () => {
  test('same value and action: filter_exists; another action: filter_conflict; however it is written', async () => {
    const first = await create('domains', {
      value: 'dup.example',
      pattern_type: 'exact',
      action: 'reject',
      description: 'Known spammer',
    });
    const again = await call('POST', `${BASE}/domains/`, ADMIN, {
      value: 'DUP.Example.',
      pattern_type: 'exact',
      action: 'reject',
      description: 'Again',
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'filter_exists',
      detail: `The domains list already has a filter: #${first.id} dup.example (reject, "Known spammer").`,
      errors: { value: expect.stringContaining(`#${first.id}`) },
    });
    const accept = await call('POST', `${BASE}/domains/`, ADMIN, {
      value: 'dup.example',
      pattern_type: 'wildcard',
      action: 'accept',
      description: 'Partner',
    });
    expect(accept.statusCode).toBe(409);
    expect(accept.json().code).toBe('filter_conflict');
    expect(accept.json().detail).toContain(`#${first.id} dup.example (reject, "Known spammer")`);
    expect(accept.json().detail).toContain('cannot be both reject and accept');
    // The same value in another family is another rule.
    await create('special', { value: 'dup.example', pattern_type: 'exact' });
    // An update onto another filter's value is refused the same way; onto its own value it is fine.
    const second = await create('domains', { value: 'dup2.example', pattern_type: 'exact', action: 'accept' });
    const onto = await call('PATCH', `${BASE}/domains/${second.id}/`, ADMIN, { value: 'dup.example' });
    expect([onto.statusCode, onto.json().code]).toEqual([409, 'filter_conflict']);
    expect((await call('PATCH', `${BASE}/domains/${second.id}/`, ADMIN, { value: 'DUP2.example' })).statusCode).toBe(
      200,
    );
  });

  test('concurrent creations of one value: one 201, the others 409 naming it', async () => {
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        call('POST', `${BASE}/domains/`, ADMIN, {
          value: 'race.example',
          pattern_type: 'exact',
          action: 'reject',
          description: 'Race',
        }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const id = answers.find((r) => r.statusCode === 201)!.json().id;
    for (const r of answers.filter((a) => a.statusCode === 409)) expect(r.json().detail).toContain(`#${id}`);
  });
});

describe('lists: newest first, keyset pages, search and filters', () => {
  test('pages cover every filter once, newest first; q, action, pattern_type and enabled filter', async () => {
    const made: RspamdFilter[] = [];
    for (let i = 0; i < 7; i++) {
      made.push(
        await create('special', {
          value: `page subject ${i}${i % 2 ? ' *' : ''}`,
          pattern_type: i % 2 ? 'wildcard' : 'exact',
          action: i % 3 ? 'reject' : 'quarantine',
          description: i === 4 ? 'Needle In Description' : `Paging ${i}`,
          enabled: i !== 5,
        }),
      );
    }
    const seen: RspamdFilter[] = [];
    let cursor: string | null = null;
    do {
      const url: string = `${BASE}/special/?q=page%20subject&page_size=3${cursor ? `&cursor=${cursor}` : ''}`;
      const res = await call('GET', url, ADMIN);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(body.results.length).toBeLessThanOrEqual(3);
      seen.push(...body.results);
      cursor = body.next_cursor;
    } while (cursor);
    expect(seen.map((f) => f.id).sort()).toEqual(made.map((f) => f.id).sort());
    const times = seen.map((f) => Date.parse(f.created_at));
    expect(times).toEqual([...times].sort((a, b) => b - a));

    const ids = async (query: string) =>
      ((await call('GET', `${BASE}/special/?${query}`, ADMIN)).json().results as RspamdFilter[])
        .map((f) => f.value)
        .sort();
    expect(await ids('q=NEEDLE%20in')).toEqual(['page subject 4']);
    expect(await ids('q=page&action=quarantine')).toEqual(['page subject 0', 'page subject 3 *', 'page subject 6']);
    expect(await ids('q=page&pattern_type=exact&enabled=true')).toEqual([
      'page subject 0',
      'page subject 2',
      'page subject 4',
      'page subject 6',
    ]);
    expect(await ids('enabled=false&q=page')).toEqual(['page subject 5 *']);
    expect(await ids('q=%25')).toEqual([]); // LIKE wildcards match literally
    expect((await call('GET', `${BASE}/special/?cursor=garbage`, ADMIN)).json().errors).toEqual({
      cursor: 'Invalid cursor.',
    });
    expect((await call('GET', `${BASE}/special/?pattern_type=glob`, ADMIN)).statusCode).toBe(400);
  });
});

describe('bulk', () => {
  test('disable, enable and delete several filters: per-id results, one bump each, a history row per change', async () => {
    const a = await create('ips', { value: '198.51.100.1', pattern_type: 'exact' });
    const b = await create('ips', { value: '198.51.100.2', pattern_type: 'exact', enabled: false });
    const elsewhere = await create('domains', { value: 'bulk.example', pattern_type: 'exact' });
    const v = await listVersion(t, 'filters-ips');
    const bulk = (action: string, ids: string[]) => call('POST', `${BASE}/ips/bulk/`, ADMIN, { action, ids });

    const disable = await bulk('disable', [a.id, b.id, elsewhere.id, 'nope', a.id]);
    expect(disable.json().results).toEqual([
      { id: a.id, status: 'ok' },
      { id: b.id, status: 'ok' },
      { id: elsewhere.id, status: 'not_found' },
      { id: 'nope', status: 'not_found' },
    ]);
    expect(await listVersion(t, 'filters-ips')).toBe(v + 1);
    expect((await call('GET', `${BASE}/ips/${a.id}/`, ADMIN)).json().enabled).toBe(false);
    // Already in that state: ok, no bump.
    await bulk('disable', [a.id, b.id]);
    expect(await listVersion(t, 'filters-ips')).toBe(v + 1);
    await bulk('enable', [a.id, b.id]);
    expect(await listVersion(t, 'filters-ips')).toBe(v + 2);
    expect((await call('GET', `${BASE}/ips/${b.id}/`, ADMIN)).json().enabled).toBe(true);
    const removed = await bulk('delete', [a.id, b.id]);
    expect(removed.json().results.map((r: { status: string }) => r.status)).toEqual(['ok', 'ok']);
    expect(await listVersion(t, 'filters-ips')).toBe(v + 3);
    expect((await call('GET', `${BASE}/domains/${elsewhere.id}/`, ADMIN)).statusCode).toBe(200);

    const rows = (await ruleHistory(t, tokens[ADMIN]!)).filter((r) =>
      ['198.51.100.1', '198.51.100.2'].includes(r.target!.label),
    );
    expect(rows.map((r) => `${r.action} ${r.target!.label} ${r.changes ?? ''}`).sort()).toEqual(
      [
        'filter_create 198.51.100.1 ',
        'filter_create 198.51.100.2 ',
        'filter_update 198.51.100.1 enabled',
        'filter_update 198.51.100.1 enabled',
        'filter_update 198.51.100.2 enabled', // enabled only (it was created disabled)
        'filter_delete 198.51.100.1 ',
        'filter_delete 198.51.100.2 ',
      ].sort(),
    );
    const empty = await call('POST', `${BASE}/ips/bulk/`, ADMIN, { action: 'delete', ids: [] });
    expect(empty.statusCode).toBe(400);
    const tooMany = await call('POST', `${BASE}/ips/bulk/`, ADMIN, {
      action: 'delete',
      ids: Array.from({ length: 201 }, (_, i) => `x${i}`),
    });
    expect(tooMany.statusCode).toBe(400);
  });
});
