import { bearer, type TestApp } from '../../test/helpers';
import { ingestOk, meta, mime, startQuarantineSuite, type QuarantineSuite } from '../../test/quarantine';
import { fold } from '../../lib/fold';
import { listPage } from './list-sort.repository';
import { listKeysQuery } from './list.repository';

/** The list's search finds what people type (issue 23): accents and case folded; IP, uuid, Message-ID. */
let suite: QuarantineSuite;
let t: TestApp;
let tokens: Record<string, string>;
const ids: Record<string, string> = {};

beforeAll(async () => {
  suite = await startQuarantineSuite([
    ['root@admin.example', 'admin', undefined],
    ['ann@a.example', 'user', 'a.example'],
  ]);
  ({ t, tokens } = suite);
  ids.congrats = await ingestOk(
    t,
    meta({ uuid: 'A1B2C3D4-0001.1', remote_ip: '198.51.100.23', rcpt_to: ['ann@a.example'] }),
    mime({ subject: 'FÉLICITATIONS, vous avez gagné', from: 'Zoë <zoë@prix.example>' }),
  );
  ids.other = await ingestOk(
    t,
    meta({ uuid: 'FFFF0000-0002.1', remote_ip: '203.0.113.9', rcpt_to: ['bob@b.example'] }),
    mime({ subject: 'Invoice', from: 'billing@shop.example' }),
  );
});
afterAll(() => suite.close());

async function search(email: string, q: string): Promise<string[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/quarantine/?status=all&q=${encodeURIComponent(q)}`,
    headers: bearer(tokens[email]!),
  });
  expect(res.statusCode).toBe(200);
  return res.json().results.map((r: { id: string }) => r.id);
}

test('fold: lower case, accents removed', () => {
  expect(fold('FÉLICITATIONS Zoë Ångström')).toBe('felicitations zoe angstrom');
});

test.each([
  ['felicitations', 'congrats'],
  ['Félicitations', 'congrats'],
  ['FELICITATIONS', 'congrats'],
  ['gagne', 'congrats'],
  ['vous avez GAGNÉ', 'congrats'],
  ['zoe@prix', 'congrats'],
  ['198.51.100.23', 'congrats'],
  ['A1B2C3D4-0001.1', 'congrats'],
  ['203.0.113.9', 'other'],
  ['invoice', 'other'],
])('"%s" finds the %s message (and only it)', async (q, name) => {
  expect(await search('root@admin.example', q)).toEqual([ids[name]]);
});

test('a prefix of an IP or uuid is not an exact match; a user never finds mail of others by them', async () => {
  expect(await search('root@admin.example', '198.51.100.2')).toEqual([]);
  expect(await search('ann@a.example', '203.0.113.9')).toEqual([]);
  expect(await search('ann@a.example', 'FFFF0000-0002.1')).toEqual([]);
  expect(await search('ann@a.example', '198.51.100.23')).toEqual([ids.congrats]);
});

test('the Message-ID still finds its message', async () => {
  const row = await t.db
    .selectFrom('quarantine_messages')
    .select('message_id')
    .where('id', '=', ids.other!)
    .executeTakeFirstOrThrow();
  expect(await search('root@admin.example', row.message_id!)).toEqual([ids.other]);
});

test('row by row (many hits, or a short term) the match is folded the same way', async () => {
  // textIds absent and the probe skipped: the keyset scan tests each row (the path of common terms).
  const { rows } = await listKeysQuery(t.db, { kind: 'all' }, { statuses: null, q: 'félicitations' }, null, 10).execute(
    t.db,
  );
  expect(rows.map((r) => r.message_id)).toEqual([ids.congrats]);
  const byIp = await listKeysQuery(t.db, { kind: 'all' }, { statuses: null, q: '203.0.113.9' }, null, 10).execute(t.db);
  expect(byIp.rows.map((r) => r.message_id)).toEqual([ids.other]);
  // Two characters: no trigram, always row by row.
  expect(await search('root@admin.example', 'ÉL')).toEqual([ids.congrats]);
  const exact = await listPage(t.db, { kind: 'all' }, { statuses: null, q: 'x', textIds: undefined }, null, 10);
  expect(exact.map((r) => r.id).sort()).toEqual([ids.congrats, ids.other].sort()); // ".example"
});
