import { loadConfig } from '../../config';
import { openMigratedDatabase } from '../../db/database';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import { ingestOk, INGEST_TOKEN, meta, mime, startSink, type Sink } from '../../test/quarantine';
import { claimJob, findJobLock, releaseJob, renewJob } from '../jobs/jobs.repository';
import { scheduleJobs } from '../jobs/jobs.service';
import { DAY_MS } from '../statistics/statistics.repository';
import { purgeRawBatch } from './retention.repository';
import { runRetention } from './retention.service';

let t: TestApp;
let sink: Sink;
const tokens: Record<string, string> = {};
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString();

beforeAll(async () => {
  sink = await startSink();
  t = await createTestApp({
    QC_INGEST_TOKEN: INGEST_TOKEN,
    QC_SMTP_URL: sink.url,
    QC_RETENTION_DAYS: '30',
    QC_RETENTION_BATCH: '2',
    QC_LOG_RETENTION_DAYS: '30',
  });
  for (const [email, role, domain] of [
    ['root@admin.example', 'admin', undefined],
    ['ann@a.example', 'user', 'a.example'],
  ] as const) {
    await t.createUser({ email, role, domain });
    tokens[email] = (await t.login(email)).access;
  }
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, email = 'ann@a.example') =>
  t.app.inject({ method, url, headers: bearer(tokens[email]!) });
const rawIds = async () =>
  (await t.db.selectFrom('quarantine_raw').select('message_id').execute()).map((r) => r.message_id);
/** A mail received and stored `ago` days ago (stored: this server's created_at). */
const ingestAt = async (ago: number, subject: string) => {
  const id = await ingestOk(
    t,
    meta({ rcpt_to: ['ann@a.example'], received_at: daysAgo(ago) }),
    mime({ subject, body: `Body of ${subject}` }),
  );
  await t.db
    .updateTable('quarantine_messages')
    .set({ created_at: Date.parse(daysAgo(ago)) })
    .where('id', '=', id)
    .execute();
  return id;
};
/** Takes earlier tests' mail out of the picture (purges it all, sessions untouched). */
const purgeAll = async () => {
  while ((await purgeRawBatch(t.db, Date.now() + DAY_MS, 100, Date.now())) > 0);
};

describe('retention purge', () => {
  const old: string[] = [];
  const fresh: string[] = [];

  beforeAll(async () => {
    for (let i = 0; i < 5; i++) old.push(await ingestAt(31 + i, `Ancient invoice ${i}`));
    for (let i = 0; i < 2; i++) fresh.push(await ingestAt(29 - i, `Recent invoice ${i}`));
    // Dated 40 days back by a mail stack whose clock runs late, but stored just now: kept.
    fresh.push(
      await ingestOk(
        t,
        meta({ rcpt_to: ['ann@a.example'], received_at: daysAgo(40) }),
        mime({ subject: 'Late clock', body: 'Body of Late clock' }),
      ),
    );
    // Some history before the purge: it must survive.
    expect((await inject('GET', `/api/quarantine/${old[0]}/raw/`)).statusCode).toBe(200);
    expect((await inject('DELETE', `/api/quarantine/${old[1]}/`)).statusCode).toBe(204);
  });

  test('removes the raw bytes and bodies of mail received and stored before QC_RETENTION_DAYS, in batches', async () => {
    const historyBefore = await t.db.selectFrom('history').selectAll().orderBy('id').execute();
    const messagesBefore = await t.db.selectFrom('quarantine_messages').select('id').execute();
    const run = await runRetention(t);
    expect(run).toEqual({ ran: true, result: { purged: 5, sessions: expect.any(Number), digest_links: 0 } }); // 3 batches of ≤ 2
    expect((await rawIds()).sort()).toEqual([...fresh].sort());
    // Metadata, recipients, statuses and history are kept.
    expect(await t.db.selectFrom('quarantine_messages').select('id').execute()).toHaveLength(messagesBefore.length);
    expect(await t.db.selectFrom('history').selectAll().orderBy('id').execute()).toEqual(historyBefore);
    const rows = await t.db
      .selectFrom('quarantine_messages')
      .select(['id', 'subject', 'body_text', 'raw_purged_at'])
      .where('id', 'in', [...old, ...fresh])
      .execute();
    const purged = rows.filter((r) => old.includes(r.id));
    const kept = rows.filter((r) => !old.includes(r.id));
    expect(purged.map((r) => [r.body_text, typeof r.raw_purged_at])).toEqual(old.map(() => [null, 'number']));
    expect(kept.map((r) => [r.body_text, r.raw_purged_at])).toEqual(
      fresh.map(() => [expect.stringContaining('Body of'), null]),
    );
    // A second run finds nothing more.
    expect(await runRetention(t)).toEqual({ ran: true, result: { purged: 0, sessions: 0, digest_links: 0 } });
  });

  test('a purged mail is still listed and searchable; its detail says so', async () => {
    const list = (await inject('GET', '/api/quarantine/?status=all&q=Ancient&page_size=200')).json();
    expect(list.results.map((r: { id: string }) => r.id).sort()).toEqual([...old].sort());
    // The list says so too (the console marks a still-held one as expired).
    expect(list.results.map((r: { raw_available: boolean }) => r.raw_available)).toEqual(old.map(() => false));
    const recent = (await inject('GET', '/api/quarantine/?status=all&page_size=200')).json();
    const freshItems = recent.results.filter((r: { id: string }) => fresh.includes(r.id));
    expect(freshItems.map((r: { raw_available: boolean }) => r.raw_available)).toEqual(fresh.map(() => true));
    const detail = (await inject('GET', `/api/quarantine/${old[2]}/`)).json();
    expect(detail).toMatchObject({
      subject: 'Ancient invoice 2',
      raw_available: false,
      text_body: null,
      html_body: null,
      status: 'pending',
    });
    expect(Date.parse(detail.purged_at)).toBeGreaterThan(Date.now() - 60_000);
    const kept = (await inject('GET', `/api/quarantine/${fresh[0]}/`)).json();
    expect(kept).toMatchObject({ raw_available: true, purged_at: null, text_body: expect.stringContaining('Body of') });
  });

  test('raw download and release of a purged mail → 410 raw_purged (audited, nothing sent); delete still works', async () => {
    const sent = sink.messages.length;
    for (const [method, url] of [
      ['GET', `/api/quarantine/${old[2]}/raw/`],
      ['POST', `/api/quarantine/${old[2]}/release/`],
    ] as const) {
      const res = await inject(method, url);
      expect([method, res.statusCode, res.json().code]).toEqual([method, 410, 'raw_purged']);
      expect(res.json().detail).toMatch(/retention/);
    }
    expect(sink.messages.length).toBe(sent);
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/api/quarantine/bulk/',
      headers: bearer(tokens['ann@a.example']!),
      payload: { ids: [old[3], fresh[0]], action: 'release' },
    });
    expect(bulk.json().results).toEqual([
      { id: old[3], status: 'failed', code: 'raw_purged' },
      { id: fresh[0], status: 'released' },
    ]);
    const history = await t.db
      .selectFrom('history')
      .select(['action', 'result', 'code'])
      .where('email_id', '=', old[2]!)
      .orderBy('created_at')
      .execute();
    expect(history).toEqual([
      { action: 'download', result: 'failure', code: 'raw_purged' },
      { action: 'release', result: 'failure', code: 'raw_purged' },
    ]);
    // Still held, so it can be deleted (and still not downloaded by anyone, an admin included).
    expect((await inject('DELETE', `/api/quarantine/${old[2]}/`)).statusCode).toBe(204);
    expect((await inject('GET', `/api/quarantine/${old[2]}/raw/`, 'root@admin.example')).statusCode).toBe(410);
    // Unknown or not yours stays 404, purged or not.
    expect((await inject('GET', '/api/quarantine/NO-SUCH/raw/')).statusCode).toBe(404);
  });
});

test('QC_RETENTION_DAYS=0 purges no mail', async () => {
  const off = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN, QC_RETENTION_DAYS: '0' });
  try {
    await ingestOk(off, meta({ rcpt_to: ['ann@a.example'], received_at: daysAgo(3000) }));
    expect(await runRetention(off)).toEqual({ ran: true, result: { purged: 0, sessions: 0, digest_links: 0 } });
    expect(await off.db.selectFrom('quarantine_raw').select('message_id').execute()).toHaveLength(1);
  } finally {
    await off.close();
  }
});

describe('job claim (several replicas)', () => {
  test('compare-and-set: one holder at a time; a lapsed claim can be taken over', async () => {
    const now = Date.now();
    expect(await claimJob(t.db, 'test-job', 'A', now, 1000)).toBe(true);
    expect(await claimJob(t.db, 'test-job', 'B', now + 10, 1000)).toBe(false);
    expect(await renewJob(t.db, 'test-job', 'B', now + 10, 1000)).toBe(false); // not B's
    expect(await renewJob(t.db, 'test-job', 'A', now + 500, 1000)).toBe(true); // until now + 1500
    expect(await claimJob(t.db, 'test-job', 'B', now + 1200, 1000)).toBe(false);
    // A died: after its claim lapsed, B takes over, and A can no longer renew or release it.
    expect(await claimJob(t.db, 'test-job', 'B', now + 1600, 1000)).toBe(true);
    expect(await renewJob(t.db, 'test-job', 'A', now + 1700, 1000)).toBe(false);
    await releaseJob(t.db, 'test-job', 'A', now + 1700, '{}');
    expect(await claimJob(t.db, 'test-job', 'C', now + 1800, 1000)).toBe(false);
    await releaseJob(t.db, 'test-job', 'B', now + 1800, '{"done":true}');
    expect(await findJobLock(t.db, 'test-job')).toMatchObject({ locked_until: 0, last_result: '{"done":true}' });
    expect(await claimJob(t.db, 'test-job', 'C', now + 1900, 1000)).toBe(true);
  });

  test('two concurrent runs on two connections (two replicas): one purges', async () => {
    await purgeAll();
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push(await ingestAt(40 + i, `Race ${i}`));
    const other = await openMigratedDatabase(loadConfig(t.env, t.tmpDir).database);
    try {
      const replicas = [t, { db: other.db, config: t.config }];
      const runs = await Promise.all(replicas.map((r) => runRetention(r)));
      const purged = runs.map((r) => (r.ran ? r.result.purged : 0)).sort((a, b) => a - b);
      expect(purged).toEqual([0, 6]); // batches of 2: without the claim both would share them
      expect(runs.filter((r) => !r.ran).length).toBe(1); // the other found the job taken
      for (const id of ids) expect(await rawIds()).not.toContain(id);
    } finally {
      await other.close();
    }
  });

  test('the schedule runs the jobs (croner): mail and Haraka log lines; and stops with the app', async () => {
    await purgeAll();
    const id = await ingestAt(50, 'Scheduled');
    // Haraka log lines: one older than QC_LOG_RETENTION_DAYS (30), one recent.
    await t.db.deleteFrom('haraka_logs').execute();
    const logLine = (id: string, ago: number) => ({
      id,
      ts: daysAgo(ago),
      level: 'INFO',
      hostname: 'mx1.example',
      uuid: null,
      origin: 'core',
      message: `log ${id}`,
    });
    const shipped = await t.app.inject({
      method: 'POST',
      url: '/api/haraka/logs/ingest/',
      headers: bearer(INGEST_TOKEN),
      payload: { lines: [logLine('boot1:old', 31), logLine('boot1:recent', 29)] },
    });
    expect(shipped.statusCode).toBe(202);
    const logMessages = async () =>
      (await t.db.selectFrom('haraka_logs').select('message').orderBy('message').execute()).map((r) => r.message);
    expect(await logMessages()).toEqual(['log boot1:old', 'log boot1:recent']);
    const jobs = scheduleJobs(
      { db: t.db, config: { ...t.config, retentionSchedule: '* * * * * *' } },
      { info: () => undefined, error: () => undefined },
    );
    try {
      for (let i = 0; i < 60 && ((await rawIds()).includes(id) || (await logMessages()).length > 1); i++)
        await new Promise((r) => setTimeout(r, 100));
      expect(await rawIds()).not.toContain(id);
      expect(await logMessages()).toEqual(['log boot1:recent']);
    } finally {
      await jobs.stop();
    }
    expect(await findJobLock(t.db, 'retention')).toMatchObject({ locked_until: 0 });
    expect(await findJobLock(t.db, 'haraka-log-retention')).toMatchObject({ locked_until: 0 });
  });
});

test('sessions: revoked and dead sign-ins are deleted; a replaced token of a live sign-in is kept', async () => {
  await purgeAll();
  const user = await t.db
    .selectFrom('users')
    .select('id')
    .where('email', '=', 'ann@a.example')
    .executeTakeFirstOrThrow();
  const now = Date.now();
  const row = (id: string, family: string, expires: number, extra: object = {}) => ({
    id,
    user_id: user.id,
    family_id: family,
    refresh_hash: `hash-${id}`,
    created_at: now - 30 * DAY_MS,
    expires_at: expires,
    rotated_at: null,
    replaced_by: null,
    grace_pair: null,
    revoked_at: null,
    ...extra,
  });
  await t.db
    .insertInto('sessions')
    .values([
      row('dead-1', 'dead', now - 2 * DAY_MS, { replaced_by: 'dead-2', rotated_at: now - 3 * DAY_MS }),
      row('dead-2', 'dead', now - DAY_MS),
      row('revoked', 'revoked', now + DAY_MS, { revoked_at: now - DAY_MS }),
      row('live-old', 'live', now - DAY_MS, { replaced_by: 'live-new', rotated_at: now - 2 * DAY_MS }),
      row('live-new', 'live', now + DAY_MS),
      row('just-expired', 'fresh', now - 1000), // an access token of it may still be valid
    ])
    .execute();
  // Digest link uses: kept while a link they name may still be valid (90 days + 1), then deleted.
  await t.db
    .insertInto('digest_link_uses')
    .values(
      [
        ['old-link', now - 92 * DAY_MS],
        ['recent-link', now - 60 * DAY_MS],
      ].map(([link_id, used_at]) => ({
        link_id: link_id as string,
        user_id: user.id,
        action: 'unsubscribe',
        message_id: null,
        used_at: used_at as number,
        outcome: '{}',
      })),
    )
    .execute();
  const run = await runRetention(t);
  expect(run).toEqual({ ran: true, result: { purged: 0, sessions: 3, digest_links: 1 } });
  expect((await t.db.selectFrom('digest_link_uses').select('link_id').execute()).map((r) => r.link_id)).toEqual([
    'recent-link',
  ]);
  const left = (await t.db.selectFrom('sessions').select('id').execute()).map((r) => r.id);
  expect(left).toEqual(expect.arrayContaining(['live-old', 'live-new', 'just-expired']));
  for (const id of ['dead-1', 'dead-2', 'revoked']) expect(left).not.toContain(id);
  // The users' real sessions are untouched: they still sign requests.
  expect((await inject('GET', '/api/users/me/')).statusCode).toBe(200);
});

test('configuration: QC_RETENTION_DAYS 0 allowed; schedule must be a cron pattern; batch bounded', () => {
  const c = loadConfig({ ...t.env, QC_RETENTION_DAYS: '0' }, t.tmpDir);
  expect(c).toMatchObject({ retentionDays: 0, retentionSchedule: '17 * * * *', retentionBatch: 2 });
  expect(() => loadConfig({ ...t.env, QC_RETENTION_SCHEDULE: 'every hour' }, t.tmpDir)).toThrow(
    /QC_RETENTION_SCHEDULE/,
  );
  expect(() => loadConfig({ ...t.env, QC_RETENTION_BATCH: '0' }, t.tmpDir)).toThrow(/QC_RETENTION_BATCH/);
  expect(() => loadConfig({ ...t.env, QC_RETENTION_DAYS: '-1' }, t.tmpDir)).toThrow(/QC_RETENTION_DAYS/);
});
