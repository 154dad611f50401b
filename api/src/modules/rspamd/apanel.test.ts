import { createTestApp, type TestApp } from '../../test/helpers'; // first: it makes jest able to load kysely
import type { ApanelFilter } from '@qc/contracts';
import { caller, listVersion, rowCount, ruleHistory, signIn } from './rspamd-test-helpers';

let t: TestApp;
let call: ReturnType<typeof caller>;
let tokens: Record<string, string>;
const ADMIN = 'root@admin.example';
const ANN = 'ann@a.example';
const BOB = 'bob@a.example';
const GONE = 'gone@a.example';
const BASE = '/api/rspamd/apanel-filters/';
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp({ QC_TRUSTED_PROXIES: '127.0.0.1' });
  tokens = await signIn(t, [[ADMIN, 'admin']]);
  for (const email of [ANN, BOB, GONE]) ids[email] = (await t.createUser({ email, domain: 'a.example' })).id;
  await t.db.updateTable('users').set({ is_active: 0 }).where('email', '=', GONE).execute();
  call = caller({ t, tokens });
});
afterAll(() => t.close());

async function create(body: object): Promise<ApanelFilter> {
  const res = await call('POST', BASE, ADMIN, { action: 'reject', description: 'A test filter', ...body });
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  return res.json();
}

describe('control-panel filters', () => {
  test('a system filter: patterns normalised, read back, and its list bumped', async () => {
    const v = await listVersion(t, 'apanel-filters');
    const f = await create({ from: '@Spam.Example', to: '*@Corp.Example', action: 'discard' });
    expect(f).toMatchObject({
      owner: null,
      from: '*@spam.example',
      to: '*@corp.example',
      action: 'discard',
      enabled: true,
      created_by: { email: ADMIN },
    });
    expect(await listVersion(t, 'apanel-filters')).toBe(v + 1);
    expect((await call('GET', `${BASE}${f.id}/`, ADMIN)).json()).toEqual(f);
    const anyone = await create({ from: 'boss@partner.example', to: '*', action: 'accept' });
    expect(anyone.to).toBe('*');
  });

  test("a user's filter is for their own address: empty or * means it, another address is refused", async () => {
    const own = await create({ owner_id: ids[ANN], from: '*@news.example', to: '' });
    expect(own).toMatchObject({ owner: { id: ids[ANN], email: ANN }, to: ANN });
    expect((await create({ owner_id: ids[ANN], from: '*@promo.example', to: '*' })).to).toBe(ANN);
    expect((await create({ owner_id: ids[ANN], from: '*@ads.example', to: 'ANN@A.example' })).to).toBe(ANN);
    const other = await call('POST', BASE, ADMIN, {
      owner_id: ids[ANN],
      from: '*@x.example',
      to: BOB,
      action: 'reject',
      description: 'Not hers',
    });
    expect([other.statusCode, other.json().errors]).toEqual([400, { to: expect.stringContaining(ANN) }]);
    for (const ownerId of ['01ARZ3NDEKTSV4RRFFQ69G5FAV', ids[GONE]]) {
      const res = await call('POST', BASE, ADMIN, {
        owner_id: ownerId,
        from: '*@x.example',
        to: '*',
        action: 'reject',
        description: 'No owner',
      });
      expect([res.statusCode, res.json().errors]).toEqual([400, { owner_id: 'No active user has this id' }]);
    }
    // A system filter needs its recipient pattern.
    const noTo = await call('POST', BASE, ADMIN, { from: '*@x.example', action: 'reject', description: 'No to' });
    expect([noTo.statusCode, noTo.json().errors]).toEqual([400, { to: 'Pattern is required' }]);
    // Handing it to Bob makes it his (his address), unless a `to` says otherwise.
    const moved = await call('PATCH', `${BASE}${own.id}/`, ADMIN, { owner_id: ids[BOB] });
    expect(moved.json()).toMatchObject({ owner: { id: ids[BOB], email: BOB }, to: BOB });
    const system = await call('PATCH', `${BASE}${own.id}/`, ADMIN, { owner_id: null });
    expect(system.json()).toMatchObject({ owner: null, to: BOB });
    const history = await ruleHistory(t, tokens[ADMIN]!);
    expect(history.find((r) => r.target?.id === own.id && r.action === 'filter_update')?.changes).toEqual(['owner_id']);
  });

  test('bad patterns are named per field; the pair is unique, the refusal names the other filter', async () => {
    const count = await rowCount(t, 'apanel_filters');
    const bad = await call('POST', BASE, ADMIN, {
      from: 'bad.example',
      to: '[a]*@x.example',
      action: 'reject',
      description: 'Bad patterns',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors).toEqual({
      from: expect.stringContaining('@bad.example'),
      to: expect.stringContaining('"[" is not allowed'),
    });
    // Anyone → anyone would act on all mail; a "/…/" sender is never a regex.
    for (const [from, to, field, text] of [
      ['*', '*@*', 'from', 'matches all mail'],
      ['/^.*/@x.example', '*@corp.example', 'from', '"/" cannot start'],
    ]) {
      const res = await call('POST', BASE, ADMIN, { from, to, action: 'discard', description: 'Too wide' });
      expect([res.statusCode, res.json().errors?.[field!]]).toEqual([400, expect.stringContaining(text!)]);
    }
    const unknown = await call('POST', BASE, ADMIN, {
      from: '*',
      to: '*@a.example',
      action: 'greylist',
      description: 'Bad action',
      subject: 'x',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors).toMatchObject({ subject: 'Not a field of this request.' });
    expect(await rowCount(t, 'apanel_filters')).toBe(count);

    const first = await create({
      from: 'ceo@fraud.example',
      to: '*@corp.example',
      action: 'quarantine',
      description: 'CEO fraud',
    });
    const same = await call('POST', BASE, ADMIN, {
      from: 'CEO@Fraud.example',
      to: '*@CORP.example',
      action: 'quarantine',
      description: 'Again',
    });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({
      code: 'filter_exists',
      detail: `This sender and recipient pair already has a filter: #${first.id} ceo@fraud.example → *@corp.example (quarantine, "CEO fraud").`,
    });
    const conflict = await call('POST', BASE, ADMIN, {
      from: 'ceo@fraud.example',
      to: '*@corp.example',
      action: 'accept',
      description: 'Whitelisted',
    });
    expect([conflict.statusCode, conflict.json().code]).toEqual([409, 'filter_conflict']);
    const dry = await call('POST', `${BASE}?dry_run=true`, ADMIN, {
      from: 'ceo@fraud.example',
      to: '*@corp.example',
      action: 'reject',
      description: 'Dry',
    });
    expect([dry.statusCode, dry.json().code]).toEqual([409, 'filter_conflict']);
  });

  test('a pattern over 512 characters: a clear 400 under its field on create and update, nothing stored', async () => {
    const long = `${'a'.repeat(513 - '@x.example'.length)}@x.example`;
    expect(long).toHaveLength(513);
    const count = await rowCount(t, 'apanel_filters');
    for (const [field, body] of [
      ['from', { from: long, to: '*@corp.example' }],
      ['to', { from: '*@long.example', to: long }],
    ] as const) {
      const res = await call('POST', BASE, ADMIN, { ...body, action: 'reject', description: 'Too long' });
      expect([field, res.statusCode, res.json().errors]).toEqual([field, 400, { [field]: 'At most 512 characters' }]);
    }
    expect(await rowCount(t, 'apanel_filters')).toBe(count);
    const kept = await create({ from: '*@kept.example', to: '*@corp.example', description: 'Kept as it was' });
    const patch = await call('PATCH', `${BASE}${kept.id}/`, ADMIN, { from: long });
    expect([patch.statusCode, patch.json().errors]).toEqual([400, { from: 'At most 512 characters' }]);
    expect((await call('GET', `${BASE}${kept.id}/`, ADMIN)).json()).toEqual(kept);
  });

  test('list: owner, action, enabled and q filter; pages newest first; bulk and delete bump and record', async () => {
    const mine = await create({ owner_id: ids[BOB], from: '*@list-one.example', to: '*', action: 'accept' });
    const sys = await create({ from: '*@list-two.example', to: '*@a.example', action: 'accept', enabled: false });
    const values = async (query: string) =>
      ((await call('GET', `${BASE}?${query}`, ADMIN)).json().results as ApanelFilter[]).map((f) => f.from).sort();
    expect(await values(`owner=${ids[BOB]}&q=list-`)).toEqual(['*@list-one.example']);
    expect(await values('owner=system&q=list-')).toEqual(['*@list-two.example']);
    expect(await values('q=LIST-&enabled=false')).toEqual(['*@list-two.example']);
    expect(await values('q=list-&action=accept')).toEqual(['*@list-one.example', '*@list-two.example']);
    expect(await values(`q=${encodeURIComponent(BOB)}`)).toContain('*@list-one.example'); // `to` is searched
    const first = (await call('GET', `${BASE}?page_size=1`, ADMIN)).json();
    expect(first.results).toHaveLength(1);
    const second = (await call('GET', `${BASE}?page_size=1&cursor=${first.next_cursor}`, ADMIN)).json();
    expect(second.results[0].id).not.toBe(first.results[0].id);
    expect(Date.parse(second.results[0].created_at)).toBeLessThanOrEqual(Date.parse(first.results[0].created_at));

    const v = await listVersion(t, 'apanel-filters');
    const bulk = await call('POST', `${BASE}bulk/`, ADMIN, { action: 'enable', ids: [mine.id, sys.id] });
    expect(bulk.json().results).toEqual([
      { id: mine.id, status: 'ok' },
      { id: sys.id, status: 'ok' },
    ]);
    expect(await listVersion(t, 'apanel-filters')).toBe(v + 1);
    expect((await call('DELETE', `${BASE}${mine.id}/`, ADMIN)).statusCode).toBe(204);
    expect(await listVersion(t, 'apanel-filters')).toBe(v + 2);
    await call('POST', `${BASE}bulk/`, ADMIN, { action: 'delete', ids: [sys.id] });
    expect(await listVersion(t, 'apanel-filters')).toBe(v + 3);
    const rows = (await ruleHistory(t, tokens[ADMIN]!)).filter((r) => r.target?.label.includes('list-'));
    // Rows of one millisecond have no set order: compared as a set.
    expect(rows.map((r) => [r.action, r.target!.kind, r.target!.label, r.user.email].join(' ')).sort()).toEqual(
      [
        `filter_delete apanel_filter *@list-two.example → *@a.example ${ADMIN}`,
        `filter_delete apanel_filter *@list-one.example → ${BOB} ${ADMIN}`,
        `filter_update apanel_filter *@list-two.example → *@a.example ${ADMIN}`,
        `filter_create apanel_filter *@list-two.example → *@a.example ${ADMIN}`,
        `filter_create apanel_filter *@list-one.example → ${BOB} ${ADMIN}`,
      ].sort(),
    );
  });

  test('deleting a user deletes their filters: the list is bumped and each deletion is in the history', async () => {
    const carol = await t.createUser({ email: 'carol@a.example', domain: 'a.example' });
    const f = await create({ owner_id: carol.id, from: '*@carol-spam.example', to: '*' });
    const v = await listVersion(t, 'apanel-filters');
    expect((await call('DELETE', `/api/users/${carol.id}/`, ADMIN)).statusCode).toBe(204);
    expect((await call('GET', `${BASE}${f.id}/`, ADMIN)).statusCode).toBe(404);
    expect(await listVersion(t, 'apanel-filters')).toBe(v + 1);
    const rows = (await ruleHistory(t, tokens[ADMIN]!)).filter((r) => r.target?.label.startsWith('*@carol-spam'));
    expect(rows.map((r) => `${r.action} ${r.target!.label} ${r.user.email}`).sort()).toEqual([
      `filter_create *@carol-spam.example → carol@a.example ${ADMIN}`,
      `filter_delete *@carol-spam.example → carol@a.example ${ADMIN}`,
    ]);
  });
});
