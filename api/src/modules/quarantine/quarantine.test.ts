import { sql } from 'kysely';
import { bearer, sqliteOnly, type TestApp } from '../../test/helpers';
import { ingestOk, meta, mime, type Sink, startQuarantineSuite, type QuarantineSuite } from '../../test/quarantine';
import { listKeysQuery, messageIdForms, textHitIds } from './list.repository';
import { listPage } from './list-sort.repository';
import type { Scope } from './quarantine-scope';

let suite: QuarantineSuite;
let t: TestApp;
let sink: Sink;
let tokens: Record<string, string>;
const ids: Record<string, string> = {};
const T0 = Date.parse('2026-11-01T12:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();

beforeAll(async () => {
  suite = await startQuarantineSuite([
    ['root@admin.example', 'admin', undefined],
    ['boss@a.example', 'domain_admin', 'a.example'],
    ['boss@b.example', 'domain_admin', 'b.example'],
    ['ann@a.example', 'user', 'a.example'],
    ['carl@b.example', 'user', 'b.example'],
    ['lonely@empty.example', 'domain_admin', 'empty.example'],
  ]);
  ({ t, sink, tokens } = suite);
  const ingestAt = (name: string, minutes: number, m: Record<string, unknown>, raw = mime()) =>
    ingestOk(t, meta({ received_at: at(minutes), ...m }), raw).then((id) => (ids[name] = id));

  await ingestAt(
    'shared',
    10,
    {
      rcpt_to: ['ann@a.example', 'bob@a.example', 'carl@b.example'],
      rspamd: { action: 'reject', score: 12.5 },
    },
    mime({ subject: 'Quarterly INVOICE overdue', from: 'billing@invoices.example' }),
  );
  await ingestAt(
    'hi',
    20,
    { rcpt_to: ['ann@a.example'], mail_from: 'friend@ok.example', rspamd: { action: 'add header', score: 6 } },
    mime({ subject: 'Hi', from: 'friend@ok.example' }),
  );
  await ingestAt(
    'carl',
    30,
    { rcpt_to: ['carl@b.example'], rspamd: { action: 'quarantine', score: 2 } },
    mime({ subject: 'For Carl only' }),
  );
  // Six messages with the same received_at: the id breaks the tie in the keyset.
  for (let i = 0; i < 6; i++) {
    await ingestAt(`bulk${i}`, 5, { rcpt_to: ['ann@a.example'], rspamd: null }, mime({ subject: `Bulk ${i}` }));
  }
});
afterAll(() => suite.close());

interface Item {
  id: string;
  received_at: string;
  recipients: string[];
  recipient_count: number;
  subject: string;
  status: string;
  sender: string;
  score: number;
  action: string;
  size: number;
}

async function list(email: string, query = ''): Promise<{ results: Item[]; next_cursor: string | null }> {
  const res = await t.app.inject({ method: 'GET', url: `/api/quarantine/${query}`, headers: bearer(tokens[email]!) });
  expect(res.statusCode).toBe(200);
  return res.json();
}
const listIds = async (email: string, query = '') => (await list(email, query)).results.map((r) => r.id);
const nameOf = (id: string) => Object.entries(ids).find(([, v]) => v === id)?.[0];
const names = async (email: string, query = '') => (await listIds(email, query)).map(nameOf);

describe('scoping per role (DESIGN §4 "Per recipient")', () => {
  test('admin: everything, with every recipient', async () => {
    const results = (await list('root@admin.example', '?page_size=200')).results;
    expect(results.map((r) => nameOf(r.id)).sort()).toEqual(Object.keys(ids).sort());
    const shared = results.find((r) => r.id === ids.shared)!;
    expect(shared.recipients).toEqual(['ann@a.example', 'bob@a.example', 'carl@b.example']);
    expect(shared.recipient_count).toBe(3);
  });

  test('domain_admin: only mail with a recipient in their domain, and only those recipients', async () => {
    const a = await list('boss@a.example', '?page_size=200');
    expect(a.results.map((r) => nameOf(r.id)).sort()).toEqual(
      ['shared', 'hi', ...[0, 1, 2, 3, 4, 5].map((i) => `bulk${i}`)].sort(),
    );
    const shared = a.results.find((r) => r.id === ids.shared)!;
    expect(shared.recipients).toEqual(['ann@a.example', 'bob@a.example']);
    expect(shared.recipient_count).toBe(2);
    const b = await list('boss@b.example');
    expect(b.results.map((r) => nameOf(r.id)).sort()).toEqual(['carl', 'shared']);
    expect(b.results.find((r) => r.id === ids.shared)!.recipients).toEqual(['carl@b.example']);
    expect((await list('lonely@empty.example')).results).toEqual([]);
  });

  test('user: only mail addressed to them, with only their address', async () => {
    const carl = await list('carl@b.example');
    expect(carl.results.map((r) => nameOf(r.id)).sort()).toEqual(['carl', 'shared']);
    for (const r of carl.results) expect(r.recipients).toEqual(['carl@b.example']);
    const ann = await list('ann@a.example', '?page_size=200');
    expect(ann.results).toHaveLength(8);
    for (const r of ann.results) expect(r.recipients).toEqual(['ann@a.example']);
  });

  test('IDOR: detail, raw, release and delete of mail that is not yours → 404 email_not_found', async () => {
    const cases: [string, string][] = [
      ['ann@a.example', ids.carl!],
      ['boss@a.example', ids.carl!],
      ['carl@b.example', ids.hi!],
      ['lonely@empty.example', ids.shared!],
      ['root@admin.example', 'NO-SUCH-ID'],
    ];
    const before = sink.messages.length;
    for (const [email, id] of cases) {
      for (const [method, url] of [
        ['GET', `/api/quarantine/${id}/`],
        ['GET', `/api/quarantine/${id}/raw/`],
        ['POST', `/api/quarantine/${id}/release/`],
        ['DELETE', `/api/quarantine/${id}/`],
      ] as const) {
        const res = await t.app.inject({ method, url, headers: bearer(tokens[email]!) });
        expect([email, method, url, res.statusCode]).toEqual([email, method, url, 404]);
        expect(res.json()).toEqual({ detail: 'Email not found', code: 'email_not_found' });
      }
    }
    expect(sink.messages.length).toBe(before); // nothing was released
    // And nothing changed: carl's message is still pending for carl.
    expect((await list('carl@b.example')).results.find((r) => r.id === ids.carl)!.status).toBe('pending');
  });

  test('detail of shared mail lists only the caller’s recipients', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/quarantine/${ids.shared}/`,
      headers: bearer(tokens['carl@b.example']!),
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().recipients.map((r: { address: string }) => r.address)).toEqual(['carl@b.example']);
    expect(res.json().recipient_count).toBe(1);
    expect(JSON.stringify(res.json())).not.toContain('bob@a.example"'); // envelope only; headers are the message's own
  });

  test('without a token → 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/quarantine/' })).statusCode).toBe(401);
  });
});

test('the detail and the raw message are kept in no cache (no-store), their errors included; other routes keep no-cache', async () => {
  const get = (url: string, email = 'ann@a.example') =>
    t.app.inject({ method: 'GET', url, headers: bearer(tokens[email]!) });
  const answers = [
    await get(`/api/quarantine/${ids.hi}/`),
    await get(`/api/quarantine/${ids.hi}/raw/`),
    await get(`/api/quarantine/${ids.carl}/`), // not ann's: 404
    await get(`/api/quarantine/${ids.carl}/raw/`),
  ];
  expect(answers.map((r) => [r.statusCode, r.headers['cache-control']])).toEqual([
    [200, 'private, no-store'],
    [200, 'private, no-store'],
    [404, 'private, no-store'],
    [404, 'private, no-store'],
  ]);
  // Everything else the api answers is unchanged (stored, revalidated: Chromium's DevTools needs it).
  expect((await get('/api/quarantine/')).headers['cache-control']).toBe('private, no-cache');
});

describe('keyset pagination', () => {
  test('pages of 3 walk the whole list once, newest first, ties broken by id', async () => {
    const all = (await list('ann@a.example', '?page_size=200')).results;
    const seen: Item[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await list('ann@a.example', `?page_size=3${cursor ? `&cursor=${cursor}` : ''}`);
      expect(page.results.length).toBeLessThanOrEqual(3);
      seen.push(...page.results);
      cursor = page.next_cursor;
      pages++;
    } while (cursor && pages < 10);
    expect(pages).toBe(3); // 8 items: 3 + 3 + 2
    expect(seen.map((r) => r.id)).toEqual(all.map((r) => r.id));
    const keys = seen.map((r) => [Date.parse(r.received_at), r.id] as const);
    const sorted = [...keys].sort((x, y) => y[0] - x[0] || (y[1] < x[1] ? -1 : y[1] > x[1] ? 1 : 0));
    expect(keys).toEqual(sorted);
    expect(new Set(seen.map((r) => r.id)).size).toBe(8);
  });

  test('a forged cursor → 400; page_size over 200 → 400', async () => {
    for (const q of ['?cursor=bm90LWEtY3Vyc29y', '?cursor=%27%3B--', '?page_size=201', '?page_size=0']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/quarantine/${q}`,
        headers: bearer(tokens['ann@a.example']!),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_error');
    }
  });

  test('a control character in a text filter → 400 naming it (a NUL broke the search or matched everything)', async () => {
    for (const field of ['q', 'sender', 'recipient', 'action']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/quarantine/?${field}=ab%00cd`,
        headers: bearer(tokens['ann@a.example']!),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_error', errors: { [field]: expect.any(String) } });
    }
  });

  test('a reversed score or date range → 400 naming its lower bound (it could only answer nothing)', async () => {
    for (const [q, field] of [
      ['?score_min=10&score_max=5', 'score_min'],
      ['?date_from=2026-11-21T12:00:00%2B01:00&date_to=2026-11-20', 'date_from'],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/quarantine/${q}`,
        headers: bearer(tokens['ann@a.example']!),
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_error', errors: { [field]: expect.any(String) } });
    }
    for (const q of ['?score_min=5&score_max=5', '?date_from=2026-11-20&date_to=2026-11-20']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/quarantine/${q}`,
        headers: bearer(tokens['ann@a.example']!),
      });
      expect(res.statusCode).toBe(200);
    }
  });
});

describe('filters', () => {
  test('q: trigram search (3+ characters) on subject and sender, case-insensitive', async () => {
    expect(await names('root@admin.example', '?q=invoice')).toEqual(['shared']);
    expect(await names('root@admin.example', '?q=INVOIC')).toEqual(['shared']);
    expect(await names('root@admin.example', '?q=invoices.example')).toEqual(['shared']); // the From address
    expect(await names('root@admin.example', '?q=ok.example')).toEqual(['hi']); // the envelope sender too
    expect(await names('root@admin.example', '?q=nothing-like-this')).toEqual([]);
    expect(await names('root@admin.example', '?q=%25')).toEqual([]); // a wildcard is literal text
  });

  test('q: a recipient matches only when the caller sees it', async () => {
    expect(await names('root@admin.example', '?q=bob%40a')).toEqual(['shared']);
    expect(await names('boss@a.example', '?q=bob%40a')).toEqual(['shared']);
    expect(await names('ann@a.example', '?q=bob%40a')).toEqual([]); // bob is not ann's to see
    expect(await names('carl@b.example', '?q=bob')).toEqual([]);
  });

  test('q: the many-hits path (row by row) finds what the hits-first path finds', async () => {
    const scopes: Scope[] = [
      { kind: 'all' },
      { kind: 'domain', domain: 'a.example' },
      { kind: 'recipient', addresses: ['ann@a.example'] },
      { kind: 'recipient', addresses: ['carl@b.example'] },
    ];
    for (const scope of scopes) {
      for (const q of ['invoice', 'bob@a', 'Bulk', 'ok.example']) {
        const hitsFirst = await listPage(t.db, scope, { statuses: null, q }, null, 100);
        const { rows } = await listKeysQuery(t.db, scope, { statuses: null, q }, null, 100).execute(t.db);
        expect([scope.kind, q, rows.map((r) => r.message_id)]).toEqual([scope.kind, q, hitsFirst.map((m) => m.id)]);
      }
    }
    expect((await listPage(t.db, { kind: 'all' }, { statuses: null, q: 'Bulk' }, null, 100)).length).toBe(6);
    // Over the limit, the trigram probe gives up (and the row-by-row path is used).
    expect(await textHitIds(t.db, { kind: 'all' }, 'Bulk', 3)).toEqual({ ids: [], complete: false });
    expect((await textHitIds(t.db, { kind: 'all' }, 'Bulk', 6)).complete).toBe(true);
  });

  test('q: a Message-ID, with or without its angle brackets, finds its message (within the scope)', async () => {
    const detail = await t.app.inject({
      method: 'GET',
      url: `/api/quarantine/${ids.carl}/`,
      headers: bearer(tokens['root@admin.example']!),
    });
    const messageId: string = detail.json().message_id;
    expect(messageId).toMatch(/^<[0-9a-f]{12}@spam\.example>$/);
    const bare = messageId.slice(1, -1);
    for (const q of [messageId, bare, ` ${messageId} `]) {
      expect(await names('root@admin.example', `?q=${encodeURIComponent(q)}`)).toEqual(['carl']);
      expect(await names('carl@b.example', `?q=${encodeURIComponent(q)}`)).toEqual(['carl']);
      expect(await names('ann@a.example', `?q=${encodeURIComponent(q)}`)).toEqual([]); // not hers
    }
    // The row-by-row path (many hits) matches it too.
    const { rows } = await listKeysQuery(t.db, { kind: 'all' }, { statuses: null, q: bare }, null, 100).execute(t.db);
    expect(rows.map((r) => r.message_id)).toEqual([ids.carl]);
    // Part of one is not a Message-ID: no exact match is tried (and the text matches nothing).
    expect(await names('root@admin.example', `?q=${encodeURIComponent(bare.slice(0, 8))}`)).toEqual([]);
    expect(messageIdForms('a b@c')).toBeNull();

    expect(messageIdForms('<x@y>')).toEqual(['<x@y>', 'x@y']);
  });

  test('q under 3 characters: bounded LIKE', async () => {
    expect(await names('ann@a.example', '?q=Hi')).toEqual(['hi']);
    expect(await names('ann@a.example', '?q=%5F')).toEqual([]); // "_" is literal, not a wildcard
  });

  test('sender, recipient, action, score range, dates', async () => {
    expect(await names('root@admin.example', '?sender=friend')).toEqual(['hi']);
    expect(await names('root@admin.example', '?recipient=CARL%40b.example')).toEqual(['carl', 'shared']);
    expect(await names('root@admin.example', '?action=add_header')).toEqual(['hi']);
    expect(await names('root@admin.example', '?score_min=10')).toEqual(['shared']);
    expect(await names('root@admin.example', '?score_min=5&score_max=7')).toEqual(['hi']);
    expect(await names('root@admin.example', `?date_from=${encodeURIComponent(at(15))}`)).toEqual(['carl', 'hi']);
    expect(
      await names(
        'root@admin.example',
        `?date_from=${encodeURIComponent(at(10))}&date_to=${encodeURIComponent(at(20))}`,
      ),
    ).toEqual(['hi', 'shared']);
    expect(await names('root@admin.example', '?date_from=2026-11-02')).toEqual([]);
    expect((await names('root@admin.example', '?date_to=2026-11-01&page_size=200')).length).toBe(9); // the whole UTC day
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/quarantine/?date_from=yesterday',
      headers: bearer(tokens['ann@a.example']!),
    });
    expect(bad.statusCode).toBe(400);
  });

  test('status: pending by default (still held); deleted ones under status=deleted; all', async () => {
    const del = await t.app.inject({
      method: 'DELETE',
      url: `/api/quarantine/${ids.bulk0}/`,
      headers: bearer(tokens['ann@a.example']!),
    });
    expect(del.statusCode).toBe(204);
    expect(await names('ann@a.example', '?page_size=200')).not.toContain('bulk0');
    expect(await names('ann@a.example', '?status=deleted')).toEqual(['bulk0']);
    expect(await names('ann@a.example', '?status=all&page_size=200')).toContain('bulk0');
    expect(await names('ann@a.example', '?status=released')).toEqual([]);
    const item = (await list('ann@a.example', '?status=deleted')).results[0]!;
    expect(item.status).toBe('deleted');
    // The shared message as seen by ann after she deletes it: deleted for her, pending for carl.
    await t.app.inject({
      method: 'DELETE',
      url: `/api/quarantine/${ids.shared}/`,
      headers: bearer(tokens['ann@a.example']!),
    });
    expect((await list('ann@a.example', '?status=deleted')).results.find((r) => r.id === ids.shared)?.status).toBe(
      'deleted',
    );
    expect((await list('carl@b.example')).results.find((r) => r.id === ids.shared)?.status).toBe('pending');
    // The domain admin still sees bob's recipient pending: the view is the most actionable status.
    expect((await list('boss@a.example')).results.find((r) => r.id === ids.shared)?.status).toBe('pending');
  });
});

test('the list items carry the documented fields', async () => {
  const item = (await list('root@admin.example', '?q=Hi')).results.find((r) => r.id === ids.hi)!;
  expect(Object.keys(item).sort()).toEqual(
    [
      'action',
      'id',
      'raw_available',
      'received_at',
      'recipient_count',
      'recipients',
      'score',
      'sender',
      'size',
      'status',
      'subject',
    ].sort(),
  );
  expect(item).toMatchObject({
    sender: 'friend@ok.example',
    subject: 'Hi',
    score: 6,
    action: 'add_header',
    raw_available: true,
  });
  expect(item.received_at).toBe(at(20));
});

// SQLite's plan text only; PostgreSQL plans are asserted in db/query-plans.test.ts.
sqliteOnly('query plans (SQLite): each scope walks its index in keyset order', async () => {
  const plan = async (scope: Scope, withQ = false) => {
    const query = listKeysQuery(
      t.db,
      scope,
      { statuses: ['pending', 'releasing', 'release_failed', 'release_unknown'], ...(withQ ? { q: 'invoice' } : {}) },
      { received_at: T0, message_id: 'ZZZZ' },
      51,
    );
    const { rows } = await sql<{ detail: string }>`explain query plan ${query}`.execute(t.db);
    expect(rows.length).toBeGreaterThan(0);
    return rows.map((r) => r.detail).join('\n');
  };
  const user = await plan({ kind: 'recipient', addresses: ['ann@a.example'] });
  expect(user).toMatch(/USING COVERING INDEX qr_recipient_date/);
  const domain = await plan({ kind: 'domain', domain: 'a.example' });
  expect(domain).toMatch(/USING COVERING INDEX qr_domain_date/);
  const all = await plan({ kind: 'all' });
  expect(all).toMatch(/USING COVERING INDEX qr_date/);
  for (const p of [user, domain, all]) expect(p).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
  // Many hits: the scope's index in keyset order, each row's message tested by primary key.
  const many = await plan({ kind: 'domain', domain: 'a.example' }, true);
  expect(many).toMatch(/SEARCH r USING (COVERING )?INDEX qr_domain_date/);
  expect(many).toMatch(/SEARCH t USING INDEX sqlite_autoindex_quarantine_messages_1 \(id=\?\)/);
  expect(many).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
  // Few hits: their rows only, by primary key.
  const few = listKeysQuery(
    t.db,
    { kind: 'domain', domain: 'a.example' },
    { statuses: null, q: 'invoice', textIds: [ids.shared!] },
    null,
    51,
  );
  const { rows } = await sql<{ detail: string }>`explain query plan ${few}`.execute(t.db);
  expect(rows.map((r) => r.detail).join('\n')).toMatch(
    /SEARCH r USING (COVERING )?INDEX (sqlite_autoindex_quarantine_recipients|qr_pk).*\(message_id=\?/,
  );
});

test('OpenAPI documents the quarantine and history routes from the zod schemas', async () => {
  const res = await t.app.inject({ method: 'GET', url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  const spec = res.json();
  for (const p of [
    '/api/quarantine/ingest/',
    '/api/quarantine/',
    '/api/quarantine/{id}/',
    '/api/quarantine/{id}/raw/',
    '/api/quarantine/{id}/release/',
    '/api/history/',
  ]) {
    expect(Object.keys(spec.paths)).toContain(p);
  }
  const release = spec.paths['/api/quarantine/{id}/release/'].post;
  expect(JSON.stringify(release.responses['502'])).toContain('delivery');
  expect(JSON.stringify(spec.paths['/api/quarantine/{id}/'].get.responses['200'])).toContain('mime_domain');
  expect(Object.keys(spec.paths['/api/quarantine/ingest/'].post.requestBody.content)).toEqual(['multipart/form-data']);
});

// Last: it adds messages the other tests' expectations do not know.
test('a Message-ID of 900 characters in any script (3 KB: over a PostgreSQL B-tree entry) is stored; CJK ones are found', async () => {
  const rawWith = (messageId: string) =>
    Buffer.from(
      ['From: a@cjk.example', 'To: ann@a.example', 'Subject: Long id', `Message-ID: ${messageId}`, '', 'Body', ''].join(
        '\r\n',
      ),
      'utf8',
    );
  // Varied characters, so that PostgreSQL cannot compress the index entry under its limit.
  const cjk = (n: number, seed: number) =>
    Array.from({ length: n }, (_, i) => String.fromCodePoint(0x4e00 + (((i + seed) * 7919) % 20_000))).join('');
  const long = `<${cjk(900, 1)}@cjk.example>`;
  const short = `<${cjk(180, 2)}@cjk.example>`; // 194 characters: a search term may have 200
  const longId = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), rawWith(long));
  const shortId = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), rawWith(short));
  const detail = await t.app.inject({
    method: 'GET',
    url: `/api/quarantine/${longId}/`,
    headers: bearer(tokens['ann@a.example']!),
  });
  expect(detail.json().message_id).toBe(long);
  expect((await list('ann@a.example', `?q=${encodeURIComponent(short)}`)).results.map((r) => r.id)).toEqual([shortId]);
  expect(
    (await list('ann@a.example', `?q=${encodeURIComponent(short.slice(1, -1))}`)).results.map((r) => r.id),
  ).toEqual([shortId]);
});

// Last: it adds a mail the tests above do not expect.
test('a mail whose recipients differ in status says how many are in each; one in a single status does not', async () => {
  const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example', 'bob@a.example'] }), mime({ subject: 'Mixed zq7' }));
  const del = await t.app.inject({
    method: 'DELETE',
    url: `/api/quarantine/${id}/`,
    headers: bearer(tokens['ann@a.example']!),
  });
  expect(del.statusCode).toBe(204);
  const item = async (email: string, status: string) =>
    (await list(email, `?status=${status}&q=zq7`)).results.find((r) => r.id === id) as Item & {
      status_counts?: Record<string, number>;
    };
  // bob's copy is still held: the domain admin's row is pending, also under "deleted", and says so.
  for (const status of ['all', 'deleted', 'pending']) {
    expect(await item('boss@a.example', status)).toMatchObject({
      status: 'pending',
      status_counts: { pending: 1, deleted: 1 },
    });
  }
  const own = await item('ann@a.example', 'all');
  expect(own.status).toBe('deleted');
  expect(own).not.toHaveProperty('status_counts');
});
