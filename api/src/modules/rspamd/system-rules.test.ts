import { createTestApp, type TestApp } from '../../test/helpers'; // first: it makes jest able to load kysely
import type { SystemRule } from '@qc/contracts';
import { caller, listVersion, rowCount, ruleHistory, signIn } from './rspamd-test-helpers';

let t: TestApp;
let call: ReturnType<typeof caller>;
let tokens: Record<string, string>;
const ADMIN = 'root@admin.example';
const BASE = '/api/rspamd/system-rules/';

beforeAll(async () => {
  t = await createTestApp({ QC_TRUSTED_PROXIES: '127.0.0.1' });
  tokens = await signIn(t, [[ADMIN, 'admin']]);
  call = caller({ t, tokens });
});
afterAll(() => t.close());

async function create(body: object): Promise<SystemRule> {
  const res = await call('POST', BASE, ADMIN, { action: 'reject', ...body });
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  return res.json();
}

describe('system rules', () => {
  test('every given pattern is stored normalised; empty ones are not used', async () => {
    const v = await listVersion(t, 'system-rules');
    const rule = await create({
      name: 'Invoice fraud',
      from: '@Fraud.Example',
      subject: 'Invoice *',
      to: '',
      ip: '192.0.2.*',
      action: 'greylist',
    });
    expect(rule).toMatchObject({
      name: 'Invoice fraud',
      from: '*@fraud.example',
      subject: 'invoice *',
      to: null,
      ip: '192.0.2.0/24',
      action: 'greylist',
      enabled: true,
      created_by: { email: ADMIN },
    });
    expect(await listVersion(t, 'system-rules')).toBe(v + 1);
    const regex = await create({
      name: 'Regex rule',
      from: '/^news-\\d+@/',
      subject: '/invoice \\d+/i',
      action: 'add_header',
    });
    expect(regex).toMatchObject({ from: '/^news-\\d+@/', subject: '/invoice \\d+/i', to: null, ip: null });
    expect((await call('GET', `${BASE}${rule.id}/`, ADMIN)).json()).toEqual(rule);
  });

  test('no pattern: errors.patterns "Pattern is required"; a bad one is named under its field; nothing saved', async () => {
    const count = await rowCount(t, 'system_rules');
    const none = await call('POST', BASE, ADMIN, { name: 'Empty', from: '', subject: null, action: 'reject' });
    expect([none.statusCode, none.json().errors]).toEqual([400, { patterns: 'Pattern is required' }]);
    const all = await call('POST', BASE, ADMIN, { name: 'Everything', from: '*', ip: '0.0.0.0/0', action: 'reject' });
    expect([all.statusCode, all.json().errors]).toEqual([
      400,
      { patterns: 'These patterns match all mail: narrow one' },
    ]);
    const bad = await call('POST', BASE, ADMIN, {
      name: 'Bad',
      from: '/(a+)+@x/',
      subject: '/x(?=y)/',
      to: 'corp.example',
      ip: '10.0.0.1/24',
      action: 'soft_reject',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      from: expect.stringContaining('backtrack catastrophically'),
      subject: expect.stringContaining('Lookahead'),
      to: expect.stringContaining('@bad.example'),
      ip: expect.stringContaining('the network is 10.0.0.0/24'),
    });
    const name = await call('POST', BASE, ADMIN, { name: 'ab', from: '*', action: 'discard' });
    expect(Object.keys(name.json().errors).sort()).toEqual(['action', 'name']);
    const unknown = await call('POST', BASE, ADMIN, { name: 'Unknown', from: '*', action: 'reject', helo: 'x' });
    expect(unknown.json().errors).toEqual({ helo: 'Not a field of this request.' });
    expect(await rowCount(t, 'system_rules')).toBe(count);
  });

  test('update: a pattern can be removed while one remains; same patterns as another rule are refused', async () => {
    const rule = await create({ name: 'Two patterns', from: '*@two.example', ip: '198.51.100.0/24' });
    const removed = await call('PATCH', `${BASE}${rule.id}/`, ADMIN, { ip: null });
    expect(removed.json()).toMatchObject({ from: '*@two.example', ip: null });
    const last = await call('PATCH', `${BASE}${rule.id}/`, ADMIN, { from: '' });
    expect([last.statusCode, last.json().errors]).toEqual([400, { patterns: 'Pattern is required' }]);

    const twin = await call('POST', BASE, ADMIN, { name: 'Twin', from: '@two.example', action: 'accept' });
    expect(twin.statusCode).toBe(409);
    expect(twin.json()).toMatchObject({
      code: 'filter_conflict',
      errors: { patterns: expect.stringContaining(`#${rule.id} Two patterns (reject)`) },
    });
    const other = await create({ name: 'Other', from: '*@three.example' });
    const onto = await call('PATCH', `${BASE}${other.id}/`, ADMIN, { from: '*@two.example' });
    expect([onto.statusCode, onto.json().code]).toEqual([409, 'filter_exists']);
    const dry = await call('PATCH', `${BASE}${other.id}/?dry_run=true`, ADMIN, { name: 'Renamed', enabled: false });
    expect(dry.json()).toMatchObject({ name: 'Renamed', enabled: false });
    expect((await call('GET', `${BASE}${other.id}/`, ADMIN)).json()).toMatchObject({ name: 'Other', enabled: true });
    const history = (await ruleHistory(t, tokens[ADMIN]!)).filter((r) => r.target?.id === rule.id);
    expect(history.map((r) => [r.action, r.target!.kind, r.changes])).toEqual([
      ['filter_update', 'system_rule', ['ip']],
      ['filter_create', 'system_rule', null],
    ]);
  });

  test('list: q finds the name or a pattern; bulk disable and delete bump the list', async () => {
    const a = await create({ name: 'Needle rule', subject: 'hay', action: 'add_header' });
    const b = await create({ name: 'Plain rule', to: 'needle@corp.example', action: 'add_header' });
    const names = async (query: string) =>
      ((await call('GET', `${BASE}?${query}`, ADMIN)).json().results as SystemRule[]).map((r) => r.name).sort();
    expect(await names('q=NEEDLE')).toEqual(['Needle rule', 'Plain rule']);
    expect(await names('q=needle&action=reject')).toEqual([]);
    const v = await listVersion(t, 'system-rules');
    await call('POST', `${BASE}bulk/`, ADMIN, { action: 'disable', ids: [a.id, b.id] });
    expect(await listVersion(t, 'system-rules')).toBe(v + 1);
    expect(await names('q=needle&enabled=false')).toEqual(['Needle rule', 'Plain rule']);
    const del = await call('POST', `${BASE}bulk/`, ADMIN, { action: 'delete', ids: [a.id, b.id] });
    expect(del.json().results).toEqual([
      { id: a.id, status: 'ok' },
      { id: b.id, status: 'ok' },
    ]);
    expect(await listVersion(t, 'system-rules')).toBe(v + 2);
    expect(await names('q=needle')).toEqual([]);
  });

  test('concurrent creations of the same patterns: one stored, the others 409 naming it', async () => {
    const count = await rowCount(t, 'system_rules');
    const answers = await Promise.all(
      Array.from({ length: 5 }, (_, i) =>
        call('POST', BASE, ADMIN, { name: `Race ${i}`, from: '*@race.example', subject: 'race', action: 'reject' }),
      ),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409, 409, 409, 409]);
    const winner = answers.find((r) => r.statusCode === 201)!.json() as SystemRule;
    for (const r of answers.filter((a) => a.statusCode === 409)) {
      expect(r.json()).toMatchObject({
        code: 'filter_exists',
        errors: { patterns: expect.stringContaining(`#${winner.id} ${winner.name} (reject)`) },
      });
    }
    expect(await rowCount(t, 'system_rules')).toBe(count + 1);
  });

  test('concurrent updates onto the same patterns: one saved, the other 409 naming it', async () => {
    const a = await create({ name: 'Move A', from: '*@move-a.example' });
    const b = await create({ name: 'Move B', from: '*@move-b.example' });
    const answers = await Promise.all(
      [a, b].map((r) => call('PATCH', `${BASE}${r.id}/`, ADMIN, { from: '*@moved.example' })),
    );
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    const winner = answers.find((r) => r.statusCode === 200)!.json() as SystemRule;
    expect(answers.find((r) => r.statusCode === 409)!.json().detail).toContain(`#${winner.id} ${winner.name}`);
  });

  test('a pattern over 512 characters: a clear 400 under its field, nothing stored', async () => {
    const count = await rowCount(t, 'system_rules');
    const long = `${'a'.repeat(513 - '@x.example'.length)}@x.example`;
    expect(long).toHaveLength(513);
    for (const field of ['from', 'subject', 'to', 'ip'] as const) {
      const res = await call('POST', BASE, ADMIN, { name: 'Too long', [field]: long, action: 'reject' });
      expect([field, res.statusCode, res.json().errors]).toEqual([field, 400, { [field]: 'At most 512 characters' }]);
    }
    expect(await rowCount(t, 'system_rules')).toBe(count);
  });

  test('keyset pages of one: every rule exactly once, newest first', async () => {
    for (let i = 0; i < 4; i++) await create({ name: `Paging ${i}`, subject: `paging ${i}` });
    const all = (await call('GET', `${BASE}?page_size=100`, ADMIN)).json().results as SystemRule[];
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await call(
        'GET',
        `${BASE}?page_size=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        ADMIN,
      );
      expect(res.statusCode).toBe(200);
      const body = res.json() as { results: SystemRule[]; next_cursor: string | null };
      expect(body.results.length).toBeLessThanOrEqual(1);
      seen.push(...body.results.map((r) => r.id));
      cursor = body.next_cursor;
    } while (cursor && seen.length <= all.length);
    expect(seen).toEqual(all.map((r) => r.id));
    expect(new Set(seen).size).toBe(await rowCount(t, 'system_rules'));
  });
});
