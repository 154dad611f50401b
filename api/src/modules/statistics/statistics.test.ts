import { RISK_THRESHOLDS, riskLevel, STATISTICS_PERIODS } from '@qc/contracts';
import { runCli } from '../../cli/run-cli';
import { bearer, insertCounter, type TestApp } from '../../test/helpers';
import { ingestOk, meta, mime, startQuarantineSuite, type QuarantineSuite } from '../../test/quarantine';
import { insertQuarantinedMessage } from '../quarantine/ingest.repository';
import { transitionRecipient } from '../quarantine/status.repository';
import { DAY_MS, rebuildStatistics, utcDay } from './statistics.repository';

let suite: QuarantineSuite;
let t: TestApp;
let tokens: Record<string, string>;
const TODAY = utcDay(Date.now());
// The clock stands at noon UTC of today: a run that crosses midnight would count a release on a day
// the expectations do not know. Only Date is faked; timers run for real.
const REAL_TIMERS = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;
beforeAll(() => {
  jest.useFakeTimers({ now: TODAY + 12 * 3600_000, doNotFake: [...REAL_TIMERS] });
});
afterAll(() => jest.useRealTimers());
const isoDay = (day: number) => new Date(day).toISOString().slice(0, 10);
/** Noon UTC, `n` days ago. */
const daysAgo = (n: number) => new Date(TODAY - n * DAY_MS + 12 * 3600_000).toISOString();

interface Stats {
  range: { from: string; to: string };
  days: { date: string; quarantined: number; released: number; deleted: number }[];
  totals: { quarantined: number; released: number; deleted: number };
  risk: { low: number; medium: number; high: number; critical: number };
}

/** What was ingested: [days ago, score, recipients]. */
const MAIL: [number, number | null, string[]][] = [
  [0, 2, ['ann@a.example']],
  [0, 16, ['ann@a.example', 'bob@a.example', 'carl@b.example']],
  [1, 7.5, ['carl@b.example']],
  [1, 10, ['ann@a.example']],
  [3, 4.99, ['bob@a.example', 'carl@b.example']],
  [3, 15, ['ann@a.example']],
  [6, null, ['ann@a.example']],
  [6, -1, ['carl@b.example']],
  [10, 12, ['ann@a.example', 'carl@b.example']], // outside the last 7 days
];
const ids: string[] = [];

beforeAll(async () => {
  suite = await startQuarantineSuite([
    ['root@admin.example', 'admin', undefined],
    ['boss@a.example', 'domain_admin', 'a.example'],
    ['ann@a.example', 'user', 'a.example'],
    ['carl@b.example', 'user', 'b.example'],
    ['lonely@empty.example', 'domain_admin', 'empty.example'],
  ]);
  ({ t, tokens } = suite);
  for (const [ago, score, rcpt] of MAIL) {
    const rspamd = score === null ? null : { action: 'reject', score, required_score: 15 };
    ids.push(await ingestOk(t, meta({ rcpt_to: rcpt, received_at: daysAgo(ago), rspamd }), mime()));
  }
});
afterAll(() => suite.close());

async function stats(email: string, query = ''): Promise<Stats> {
  const res = await t.app.inject({ method: 'GET', url: `/api/statistics/${query}`, headers: bearer(tokens[email]!) });
  expect([res.statusCode, res.body.slice(0, 200)]).toEqual([200, expect.any(String)]);
  return res.json();
}

/** The expected statistics of the rows ingested, for the recipients `visible` sees, within `days`. */
function expected(visible: (rcpt: string) => boolean, days = 7) {
  const perDay = new Map<number, number>();
  const risk = { low: 0, medium: 0, high: 0, critical: 0 };
  for (const [ago, score, rcpt] of MAIL) {
    if (ago >= days) continue;
    const n = rcpt.filter(visible).length;
    perDay.set(ago, (perDay.get(ago) ?? 0) + n);
    const level = riskLevel(score);
    if (level) risk[level] += n;
  }
  return { perDay, risk, total: [...perDay.values()].reduce((a, b) => a + b, 0) };
}

/** A user's statistics over the last `days`, computed in JS from their own recipient rows. */
async function ownFromRows(address: string, days: number): Promise<Omit<Stats, 'range'>> {
  const rows = await t.db
    .selectFrom('quarantine_recipients as r')
    .innerJoin('quarantine_messages as m', 'm.id', 'r.message_id')
    .select(['r.status', 'r.received_at', 'r.updated_at', 'm.score'])
    .where('r.recipient', '=', address)
    .execute();
  const from = TODAY - (days - 1) * DAY_MS;
  const out: Omit<Stats, 'range'> = {
    days: Array.from({ length: days }, (_, i) => ({
      date: isoDay(from + i * DAY_MS),
      quarantined: 0,
      released: 0,
      deleted: 0,
    })),
    totals: { quarantined: 0, released: 0, deleted: 0 },
    risk: { low: 0, medium: 0, high: 0, critical: 0 },
  };
  const at = (ms: number) => out.days[(utcDay(Number(ms)) - from) / DAY_MS];
  for (const r of rows) {
    const received = at(r.received_at);
    if (received) {
      received.quarantined++;
      out.totals.quarantined++;
      const level = riskLevel(r.score === null ? null : Number(r.score));
      if (level) out.risk[level]++;
    }
    const changed = at(r.updated_at);
    if (changed && (r.status === 'released' || r.status === 'deleted')) {
      changed[r.status]++;
      out.totals[r.status]++;
    }
  }
  return out;
}

/** Each user's statistics (from the rollup) equal the ones computed from their rows. */
async function expectUsersMatchTheirRows(days = 30) {
  for (const email of ['ann@a.example', 'carl@b.example']) {
    const { range: _range, ...s } = await stats(email, `?days=${days}`);
    expect([email, s]).toEqual([email, await ownFromRows(email, days)]);
  }
}

const daily = () =>
  t.db.selectFrom('quarantine_daily').selectAll().orderBy('scope').orderBy('scope_id').orderBy('day').execute();

describe('scoped like the dashboard; totals equal the rows ingested', () => {
  test('admin: every recipient row, per UTC day, zeros filled, risk by band', async () => {
    const s = await stats('root@admin.example', '?days=7');
    const e = expected(() => true);
    expect(s.range).toEqual({ from: isoDay(TODAY - 6 * DAY_MS), to: isoDay(TODAY) });
    expect(s.days.map((d) => d.date)).toEqual([6, 5, 4, 3, 2, 1, 0].map((n) => isoDay(TODAY - n * DAY_MS)));
    expect(s.days.map((d) => d.quarantined)).toEqual([6, 5, 4, 3, 2, 1, 0].map((n) => e.perDay.get(n) ?? 0));
    expect(s.totals).toEqual({ quarantined: 11, released: 0, deleted: 0 });
    expect(s.totals.quarantined).toBe(e.total);
    // 2→low, 16→critical ×3, 7.5→medium, 10→high, 4.99→low ×2, 15→critical, null→none, -1→low
    expect(s.risk).toEqual({ low: 4, medium: 1, high: 1, critical: 4 });
    expect(s.risk).toEqual(e.risk);
  });

  test('domain_admin: their domain only; without a domain: zeros', async () => {
    const s = await stats('boss@a.example', '?days=7');
    const e = expected((r) => r.endsWith('@a.example'));
    expect(s.totals.quarantined).toBe(e.total);
    expect(s.risk).toEqual(e.risk);
    const lonely = await stats('lonely@empty.example', '?days=7');
    expect(lonely.totals).toEqual({ quarantined: 0, released: 0, deleted: 0 });
    expect(lonely.days).toHaveLength(7);
  });

  test('user: their own rows only (their recipient scope of the rollup)', async () => {
    for (const email of ['ann@a.example', 'carl@b.example']) {
      const s = await stats(email, '?days=30');
      const e = expected((r) => r === email, 30);
      expect([email, s.totals.quarantined, s.risk]).toEqual([email, e.total, e.risk]);
      expect(s.days).toHaveLength(30);
      expect(
        s.days
          .map((d) => d.quarantined)
          .reverse()
          .slice(0, 11),
      ).toEqual(Array.from({ length: 11 }, (_, ago) => e.perDay.get(ago) ?? 0));
    }
    await expectUsersMatchTheirRows();
  });
});

test('release and delete are counted on the day they happen; quarantined stays what was ingested', async () => {
  const before = await stats('root@admin.example', '?days=30');
  // ann releases the 3-recipient mail (her row only), deletes the one from 3 days ago.
  const rel = await t.app.inject({
    method: 'POST',
    url: `/api/quarantine/${ids[1]}/release/`,
    headers: bearer(tokens['ann@a.example']!),
  });
  expect(rel.statusCode).toBe(200);
  const del = await t.app.inject({
    method: 'DELETE',
    url: `/api/quarantine/${ids[5]}/`,
    headers: bearer(tokens['ann@a.example']!),
  });
  expect(del.statusCode).toBe(204);
  // The domain admin of b.example deletes carl's mail of 10 days ago (counted today).
  const bulk = await t.app.inject({
    method: 'POST',
    url: '/api/quarantine/bulk/',
    headers: bearer(tokens['root@admin.example']!),
    payload: { ids: [ids[8]], action: 'delete' },
  });
  expect(bulk.json().results[0].status).toBe('deleted'); // both recipients

  const after = await stats('root@admin.example', '?days=30');
  expect(after.totals).toEqual({ quarantined: before.totals.quarantined, released: 1, deleted: 3 });
  expect(after.risk).toEqual(before.risk);
  expect(after.days.at(-1)).toMatchObject({ date: isoDay(TODAY), released: 1, deleted: 3 });
  expect(after.days.slice(0, -1).every((d) => d.released === 0 && d.deleted === 0)).toBe(true);

  const ann = await stats('ann@a.example', '?days=30');
  expect(ann.totals).toMatchObject({ released: 1, deleted: 2 });
  expect((await stats('carl@b.example', '?days=30')).totals).toMatchObject({ released: 0, deleted: 1 });
  expect((await stats('boss@a.example', '?days=30')).totals).toMatchObject({ released: 1, deleted: 2 });
  await expectUsersMatchTheirRows();
  // The rollup (every scope, recipients included) matches a rebuild from the rows.
  const rollup = await daily();
  expect(rollup.filter((r) => r.scope === 'recipient').map((r) => r.scope_id)).toEqual(
    expect.arrayContaining(['ann@a.example', 'bob@a.example', 'carl@b.example']),
  );
  await rebuildStatistics(t.db);
  expect(await daily()).toEqual(rollup);
  await expectUsersMatchTheirRows();
});

test('a status leaving released/deleted is taken back from the day it was counted on', async () => {
  const id = ids[3]!; // ann, 1 day ago, still pending
  const yesterday = TODAY - DAY_MS;
  expect(await transitionRecipient(t.db, id, 'ann@a.example', 'pending', 'deleted', yesterday + 1000)).toBe(true);
  const mid = await stats('ann@a.example', '?days=2');
  expect(mid.days[0]).toMatchObject({ deleted: 1 });
  expect((await stats('root@admin.example', '?days=2')).days[0]).toMatchObject({ deleted: 1 });
  expect(await transitionRecipient(t.db, id, 'ann@a.example', 'deleted', 'pending')).toBe(true);
  expect((await stats('ann@a.example', '?days=2')).days[0]).toMatchObject({ deleted: 0 });
  expect((await stats('root@admin.example', '?days=2')).days[0]).toMatchObject({ deleted: 0 });
  await expectUsersMatchTheirRows();
  const rollup = await daily();
  await rebuildStatistics(t.db);
  expect(await daily()).toEqual(rollup);
});

test('a message to many recipients: rollup rows upserted in batches, equal to a rebuild', async () => {
  const at = TODAY - 100 * DAY_MS + 3600_000; // outside every other test's range
  const recipients = Array.from({ length: 1203 }, (_, i) => `Many${i}@M${i % 3}.Example`);
  const { plugin, inserts } = insertCounter();
  const id = await insertQuarantinedMessage(t.db.withPlugin(plugin), {
    receivedAt: at,
    sender: 's@x.example',
    subject: null,
    score: 7,
    action: 'reject',
    size: 1,
    recipients,
  });
  // 1,203 recipient rows, 3 domains and the global row: upserts of at most 500 rows.
  expect(inserts.filter(([table]) => table === 'quarantine_daily').map(([, rows]) => rows)).toEqual([500, 500, 207]);
  const rows = await daily();
  const day = rows.filter((r) => Number(r.day) === utcDay(at));
  expect(day.filter((r) => r.scope === 'recipient')).toHaveLength(1203);
  expect(day.find((r) => r.scope === 'recipient' && r.scope_id === 'many7@m1.example')).toMatchObject({
    quarantined: 1,
    risk_medium: 1,
  });
  expect(day.find((r) => r.scope === 'domain' && r.scope_id === 'm0.example')).toMatchObject({ quarantined: 401 });
  expect(day.find((r) => r.scope === 'global')).toMatchObject({ quarantined: 1203, risk_medium: 1203 });
  const bulk = await t.app.inject({
    method: 'POST',
    url: '/api/quarantine/bulk/',
    headers: bearer(tokens['root@admin.example']!),
    payload: { ids: [id], action: 'delete' },
  });
  expect(bulk.json().results[0].status).toBe('deleted');
  const deleted = (await daily()).filter((r) => Number(r.day) === TODAY && r.scope !== 'global');
  expect(deleted.filter((r) => r.scope === 'recipient' && r.scope_id.startsWith('many'))).toHaveLength(1203);
  expect(deleted.find((r) => r.scope === 'domain' && r.scope_id === 'm2.example')).toMatchObject({ deleted: 401 });
  const rollup = await daily();
  await rebuildStatistics(t.db);
  expect(await daily()).toEqual(rollup);
});

test('ranges: every chart period; date_from/date_to as UTC days or ISO date-times', async () => {
  for (const days of STATISTICS_PERIODS) {
    const s = await stats('root@admin.example', `?days=${days}`);
    expect([days, s.days.length, s.range.to]).toEqual([days, days, isoDay(TODAY)]);
  }
  expect((await stats('root@admin.example')).days).toHaveLength(7); // default
  const from = isoDay(TODAY - 3 * DAY_MS);
  const to = isoDay(TODAY - DAY_MS);
  const s = await stats('root@admin.example', `?date_from=${from}&date_to=${to}`);
  expect(s.range).toEqual({ from, to });
  expect(s.days.map((d) => d.date)).toEqual([3, 2, 1].map((n) => isoDay(TODAY - n * DAY_MS)));
  expect(s.totals.quarantined).toBe(
    MAIL.filter(([ago]) => ago >= 1 && ago <= 3).reduce((n, [, , rcpt]) => n + rcpt.length, 0),
  );
  // An ISO date-time counts for the UTC day it falls in: 01:30+02:00 is 23:30 UTC the day before.
  const local = encodeURIComponent(`${isoDay(TODAY - DAY_MS)}T01:30:00+02:00`);
  expect((await stats('root@admin.example', `?date_from=${local}&date_to=${local}`)).range).toEqual({
    from: isoDay(TODAY - 2 * DAY_MS),
    to: isoDay(TODAY - 2 * DAY_MS),
  });
  const old = await stats('root@admin.example', '?date_from=2001-01-01&date_to=2001-01-03');
  expect(old.days.map((d) => d.quarantined)).toEqual([0, 0, 0]);
});

test('bad ranges → 400 validation_error', async () => {
  for (const [query, field] of [
    ['?days=3', 'days'],
    ['?days=abc', 'days'],
    ['?days=7&date_from=2026-01-01', 'days'],
    ['?date_from=2026-02-01&date_to=2026-01-01', 'date_from'],
    ['?date_from=2024-01-01&date_to=2026-01-01', 'date_from'],
    ['?date_from=yesterday', 'date_from'],
  ] as const) {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/statistics/${query}`,
      headers: bearer(tokens['ann@a.example']!),
    });
    expect([query, res.statusCode, res.json().code, Object.keys(res.json().errors ?? {})]).toEqual([
      query,
      400,
      'validation_error',
      [field],
    ]);
  }
  expect((await t.app.inject({ method: 'GET', url: '/api/statistics/' })).statusCode).toBe(401);
});

test('risk bands: low < 5 ≤ medium < 10 ≤ high < 15 ≤ critical; no score, no band', () => {
  expect(RISK_THRESHOLDS).toEqual({ medium: 5, high: 10, critical: 15 });
  expect([-3, 0, 4.99, 5, 9.99, 10, 14.99, 15, 1000].map(riskLevel)).toEqual([
    'low',
    'low',
    'low',
    'medium',
    'medium',
    'high',
    'high',
    'critical',
    'critical',
  ]);
  expect(riskLevel(null)).toBeNull();
  expect(riskLevel(Number.NaN)).toBeNull();
});

test('stats:rebuild (CLI) repairs counters and rollups from the rows', async () => {
  const good = await stats('root@admin.example', '?days=30');
  const goodAnn = await stats('ann@a.example', '?days=30');
  const dashboard = async () =>
    (await t.app.inject({ method: 'GET', url: '/api/dashboard/', headers: bearer(tokens['boss@a.example']!) })).json();
  const goodDashboard = await dashboard();
  await t.db.updateTable('quarantine_daily').set({ quarantined: 999, risk_low: 0 }).execute();
  await t.db.updateTable('quarantine_counts').set({ n: 42 }).execute();
  await t.db.deleteFrom('quarantine_daily').where('scope', '=', 'domain').where('scope_id', '=', 'b.example').execute();
  await t.db
    .deleteFrom('quarantine_daily')
    .where('scope', '=', 'recipient')
    .where('scope_id', '=', 'carl@b.example')
    .execute();
  expect((await stats('root@admin.example', '?days=30')).totals.quarantined).not.toBe(good.totals.quarantined);
  expect(await stats('ann@a.example', '?days=30')).not.toEqual(goodAnn);
  expect(await dashboard()).not.toEqual(goodDashboard);

  let out = '';
  const code = await runCli(['stats:rebuild'], {
    env: t.env,
    cwd: t.tmpDir,
    stdout: (s) => (out += s),
    stderr: (s) => (out += s),
    readStdin: async () => '',
  });
  expect([code, out]).toEqual([0, expect.stringMatching(/^Statistics rebuilt from the stored rows: \d+ counter rows/)]);
  expect(await stats('root@admin.example', '?days=30')).toEqual(good);
  expect(await stats('ann@a.example', '?days=30')).toEqual(goodAnn);
  await expectUsersMatchTheirRows();
  expect(await dashboard()).toEqual(goodDashboard);
});

test('OpenAPI documents the statistics and bulk routes', async () => {
  const spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  expect(JSON.stringify(spec.paths['/api/statistics/'].get.responses['200'])).toContain('risk');
  expect(JSON.stringify(spec.paths['/api/quarantine/bulk/'].post.responses['200'])).toContain('partially_released');
});
