import { BUILTIN_NOTIFICATION_DEFAULTS, NotificationSettings, TestDigestResponse } from '@qc/contracts';
import type { DigestSendsTable } from '../../db/schema';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import { ingestOk, INGEST_TOKEN, meta, mime, startSink, type Sink } from '../../test/quarantine';

let t: TestApp;
let sink: Sink;
const ids: Record<string, string> = {};
const access: Record<string, string> = {};
const ROLES = [
  ['root@admin.example', 'admin', undefined],
  ['boss@a.example', 'domain_admin', 'a.example'],
  ['ann@a.example', 'user', 'a.example'],
  ['bob@a.example', 'user', 'a.example'],
  ['val@a.example', 'user', 'a.example'],
] as const;

beforeAll(async () => {
  sink = await startSink();
  // The app's own mailer sends to the sink: the test digest goes through a real relay.
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN, QC_SMTP_URL: sink.url }, { mailer: 'smtp' });
  for (const [email, role, domain] of ROLES) {
    ids[email] = (await t.createUser({ email, role, ...(domain ? { domain } : {}) })).id;
    access[email] = (await t.login(email)).access;
  }
});
afterAll(async () => {
  await t.close();
  await sink.close();
});
beforeEach(() => {
  sink.mode = 'accept';
});

const get = (email: string) =>
  t.app.inject({ method: 'GET', url: '/api/users/me/notifications/', headers: bearer(access[email]!) });
const put = (email: string, payload: unknown) =>
  t.app.inject({
    method: 'PUT',
    url: '/api/users/me/notifications/',
    headers: bearer(access[email]!),
    payload: payload as object,
  });
const defaults = (email: string, method: 'GET' | 'PUT', payload?: object) =>
  t.app.inject({
    method,
    url: '/api/notifications/defaults/',
    headers: bearer(access[email]!),
    ...(payload ? { payload } : {}),
  });
const rowOf = (email: string) =>
  t.db.selectFrom('notification_settings').selectAll().where('user_id', '=', ids[email]!).executeTakeFirst();

const VALID = {
  enabled: true,
  frequency: 'weekly',
  send_time: '06:45',
  time_zone: 'America/New_York',
  language: 'en',
};
const UNTOUCHED = {
  is_default: true,
  domain_digest: false,
  last_sent: null,
  last_attempt_failed: false,
  last_error: null,
};

test('every role reads its settings: the defaults until saved', async () => {
  for (const [email] of ROLES) {
    const res = await get(email);
    expect(res.statusCode).toBe(200);
    expect(NotificationSettings.strict().parse(res.json())).toEqual({ ...BUILTIN_NOTIFICATION_DEFAULTS, ...UNTOUCHED });
  }
  expect((await t.app.inject({ method: 'GET', url: '/api/users/me/notifications/' })).statusCode).toBe(401);
  const anon = await t.app.inject({ method: 'PUT', url: '/api/users/me/notifications/', payload: VALID });
  expect(anon.statusCode).toBe(401);
  expect((await t.app.inject({ method: 'POST', url: '/api/users/me/notifications/test/' })).statusCode).toBe(401);
});

test('saving writes the user’s own row and answers it; a domain digest only for a domain_admin', async () => {
  const saved = await put('ann@a.example', VALID);
  expect(saved.statusCode).toBe(200);
  expect(saved.json()).toEqual({ ...VALID, ...UNTOUCHED, is_default: false });
  expect((await get('ann@a.example')).json()).toEqual(saved.json());
  expect(await rowOf('ann@a.example')).toMatchObject({
    enabled: 1,
    frequency: 'weekly',
    language: 'en',
    domain_digest: 0,
  });

  const boss = await put('boss@a.example', { ...VALID, domain_digest: true });
  expect(boss.statusCode).toBe(200);
  expect(boss.json()).toMatchObject({ domain_digest: true, is_default: false });

  // A user has no domain to be told of; an admin neither (admins have no domain).
  for (const email of ['bob@a.example', 'root@admin.example']) {
    const res = await put(email, { ...VALID, domain_digest: true });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual(['domain_digest']);
    expect(await rowOf(email)).toBeUndefined();
  }
  // Saving the defaults' values is still a choice of one's own: later default changes skip it.
  expect((await put('bob@a.example', BUILTIN_NOTIFICATION_DEFAULTS)).json()).toMatchObject({ is_default: false });
  await t.db.deleteFrom('notification_settings').where('user_id', '=', ids['bob@a.example']!).execute();
});

test('validation: each bad field named, nothing saved', async () => {
  const cases: [unknown, string[]][] = [
    [{ ...VALID, colour: 'red' }, ['colour']],
    [{ ...VALID, frequency: 'hourly' }, ['frequency']],
    [{ ...VALID, frequency: 'Daily' }, ['frequency']],
    [{ ...VALID, time_zone: 'Mars/Olympus_Mons' }, ['time_zone']],
    [{ ...VALID, time_zone: '' }, ['time_zone']],
    [{ ...VALID, time_zone: 'Europe/Paris; drop table' }, ['time_zone']],
    [{ ...VALID, send_time: '24:00' }, ['send_time']],
    [{ ...VALID, send_time: '8:00' }, ['send_time']],
    [{ ...VALID, enabled: 'yes' }, ['enabled']],
    [{ ...VALID, domain_digest: 'true' }, ['domain_digest']],
    [{ ...VALID, language: 'de' }, ['language']],
    [{}, ['enabled', 'frequency', 'send_time', 'time_zone']],
  ];
  for (const [payload, fields] of cases) {
    const res = await put('val@a.example', payload);
    expect([payload, res.statusCode]).toEqual([payload, 400]);
    expect(res.json().code).toBe('validation_error');
    expect([payload, Object.keys(res.json().errors).sort()]).toEqual([payload, fields]);
  }
  expect(await rowOf('val@a.example')).toBeUndefined();
  expect((await get('val@a.example')).json()).toMatchObject({ is_default: true });
});

test('defaults: admin only; a change reaches every user without their own settings', async () => {
  for (const email of ['boss@a.example', 'ann@a.example']) {
    expect((await defaults(email, 'GET')).statusCode).toBe(403);
    expect((await defaults(email, 'PUT', VALID)).statusCode).toBe(403);
  }
  expect(await t.db.selectFrom('notification_defaults').selectAll().execute()).toEqual([]);
  expect((await defaults('root@admin.example', 'GET')).json()).toEqual(BUILTIN_NOTIFICATION_DEFAULTS);

  for (const [payload, field] of [
    [{ ...VALID, domain_digest: false }, 'domain_digest'],
    [{ ...VALID, time_zone: 'Nowhere/Town' }, 'time_zone'],
    [{ ...VALID, frequency: 'yearly' }, 'frequency'],
  ] as const) {
    const res = await defaults('root@admin.example', 'PUT', payload);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().errors)).toEqual([field]);
  }

  const changed = {
    enabled: false,
    frequency: 'monthly',
    send_time: '23:59',
    time_zone: 'Asia/Kolkata',
    language: 'en',
  };
  const res = await defaults('root@admin.example', 'PUT', changed);
  expect(res.statusCode).toBe(200);
  expect(res.json()).toEqual(changed);
  expect(await t.db.selectFrom('notification_defaults').select(['id', 'updated_by']).execute()).toEqual([
    { id: 1, updated_by: ids['root@admin.example'] },
  ]);
  // Users without a row follow; ann saved her own and keeps it.
  expect((await get('val@a.example')).json()).toEqual({ ...changed, ...UNTOUCHED });
  expect((await get('root@admin.example')).json()).toMatchObject({ ...changed, is_default: true });
  expect((await get('ann@a.example')).json()).toMatchObject({ ...VALID, is_default: false });

  expect((await defaults('root@admin.example', 'PUT', BUILTIN_NOTIFICATION_DEFAULTS)).statusCode).toBe(200);
  expect((await get('val@a.example')).json()).toMatchObject(BUILTIN_NOTIFICATION_DEFAULTS);
});

test('last sent and a failed last attempt, from the digest sends of either kind', async () => {
  const boss = ids['boss@a.example']!;
  const row = (kind: 'user' | 'domain', period: number, status: DigestSendsTable['status'], extra = {}) =>
    t.db
      .insertInto('digest_sends')
      .values({ user_id: boss, kind, period_start: period, status, claimed_at: period, attempts: 1, ...extra })
      .execute();
  const H = 3600_000;
  const base = Date.UTC(2026, 0, 5, 7);
  await row('user', base, 'sent', { sent_at: base + 1000, item_count: 3 });
  await row('domain', base, 'sent', { sent_at: base + 2000, item_count: 9 });
  await row('user', base + 24 * H, 'empty');
  const ok = (await get('boss@a.example')).json();
  expect(ok).toMatchObject({
    last_sent: new Date(base + 2000).toISOString(),
    last_attempt_failed: false,
    last_error: null,
  });

  await row('domain', base + 24 * H, 'failed', { error: '554 5.7.1 Relay access denied' });
  expect((await get('boss@a.example')).json()).toMatchObject({
    last_sent: new Date(base + 2000).toISOString(),
    last_attempt_failed: true,
    last_error: '554 5.7.1 Relay access denied',
  });
  // The next period went out: the failure is behind.
  await row('domain', base + 48 * H, 'sent', { sent_at: base + 48 * H + 500 });
  expect((await get('boss@a.example')).json()).toMatchObject({
    last_sent: new Date(base + 48 * H + 500).toISOString(),
    last_attempt_failed: false,
    last_error: null,
  });
  // Weekly from now on: its period started before the last daily one, yet its failure is the last attempt.
  await row('domain', base + 24 * H - 6 * H, 'failed', { claimed_at: base + 72 * H, error: '421 4.3.2 Try later' });
  expect((await get('boss@a.example')).json()).toMatchObject({
    last_attempt_failed: true,
    last_error: '421 4.3.2 Try later',
  });
  // Another user's sends are not boss's.
  expect((await get('val@a.example')).json()).toMatchObject({ last_sent: null, last_attempt_failed: false });
});

describe('test digest', () => {
  const sendTest = (email: string) =>
    t.app.inject({ method: 'POST', url: '/api/users/me/notifications/test/', headers: bearer(access[email]!) });
  const toAddress = (email: string) => sink.messages.filter((m) => m.to.includes(email));

  test('sent through the relay with its answer; 3 per 10 minutes per user', async () => {
    await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Held for ann' }));
    const res = await sendTest('ann@a.example');
    expect(res.statusCode).toBe(200);
    expect(TestDigestResponse.strict().parse(res.json())).toEqual({
      sent: true,
      count: 1,
      relay_response: expect.stringMatching(/^250 /),
    });
    expect(toAddress('ann@a.example')).toHaveLength(1);
    expect(toAddress('ann@a.example')[0]!.raw.toString()).toContain('Held for ann');
    expect((await sendTest('ann@a.example')).statusCode).toBe(200);
    expect((await sendTest('ann@a.example')).statusCode).toBe(200);
    const limited = await sendTest('ann@a.example');
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(toAddress('ann@a.example')).toHaveLength(3);
    // Another user has a budget of their own.
    expect((await sendTest('bob@a.example')).statusCode).toBe(200);
  });

  test('a relay that refuses it: 502 with its answer', async () => {
    sink.mode = 'reject-data';
    const res = await sendTest('val@a.example');
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'relay_refused', relay_response: expect.stringMatching(/^550 /) });
    expect(toAddress('val@a.example')).toHaveLength(0);
  });

  test('no relay configured: 503 relay_not_configured', async () => {
    const bare = await createTestApp();
    try {
      await bare.createUser({ email: 'solo@example.com' });
      const { access: token } = await bare.login('solo@example.com');
      const res = await bare.app.inject({
        method: 'POST',
        url: '/api/users/me/notifications/test/',
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('relay_not_configured');
    } finally {
      await bare.close();
    }
  });
});
