import { BULK_MAX_IDS } from '@qc/contracts';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openMigratedDatabase } from '../db/database';
import { bearer, type TestApp } from '../test/helpers';
import { ingestOk, meta, mime, startQuarantineSuite, type QuarantineSuite, type Sink } from '../test/quarantine';
import { createBudget } from './budget';

// Small budgets, so a test reaches them in a few calls; releases keep their default (a full bulk must fit).
const DOWNLOADS = 3;
const SEARCHES = 3;
const RELEASES = 1000;

let suite: QuarantineSuite;
let t: TestApp;
let sink: Sink;
let tokens: Record<string, string>;
let userIds: Record<string, string>;

const ANN = 'ann@a.example';
const CARL = 'carl@b.example';

beforeAll(async () => {
  suite = await startQuarantineSuite(
    [
      [ANN, 'user', 'a.example'],
      [CARL, 'user', 'b.example'],
      ['root@admin.example', 'admin', undefined],
    ],
    { QC_BUDGET_DOWNLOADS: String(DOWNLOADS), QC_BUDGET_SEARCHES: String(SEARCHES) },
  );
  ({ t, sink, tokens, userIds } = suite);
});
afterAll(() => suite.close());
// Every test starts with fresh budgets (as after a minute).
beforeEach(() => t.db.deleteFrom('rate_limits').where('key', 'like', 'budget-%').execute());

const get = (email: string, url: string, app: FastifyInstance = t.app) =>
  app.inject({ method: 'GET', url, headers: bearer(tokens[email]!) });
const post = (email: string, url: string, payload: object = {}) =>
  t.app.inject({ method: 'POST', url, headers: bearer(tokens[email]!), payload });
const mail = (rcpt: string, subject = 'hello') => ingestOk(t, meta({ rcpt_to: [rcpt] }), mime({ subject, to: rcpt }));
const historyRows = (email: string, action: string) =>
  t.db
    .selectFrom('history')
    .select(['email_id'])
    .where('actor_email', '=', email)
    .where('action', '=', action as never)
    .execute();
const statusOf = async (id: string) =>
  (
    await t.db
      .selectFrom('quarantine_recipients')
      .select('status')
      .where('message_id', '=', id)
      .executeTakeFirstOrThrow()
  ).status;

/** A 429 as every budget answers it: rate_limited, Retry-After in whole seconds within the minute. */
function expectRateLimited(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toMatchObject({ code: 'rate_limited' });
  const retryAfter = Number(res.headers['retry-after']);
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60);
}

/** As if the minute had passed: the user's budget windows end now. */
const endWindows = (email: string) =>
  t.db
    .updateTable('rate_limits')
    .set({ window_ends_at: Date.now() - 1 })
    .where('key', 'like', `budget-%:${userIds[email]}`)
    .execute();

describe('downloads', () => {
  test('beyond QC_BUDGET_DOWNLOADS: 429 with Retry-After and no history row; another user is unaffected; the window resets', async () => {
    const anns = await mail(ANN);
    const carls = await mail(CARL);
    for (let i = 0; i < DOWNLOADS; i++) expect((await get(ANN, `/api/quarantine/${anns}/raw/`)).statusCode).toBe(200);
    expect(await historyRows(ANN, 'download')).toHaveLength(DOWNLOADS);

    const refused = await get(ANN, `/api/quarantine/${anns}/raw/`);
    expectRateLimited(refused);
    expect(refused.body).not.toContain('hello');
    // An unknown id is refused the same way: the budget is spent before anything is looked up.
    expectRateLimited(await get(ANN, '/api/quarantine/01ZZZZZZZZZZZZZZZZZZZZZZZZ/raw/'));
    expect(await historyRows(ANN, 'download')).toHaveLength(DOWNLOADS);

    expect((await get(CARL, `/api/quarantine/${carls}/raw/`)).statusCode).toBe(200);

    await endWindows(ANN);
    expect((await get(ANN, `/api/quarantine/${anns}/raw/`)).statusCode).toBe(200);
    expect(await historyRows(ANN, 'download')).toHaveLength(DOWNLOADS + 1);
  });

  test('a burst of parallel downloads: exactly the budget goes through, one history row each', async () => {
    const anns = await mail(ANN);
    const before = (await historyRows(ANN, 'download')).length;
    const all = await Promise.all(Array.from({ length: 12 }, () => get(ANN, `/api/quarantine/${anns}/raw/`)));
    const statuses = all.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array<number>(DOWNLOADS).fill(200), ...Array<number>(12 - DOWNLOADS).fill(429)]);
    expect((await historyRows(ANN, 'download')).length - before).toBe(DOWNLOADS);
  });

  test('two api instances on one database spend the same budget', async () => {
    const anns = await mail(ANN);
    const config = loadConfig(t.env, t.tmpDir);
    const database = await openMigratedDatabase(config.database);
    const other = await buildApp(config, { database });
    await other.ready();
    try {
      const statuses = [];
      for (let i = 0; i <= DOWNLOADS; i++) {
        statuses.push((await get(ANN, `/api/quarantine/${anns}/raw/`, i % 2 ? other : t.app)).statusCode);
      }
      expect(statuses).toEqual([...Array<number>(DOWNLOADS).fill(200), 429]);
    } finally {
      await other.close();
    }
  });
});

describe('searches', () => {
  test('paging the lists without a typed term never meets the budget; selectors are not searches', async () => {
    for (let i = 0; i < SEARCHES * 3; i++) {
      expect((await get(ANN, '/api/quarantine/?page_size=10')).statusCode).toBe(200);
      expect((await get(ANN, '/api/quarantine/?status=all&action=reject&score_min=1')).statusCode).toBe(200);
      expect((await get(ANN, '/api/history/?category=mail')).statusCode).toBe(200);
    }
  });

  test('q, sender, recipient and the history’s user spend one shared budget; 429 beyond it, another user unaffected', async () => {
    await mail(ANN, 'invoice 42');
    const searches = [
      '/api/quarantine/?q=invoice',
      '/api/quarantine/?sender=example',
      `/api/history/?user=${encodeURIComponent(ANN)}`,
    ];
    expect(searches).toHaveLength(SEARCHES);
    for (const url of searches) expect((await get(ANN, url)).statusCode).toBe(200);

    expectRateLimited(await get(ANN, '/api/quarantine/?q=invoice'));
    expectRateLimited(await get(ANN, '/api/quarantine/?recipient=ann'));
    expectRateLimited(await get(ANN, `/api/history/?user=${encodeURIComponent(ANN)}`));
    // Browsing still works while searching waits.
    expect((await get(ANN, '/api/quarantine/')).statusCode).toBe(200);

    const carls = await get(CARL, '/api/quarantine/?q=invoice');
    expect(carls.statusCode).toBe(200);

    await endWindows(ANN);
    const again = await get(ANN, '/api/quarantine/?q=invoice');
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ results: [expect.objectContaining({ subject: 'invoice 42' })] });
  });
});

describe('releases', () => {
  /** Spends the user's release budget down to `left`, as other calls (or another process) would have. */
  const spendReleases = (email: string, left: number) =>
    createBudget(t.db, 'releases', RELEASES, 'test')(userIds[email]!, RELEASES - left);

  test('a single release beyond QC_BUDGET_RELEASES: 429, nothing sent, still pending, no history row', async () => {
    const id = await mail(ANN);
    const sent = sink.messages.length;
    await spendReleases(ANN, 0);

    expectRateLimited(await post(ANN, `/api/quarantine/${id}/release/`));
    expect(sink.messages.length).toBe(sent);
    expect(await statusOf(id)).toBe('pending');
    expect(await historyRows(ANN, 'release')).toEqual([]);

    const carls = await mail(CARL);
    expect((await post(CARL, `/api/quarantine/${carls}/release/`)).statusCode).toBe(200);

    await endWindows(ANN);
    expect((await post(ANN, `/api/quarantine/${id}/release/`)).statusCode).toBe(200);
    expect(await statusOf(id)).toBe('released');
  });

  test('a bulk release spends one per distinct id, all or none; a bulk delete spends none', async () => {
    const [a, b, c] = [await mail(ANN, 'a'), await mail(ANN, 'b'), await mail(ANN, 'c')];
    const sent = sink.messages.length;
    await spendReleases(ANN, 2);

    // Three distinct ids (one repeated) do not fit in two: none released, no history row.
    expectRateLimited(await post(ANN, '/api/quarantine/bulk/', { ids: [a, b, c, a], action: 'release' }));
    expect([await statusOf(a), await statusOf(b), await statusOf(c)]).toEqual(['pending', 'pending', 'pending']);
    expect(sink.messages.length).toBe(sent);
    expect((await historyRows(ANN, 'release')).filter((r) => [a, b, c].includes(r.email_id!))).toEqual([]);

    // The refused bulk took nothing: two distinct ids (one repeated) still fit exactly.
    const ok = await post(ANN, '/api/quarantine/bulk/', { ids: [a, b, b], action: 'release' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().results.map((r: { status: string }) => r.status)).toEqual(['released', 'released']);
    expectRateLimited(await post(ANN, `/api/quarantine/${c}/release/`));

    const deleted = await post(ANN, '/api/quarantine/bulk/', { ids: [c], action: 'delete' });
    expect(deleted.statusCode).toBe(200);
    expect(await statusOf(c)).toBe('deleted');
  });
});

describe('release to another address and the history export', () => {
  const ROOT = 'root@admin.example';
  const releaseToRows = (email: string, id: string) =>
    t.db
      .selectFrom('history')
      .select(['email_id'])
      .where('actor_email', '=', email)
      .where('email_id', '=', id)
      .where('target_kind', '=', 'release_to')
      .execute();

  test('release-to spends the release budget: beyond it 429, nothing sent, no history row; the window resets', async () => {
    const id = await mail(ANN, 'copy me');
    const sent = sink.messages.length;
    await createBudget(t.db, 'releases', RELEASES, 'test')(userIds[ROOT]!, RELEASES);

    const refused = await post(ROOT, `/api/quarantine/${id}/release-to/`, { address: 'analyst@elsewhere.example' });
    expectRateLimited(refused);
    expect(sink.messages.length).toBe(sent);
    expect(await releaseToRows(ROOT, id)).toEqual([]);
    expect(await statusOf(id)).toBe('pending');

    await endWindows(ROOT);
    const ok = await post(ROOT, `/api/quarantine/${id}/release-to/`, { address: 'analyst@elsewhere.example' });
    expect(ok.statusCode).toBe(200);
    expect(sink.messages.length).toBe(sent + 1);
    expect(await releaseToRows(ROOT, id)).toEqual([{ email_id: id }]);
  });

  test('each release-to counts: the budget’s last one passes, the next is refused', async () => {
    const id = await mail(ANN, 'copy twice');
    await createBudget(t.db, 'releases', RELEASES, 'test')(userIds[ROOT]!, RELEASES - 1);
    const to = { address: 'analyst@elsewhere.example' };
    expect((await post(ROOT, `/api/quarantine/${id}/release-to/`, to)).statusCode).toBe(200);
    expectRateLimited(await post(ROOT, `/api/quarantine/${id}/release-to/`, to));
    expect(await releaseToRows(ROOT, id)).toHaveLength(1);
  });

  test('each history export spends a search: beyond QC_BUDGET_SEARCHES 429 and no CSV; shared with the searches', async () => {
    for (let i = 0; i < SEARCHES; i++) {
      const res = await get(ANN, '/api/history/export/');
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/csv/);
    }
    const refused = await get(ANN, '/api/history/export/');
    expectRateLimited(refused);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(refused.headers['content-disposition']).toBeUndefined();
    // The exports used up the searches too, and another user's budget is their own.
    expectRateLimited(await get(ANN, '/api/quarantine/?q=invoice'));
    expect((await get(CARL, '/api/history/export/')).statusCode).toBe(200);

    await endWindows(ANN);
    expect((await get(ANN, '/api/history/export/')).statusCode).toBe(200);
  });
});

test('QC_BUDGET_RELEASES below a full bulk (BULK_MAX_IDS) is refused at start: such a bulk could never pass', () => {
  expect(() => loadConfig({ ...t.env, QC_BUDGET_RELEASES: String(BULK_MAX_IDS - 1) }, t.tmpDir)).toThrow(
    /QC_BUDGET_RELEASES/,
  );
  expect(loadConfig({ ...t.env, QC_BUDGET_RELEASES: String(BULK_MAX_IDS) }, t.tmpDir).budgets.releases).toBe(
    BULK_MAX_IDS,
  );
});

test('the budgets are documented in the OpenAPI document (429 on each budgeted route)', async () => {
  const doc = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  for (const [path, method] of [
    ['/api/quarantine/', 'get'],
    ['/api/quarantine/{id}/raw/', 'get'],
    ['/api/quarantine/{id}/release/', 'post'],
    ['/api/quarantine/bulk/', 'post'],
    ['/api/history/', 'get'],
    ['/api/quarantine/{id}/release-to/', 'post'],
    ['/api/history/export/', 'get'],
  ] as const) {
    expect(Object.keys(doc.paths[path][method].responses)).toContain('429');
  }
});
