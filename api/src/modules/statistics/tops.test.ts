import { runCli } from '../../cli/run-cli';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import { ingestOk, INGEST_TOKEN, meta, mime } from '../../test/quarantine';
import { DAY_MS, utcDay } from './statistics.repository';
import { scoringSymbols } from './tops.repository';

let t: TestApp;
const tokens: Record<string, string> = {};
const noonDaysAgo = (n: number) => new Date(utcDay(Date.now()) - n * DAY_MS + 12 * 3600_000).toISOString();

const sym = (...names: [string, number][]) =>
  Object.fromEntries(names.map(([name, score]) => [name, { name, score, options: [] }]));

/** What is ingested: [days ago, sender, recipients, symbols]. */
const MAIL: [number, string, string[], [string, number][]][] = [
  [
    0,
    'King@Spam.example',
    ['ann@a.example', 'bob@a.example'],
    [
      ['BAYES_SPAM', 5],
      ['R_DKIM_ALLOW', -0.2],
    ],
  ],
  [
    0,
    'king@spam.example',
    ['ann@a.example'],
    [
      ['BAYES_SPAM', 4],
      ['URIBL_BLACK', 7.5],
    ],
  ],
  [
    1,
    'promo@shop.example',
    ['carl@b.example', 'ann@a.example'],
    [
      ['URIBL_BLACK', 7.5],
      ['ZERO', 0],
    ],
  ],
  [3, 'promo@shop.example', ['carl@b.example'], [['MISSING_MID', 2.5]]],
  [5, 'fraud@scam.example', ['bob@a.example'], [['PHISHING', 9]]],
  [20, 'old@past.example', ['ann@a.example', 'carl@b.example'], [['OLD_RULE', 3]]], // outside 7 days
];

beforeAll(async () => {
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
  for (const [email, role, domain] of [
    ['root@admin.example', 'admin', undefined],
    ['boss@a.example', 'domain_admin', 'a.example'],
    ['ann@a.example', 'user', 'a.example'],
    ['carl@b.example', 'user', 'b.example'],
  ] as const) {
    await t.createUser({ email, role, domain });
    tokens[email] = (await t.login(email)).access;
  }
  for (const [ago, from, rcpt, symbols] of MAIL) {
    await ingestOk(
      t,
      meta({
        mail_from: from,
        rcpt_to: rcpt,
        received_at: noonDaysAgo(ago),
        rspamd: { action: 'reject', score: 15, required_score: 15, symbols: sym(...symbols) },
      }),
      mime({ from: from }),
    );
  }
}, 60_000);
afterAll(() => t.close());

interface Tops {
  range: { from: string; to: string };
  senders: { key: string; count: number }[];
  recipients: { key: string; count: number }[];
  symbols: { key: string; count: number }[];
  domains: { domain: string; quarantined: number; released: number; deleted: number }[] | null;
}

async function tops(email: string, query = '?days=7'): Promise<Tops> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/statistics/tops/${query}`,
    headers: bearer(tokens[email]!),
  });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** The tops as the stored messages say, for a scope's recipient rows received in the last `days` days. */
async function fromMessages(inScope: (recipient: string) => boolean, days: number) {
  const rows = await t.db
    .selectFrom('quarantine_recipients as r')
    .innerJoin('quarantine_messages as m', 'm.id', 'r.message_id')
    .select(['r.recipient', 'r.received_at', 'm.sender', 'm.symbols'])
    .execute();
  const since = utcDay(Date.now()) - (days - 1) * DAY_MS;
  const counts = {
    senders: new Map<string, number>(),
    recipients: new Map<string, number>(),
    symbols: new Map<string, number>(),
  };
  const add = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
  for (const r of rows) {
    if (!inScope(r.recipient) || Number(r.received_at) < since) continue;
    add(counts.senders, r.sender.toLowerCase());
    add(counts.recipients, r.recipient);
    for (const s of scoringSymbols(r.symbols)) add(counts.symbols, s);
  }
  const ranked = (m: Map<string, number>) =>
    [...m]
      .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
      .slice(0, 10)
      .map(([key, count]) => ({ key, count }));
  return { senders: ranked(counts.senders), recipients: ranked(counts.recipients), symbols: ranked(counts.symbols) };
}

const SCOPES: [string, (r: string) => boolean][] = [
  ['root@admin.example', () => true],
  ['boss@a.example', (r) => r.endsWith('@a.example')],
  ['ann@a.example', (r) => r === 'ann@a.example'],
  ['carl@b.example', (r) => r === 'carl@b.example'],
];

test('each role’s tops are what the messages of its scope say, for each period', async () => {
  for (const days of [2, 7, 30]) {
    for (const [email, inScope] of SCOPES) {
      const got = await tops(email, `?days=${days}`);
      const { senders, recipients, symbols } = got;
      expect([email, days, { senders, recipients, symbols }]).toEqual([email, days, await fromMessages(inScope, days)]);
    }
  }
  // Spelled out once: ann's week (senders lower-cased, symbols at 0 or below not counted).
  expect(await tops('ann@a.example')).toMatchObject({
    senders: [
      { key: 'king@spam.example', count: 2 },
      { key: 'promo@shop.example', count: 1 },
    ],
    recipients: [{ key: 'ann@a.example', count: 3 }],
    symbols: [
      { key: 'BAYES_SPAM', count: 2 },
      { key: 'URIBL_BLACK', count: 2 },
    ],
    domains: null,
  });
  // A domain_admin never sees another domain's recipients or senders.
  const boss = await tops('boss@a.example', '?days=30');
  expect(boss.recipients.map((r) => r.key).sort()).toEqual(['ann@a.example', 'bob@a.example']);
  expect(boss.domains).toBeNull();
});

test('an admin gets the per-domain breakdown, from the daily rollup', async () => {
  const { domains } = await tops('root@admin.example');
  expect(domains).toEqual([
    { domain: 'a.example', quarantined: 5, released: 0, deleted: 0 },
    { domain: 'b.example', quarantined: 2, released: 0, deleted: 0 },
  ]);
  expect((await tops('root@admin.example', '?days=30')).domains).toEqual([
    { domain: 'a.example', quarantined: 6, released: 0, deleted: 0 },
    { domain: 'b.example', quarantined: 3, released: 0, deleted: 0 },
  ]);
});

test('bad periods are a 400; no token a 401', async () => {
  const bad = await t.app.inject({
    method: 'GET',
    url: '/api/statistics/tops/?days=3',
    headers: bearer(tokens['ann@a.example']!),
  });
  expect(bad.statusCode).toBe(400);
  const both = await t.app.inject({
    method: 'GET',
    url: '/api/statistics/tops/?days=7&date_from=2026-01-01',
    headers: bearer(tokens['ann@a.example']!),
  });
  expect(both.statusCode).toBe(400);
  expect((await t.app.inject({ method: 'GET', url: '/api/statistics/tops/' })).statusCode).toBe(401);
});

test('ingest keeps the tops; stats:rebuild recomputes them from the messages', async () => {
  const before = await tops('root@admin.example', '?days=30');
  await ingestOk(
    t,
    meta({
      mail_from: 'promo@shop.example',
      rcpt_to: ['carl@b.example'],
      rspamd: { action: 'reject', score: 9, required_score: 15, symbols: sym(['PHISHING', 9]) },
    }),
    mime({ from: 'promo@shop.example' }),
  );
  const after = await tops('root@admin.example', '?days=30');
  const count = (list: { key: string; count: number }[], key: string) => list.find((i) => i.key === key)?.count ?? 0;
  expect(count(after.senders, 'promo@shop.example')).toBe(count(before.senders, 'promo@shop.example') + 1);
  expect(count(after.symbols, 'PHISHING')).toBe(count(before.symbols, 'PHISHING') + 1);
  expect(count(after.recipients, 'carl@b.example')).toBe(count(before.recipients, 'carl@b.example') + 1);

  const good = await Promise.all(SCOPES.map(([email]) => tops(email, '?days=30')));
  await t.db.updateTable('quarantine_tops').set({ n: 999 }).where('kind', '=', 'sender').execute();
  await t.db.deleteFrom('quarantine_tops').where('kind', '=', 'symbol').execute();
  expect(await tops('root@admin.example', '?days=30')).not.toEqual(good[0]);
  let out = '';
  const code = await runCli(['stats:rebuild'], {
    env: t.env,
    cwd: t.tmpDir,
    stdout: (s) => (out += s),
    stderr: (s) => (out += s),
    readStdin: async () => '',
  });
  expect([code, out]).toEqual([0, expect.stringMatching(/^Statistics rebuilt/)]);
  expect(await Promise.all(SCOPES.map(([email]) => tops(email, '?days=30')))).toEqual(good);
  for (const [email, inScope] of SCOPES) {
    const { senders, recipients, symbols } = await tops(email, '?days=30');
    expect([email, { senders, recipients, symbols }]).toEqual([email, await fromMessages(inScope, 30)]);
  }
}, 60_000);
