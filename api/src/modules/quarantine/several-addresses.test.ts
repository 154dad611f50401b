import { bearer, type TestApp } from '../../test/helpers'; // first: it makes jest able to load kysely
import {
  ingestOk,
  meta,
  mime,
  recipientStatuses,
  type QuarantineSuite,
  type Sink,
  startQuarantineSuite,
} from '../../test/quarantine';
import { signDigestLink } from '../notifications/digest-link';
import { replaceAddresses } from '../users/user-addresses.repository';

// A user with several addresses (issue 31): Ann's primary ann@a.example and her alias
// annie@a.example. Everything scoped to "her mail" takes both, read with the session on each
// request; Bob (bob@a.example) is the third person whose mail she must not see.

const MAPS_TOKEN = 'mApS-Tok3n_0123456789abcdefXYZ';
const ADMIN = 'root@admin.example';
const ANN = 'ann@a.example';
const ALIAS = 'annie@a.example';
const BOB = 'bob@a.example';

let suite: QuarantineSuite;
let t: TestApp;
let sink: Sink;
let tokens: Record<string, string>;
let userIds: Record<string, string>;
const ids: Record<string, string> = {};

const T0 = Date.now() - 60 * 60_000;
/** Held mail, `minutes` after T0 (the list's date order is the order of these). */
const held = (subject: string, to: string[], minutes: number, score = 15) =>
  ingestOk(
    t,
    meta({
      rcpt_to: to,
      received_at: new Date(T0 + minutes * 60_000).toISOString(),
      rspamd: { action: 'reject', score, required_score: 15, symbols: {} },
    }),
    mime({ subject, to: to.join(', ') }),
  );

beforeAll(async () => {
  suite = await startQuarantineSuite(
    [
      [ADMIN, 'admin', undefined],
      [ANN, 'user', 'a.example'],
      [BOB, 'user', 'a.example'],
    ],
    { QC_RSPAMD_MAPS_TOKEN: MAPS_TOKEN },
  );
  ({ t, sink, tokens, userIds } = suite);
  await replaceAddresses(t.db, userIds[ANN]!, [ANN, ALIAS]);
  ids.primary = await held('to primary', [ANN], 1, 16);
  ids.alias = await held('to alias', [ALIAS], 2, 17);
  ids.bob = await held('to bob', [BOB], 3, 18);
  ids.both = await held('to both', [ANN, ALIAS, BOB], 4, 19);
  ids.alias2 = await held('to alias again', [ALIAS], 5, 20);
});
afterAll(() => suite.close());

const get = (email: string, url: string) => t.app.inject({ method: 'GET', url, headers: bearer(tokens[email]!) });

interface Item {
  id: string;
  subject: string;
  recipients: string[];
  recipient_count: number;
}
interface Page {
  results: Item[];
  next_cursor: string | null;
  total?: { count: number };
}

/** Every page of the caller's list, `query` kept, following next_cursor. */
async function walk(email: string, query: string): Promise<Item[][]> {
  const pages: Item[][] = [];
  let cursor: string | null = null;
  do {
    const res = await get(email, `/api/quarantine/?${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
    expect(res.statusCode).toBe(200);
    const page = res.json<Page>();
    pages.push(page.results);
    cursor = page.next_cursor;
  } while (cursor && pages.length < 20);
  return pages;
}

test('the list holds the mail to every address of hers, each message once, and none of a third person’s', async () => {
  const res = await get(ANN, '/api/quarantine/?status=all');
  const page = res.json<Page>();
  expect(page.results.map((r) => r.subject)).toEqual(['to alias again', 'to both', 'to alias', 'to primary']);
  expect(page.total).toEqual({ count: 4, exact: true });
  // The message to both of her addresses (and to Bob): once, with her two recipient rows only.
  const both = page.results.find((r) => r.id === ids.both)!;
  expect([both.recipients, both.recipient_count]).toEqual([[ANN, ALIAS], 2]);
  // Bob sees his own copy only.
  const bob = (await get(BOB, '/api/quarantine/?status=all')).json<Page>().results;
  expect(bob.map((r) => [r.subject, r.recipients])).toEqual([
    ['to both', [BOB]],
    ['to bob', [BOB]],
  ]);
  // A filter on the alias, and the details: hers; Bob's mail is not (404).
  const filtered = (await get(ANN, `/api/quarantine/?status=all&recipient=${ALIAS}`)).json<Page>().results;
  expect(filtered.map((r) => r.subject)).toEqual(['to alias again', 'to both', 'to alias']);
  const detail = await get(ANN, `/api/quarantine/${ids.alias}/`);
  expect([detail.statusCode, detail.json().recipients.map((r: { address: string }) => r.address)]).toEqual([
    200,
    [ALIAS],
  ]);
  expect((await get(ANN, `/api/quarantine/${ids.bob}/`)).statusCode).toBe(404);
});

test('keyset pages of one: each message once, in order, by date and by score, both directions', async () => {
  for (const query of [
    'status=all&page_size=1',
    'status=all&page_size=1&order=asc',
    'status=all&page_size=1&sort=score',
  ]) {
    const pages = await walk(ANN, query);
    const seen = pages.flat().map((r) => r.subject);
    const expected = ['to alias again', 'to both', 'to alias', 'to primary'];
    expect([query, seen]).toEqual([query, query.includes('asc') ? [...expected].reverse() : expected]);
    expect(pages.every((p) => p.length <= 1)).toBe(true);
  }
  // Two a page: the message to both addresses does not take two places.
  const pairs = await walk(ANN, 'status=all&page_size=2');
  expect(pairs.map((p) => p.map((r) => r.subject))).toEqual([
    ['to alias again', 'to both'],
    ['to alias', 'to primary'],
  ]);
});

test('the dashboard and the statistics count the recipient rows of both addresses', async () => {
  // Recipient rows, as everywhere on the dashboard: the mail to both of her addresses counts twice.
  const dashboard = await get(ANN, '/api/dashboard/');
  expect(dashboard.json()).toEqual({ pending: 5, released: 0, deleted: 0 });
  expect((await get(BOB, '/api/dashboard/')).json()).toEqual({ pending: 2, released: 0, deleted: 0 });
  const stats = await get(ANN, '/api/statistics/?days=7');
  expect(stats.json().totals).toEqual({ quarantined: 5, released: 0, deleted: 0 });
  const tops = (await get(ANN, '/api/statistics/tops/?days=7')).json();
  expect(tops.recipients).toEqual([
    { key: ALIAS, count: 3 },
    { key: ANN, count: 2 },
  ]);
});

test('her digest goes to her primary and lists the mail to the alias', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/users/me/notifications/test/',
    headers: bearer(tokens[ANN]!),
    payload: {},
  });
  expect([res.statusCode, res.json().count]).toEqual([200, 4]);
  const mail = t.mails.at(-1)!;
  expect(mail.to).toBe(ANN);
  expect(mail.text).toContain('to alias again');
  expect(mail.text).toContain(`${ANN}, ${ALIAS}`);
  expect(mail.text).not.toContain('to bob');
});

test('releasing the message to both addresses releases both of her recipients (each to its address), not Bob’s', async () => {
  const before = sink.messages.length;
  const res = await t.app.inject({
    method: 'POST',
    url: `/api/quarantine/${ids.both}/release/`,
    headers: bearer(tokens[ANN]!),
  });
  expect(res.statusCode).toBe(200);
  expect(res.json()).toMatchObject({ status: 'released', delivery: { accepted: [ANN, ALIAS], rejected: [] } });
  const sent = sink.messages.slice(before);
  expect(sent.map((m) => [...m.to].sort())).toEqual([[ANN, ALIAS]]);
  expect(await recipientStatuses(t, ids.both!)).toEqual({ [ANN]: 'released', [ALIAS]: 'released', [BOB]: 'pending' });
  expect((await get(ANN, '/api/dashboard/')).json()).toEqual({ pending: 3, released: 2, deleted: 0 });
});

test('the history shows her what was done with the alias’s mail; Bob does not see it', async () => {
  const removed = await t.app.inject({
    method: 'DELETE',
    url: `/api/quarantine/${ids.alias}/`,
    headers: bearer(tokens[ADMIN]!),
  });
  expect(removed.statusCode).toBe(204);
  const mine = (await get(ANN, '/api/history/')).json().results as { action: string; email_id: string | null }[];
  expect(mine).toEqual(
    expect.arrayContaining([
      expect.objectContaining({ action: 'delete', email_id: ids.alias }),
      expect.objectContaining({ action: 'release', email_id: ids.both }),
    ]),
  );
  const bobs = (await get(BOB, '/api/history/')).json().results as { email_id: string | null }[];
  expect(bobs.map((r) => r.email_id)).not.toContain(ids.alias);
});

test('her blacklist entry is in Rspamd’s map for each of her addresses', async () => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/lists/',
    headers: bearer(tokens[ANN]!),
    payload: { kind: 'blacklist', address: 'pest@spam.example' },
  });
  expect(res.statusCode).toBe(201);
  const id = res.json().id as string;
  const map = await t.app.inject({
    method: 'GET',
    url: '/api/rspamd/maps/sender-lists.json',
    headers: { authorization: `Basic ${Buffer.from(`rspamd:${MAPS_TOKEN}`).toString('base64')}` },
  });
  expect(map.statusCode).toBe(200);
  const entries = (JSON.parse(map.body) as { entries: unknown[][] }).entries.filter((e) => e[3] === id);
  expect(entries).toEqual([
    [ANN, 'pest@spam.example', 'b', id],
    [ALIAS, 'pest@spam.example', 'b', id],
  ]);
});

test('a control-panel filter of hers may be for her alias, not for another’s address', async () => {
  const create = (to: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/rspamd/apanel-filters/',
      headers: bearer(tokens[ADMIN]!),
      payload: { owner_id: userIds[ANN], from: '*@news.example', to, action: 'reject', description: 'Hers' },
    });
  const alias = await create('Annie@A.example');
  expect([alias.statusCode, alias.json().to]).toEqual([201, ALIAS]);
  const other = await create(BOB);
  expect([other.statusCode, other.json().errors?.to]).toEqual([400, expect.stringContaining(ALIAS)]);
});

test('“learned by” an address of hers is shown to her', async () => {
  await t.db
    .updateTable('quarantine_messages')
    .set({ learned_as: 'spam', learned_at: Date.now(), learned_by: ALIAS })
    .where('id', '=', ids.alias2!)
    .execute();
  expect((await get(ANN, `/api/quarantine/${ids.alias2}/`)).json().learned).toMatchObject({ as: 'spam', by: ALIAS });
});

test('a link of her digest acts on her copies at each of her addresses', async () => {
  const id = await held('to both again', [ANN, ALIAS, BOB], 6);
  const token = signDigestLink(t.config.secretKey, {
    userId: userIds[ANN]!,
    action: 'release',
    messageId: id,
    kind: 'user',
    expiresAt: Date.now() + 60 * 60_000,
  });
  const info = await t.app.inject({
    method: 'GET',
    url: `/api/digest/${token}/`,
    headers: { accept: 'application/json' },
  });
  expect(info.json()).toMatchObject({ state: 'ready', recipient: ANN });
  const res = await t.app.inject({ method: 'POST', url: `/api/digest/${token}/` });
  expect([res.statusCode, res.json().result]).toEqual([200, 'released']);
  expect(await recipientStatuses(t, id)).toEqual({ [ANN]: 'released', [ALIAS]: 'released', [BOB]: 'pending' });
});

test('the alias removed, its mail leaves her list at her next request (the scope is read per request)', async () => {
  await replaceAddresses(t.db, userIds[ANN]!, [ANN]);
  const page = (await get(ANN, '/api/quarantine/?status=all')).json<Page>();
  expect(page.results.map((r) => [r.subject, r.recipients])).toEqual([
    ['to both again', [ANN]],
    ['to both', [ANN]],
    ['to primary', [ANN]],
  ]);
  expect((await get(ANN, `/api/quarantine/${ids.alias2}/`)).statusCode).toBe(404);
  expect((await get(ANN, '/api/dashboard/')).json()).toEqual({ pending: 1, released: 2, deleted: 0 });
  const history = (await get(ANN, '/api/history/')).json().results as { email_id: string | null }[];
  expect(history.map((r) => r.email_id)).not.toContain(ids.alias);
});
