import { bearer, createTestApp, json, type TestApp } from '../../test/helpers';
import { ingestOk, INGEST_TOKEN, meta, mime } from '../../test/quarantine';
import { DAY_MS, utcDay } from '../statistics/statistics.repository';
import { runLogRetention } from './log-retention.service';

let t: TestApp;
const tokens: Record<string, string> = {};
const ADMIN = 'root@admin.example';

beforeAll(async () => {
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN, QC_LOG_RETENTION_DAYS: '30', QC_RETENTION_BATCH: '1' });
  for (const [email, role, domain] of [
    [ADMIN, 'admin', undefined],
    ['dom@a.example', 'domain_admin', 'a.example'],
    ['ann@a.example', 'user', 'a.example'],
  ] as const) {
    await t.createUser({ email, role, domain });
    tokens[email] = (await t.login(email)).access;
  }
});
afterAll(async () => {
  await t.close();
});

let seq = 0;
const HOST = 'mx1.example';
interface LineInput {
  ts?: string | number;
  level?: string;
  hostname?: string;
  uuid?: string | null;
  origin?: string | null;
  message?: string;
  id?: string;
}
const line = (l: LineInput = {}) => ({
  id: l.id ?? `boot1:${++seq}`,
  ts: typeof l.ts === 'number' ? new Date(l.ts).toISOString() : (l.ts ?? new Date().toISOString()),
  level: l.level ?? 'INFO',
  hostname: l.hostname ?? HOST,
  uuid: l.uuid === undefined ? null : l.uuid,
  origin: l.origin === undefined ? 'core' : l.origin,
  message: l.message ?? `line ${seq}`,
});
type Line = ReturnType<typeof line>;

const ingest = (lines: unknown[], token: string | null = INGEST_TOKEN) =>
  t.app.inject({
    method: 'POST',
    url: '/api/haraka/logs/ingest/',
    headers: token ? bearer(token) : {},
    payload: { lines },
  });
const ingestOkLines = async (lines: Line[]) => {
  const res = await ingest(lines);
  expect([res.statusCode, res.body]).toEqual([202, expect.any(String)]);
  return json<{ accepted: number; duplicates: number; refused: number }>(res);
};
const get = (url: string, email = ADMIN) => t.app.inject({ method: 'GET', url, headers: bearer(tokens[email]!) });
const getOk = async <T = Record<string, unknown>>(url: string) => {
  const res = await get(url);
  expect([res.statusCode, url, res.body.slice(0, 300)]).toEqual([200, url, expect.any(String)]);
  return json<T>(res);
};
const lineCount = async () =>
  Number(
    (
      await t.db
        .selectFrom('haraka_logs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
let uuidN = 0;
const connUuid = () => `${String(++uuidN).padStart(8, '0')}-ABCD-4EF0-8123-${String(uuidN).padStart(12, '0')}`;

describe('ingest', () => {
  test('401 without or with a wrong token, before the body is looked at; nothing stored', async () => {
    const before = await lineCount();
    for (const token of [null, 'wrong-token-0123456789abcdefgh']) {
      const res = await ingest([line()], token);
      expect(res.statusCode).toBe(401);
      expect(json(res).code).toMatch(/not_authenticated|token_invalid/);
    }
    // Even an oversize batch: the token is checked first.
    const big = await ingest(
      Array.from({ length: 5001 }, () => line()),
      null,
    );
    expect(big.statusCode).toBe(401);
    expect(await lineCount()).toBe(before);
  });

  test('413 above 5000 lines (nothing stored); 5000 pass', async () => {
    const before = await lineCount();
    const res = await ingest(Array.from({ length: 5001 }, () => line({ message: 'too many' })));
    expect([res.statusCode, json(res).code]).toEqual([413, 'payload_too_large']);
    expect(await lineCount()).toBe(before);
    const ok = await ingestOkLines(Array.from({ length: 5000 }, () => line({ ts: Date.now() - 40 * DAY_MS })));
    expect(ok).toEqual({ accepted: 5000, duplicates: 0, refused: 0 });
    expect(await lineCount()).toBe(before + 5000);
  });

  test('413 above the body limit, announced by Content-Length', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/haraka/logs/ingest/',
      headers: {
        ...bearer(INGEST_TOKEN),
        'content-type': 'application/json',
        'content-length': String(17 * 1024 * 1024),
      },
      payload: '{}',
    });
    expect(res.statusCode).toBe(413);
  });

  test('a resent batch is stored once (duplicates counted), also repeated within a batch', async () => {
    const batch = [line(), line(), line()];
    expect(await ingestOkLines(batch)).toEqual({ accepted: 3, duplicates: 0, refused: 0 });
    const before = await lineCount();
    expect(await ingestOkLines([...batch, batch[0]!, line()])).toEqual({ accepted: 1, duplicates: 4, refused: 0 });
    expect(await lineCount()).toBe(before + 1);
    // The same id from another host is another line.
    expect(await ingestOkLines([{ ...batch[0]!, hostname: 'mx2.example' }])).toMatchObject({ accepted: 1 });
  });

  test('PROTOCOL and DATA lines are refused (counted, never stored); unknown levels kept as INFO with [LEVEL]', async () => {
    const marker = `secret-${Date.now()}`;
    const res = await ingestOkLines([
      line({ level: 'PROTOCOL', message: `C: AUTH PLAIN ${marker}` }),
      line({ level: 'data', message: `Subject: ${marker}` }),
      line({ level: 'LOGFOO', message: 'odd level' }),
      line({ level: 'crit', message: 'critical thing' }),
    ]);
    expect(res).toEqual({ accepted: 2, duplicates: 0, refused: 2 });
    const rows = await t.db
      .selectFrom('haraka_logs')
      .select(['severity', 'message'])
      .where('message', 'in', ['[LOGFOO] odd level', 'critical thing'])
      .orderBy('message')
      .execute();
    expect(rows).toEqual([
      { severity: 'INFO', message: '[LOGFOO] odd level' },
      { severity: 'ERROR', message: 'critical thing' },
    ]);
    expect(await t.db.selectFrom('haraka_logs').select('id').where('message', 'like', `%${marker}%`).execute()).toEqual(
      [],
    );
  });

  test('a malformed line: 400 naming it, nothing of the batch stored', async () => {
    const before = await lineCount();
    const res = await ingest([line(), { ...line(), ts: 'yesterday' }]);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(json<{ errors: Record<string, string> }>(res).errors)).toEqual(['lines.1.ts']);
    expect(await lineCount()).toBe(before);
  });
});

describe('search', () => {
  const now = Date.now();
  const tag = `srch${now}`;
  const conn = connUuid();
  beforeAll(async () => {
    await ingestOkLines([
      line({ ts: now - 2 * 3600_000, message: `${tag} two hours ago`, uuid: conn, level: 'NOTICE' }),
      line({ ts: now - 30 * 3600_000, message: `${tag} yesterday-ish`, level: 'WARN', hostname: 'MX2.example' }),
      line({
        ts: now - 10 * DAY_MS,
        message: `${tag} ten days ago`,
        level: 'ERROR',
        uuid: `${conn}.1`,
        origin: 'rspamd',
      }),
      ...Array.from({ length: 7 }, (_, i) =>
        line({ ts: now - (i + 1) * 60_000, message: `${tag} page ${i} 100%_done`, uuid: `${conn}.2` }),
      ),
    ]);
  });
  const search = (params: Record<string, string>) =>
    getOk<{
      results: { message: string; ts: string; severity: string }[];
      next_cursor: string | null;
      window: { from: string; to: string };
    }>(`/api/haraka/logs/?${new URLSearchParams({ q: tag, ...params })}`);

  test('without dates: the last 24 h, newest first, with the window said', async () => {
    const page = await search({});
    expect(page.results.map((r) => r.message)).toEqual([
      ...Array.from({ length: 7 }, (_, i) => `${tag} page ${i} 100%_done`),
      `${tag} two hours ago`,
    ]);
    const span = Date.parse(page.window.to) - Date.parse(page.window.from);
    expect(span).toBe(24 * 3600_000);
    expect(Math.abs(Date.parse(page.window.to) - Date.now())).toBeLessThan(60_000);
  });

  test('date_from alone: to now; date_to alone: the 24 h before it; dates are UTC days', async () => {
    const from = new Date(now - 11 * DAY_MS).toISOString();
    expect((await search({ date_from: from })).results).toHaveLength(10);
    const to = new Date(now - 29 * 3600_000).toISOString();
    expect((await search({ date_to: to })).results.map((r) => r.message)).toEqual([`${tag} yesterday-ish`]);
    const day = new Date(now - 10 * DAY_MS).toISOString().slice(0, 10);
    const page = await search({ date_from: day, date_to: day });
    expect(page.results.map((r) => r.message)).toEqual([`${tag} ten days ago`]);
    expect(page.window).toEqual({ from: `${day}T00:00:00.000Z`, to: `${day}T23:59:59.999Z` });
  });

  test('400 when the window exceeds 31 days or is reversed', async () => {
    const wide = await get(`/api/haraka/logs/?date_from=${new Date(now - 32 * DAY_MS).toISOString()}`);
    expect([wide.statusCode, Object.keys(json<{ errors: object }>(wide).errors)]).toEqual([400, ['date_from']]);
    const wide2 = await get('/api/haraka/logs/?date_from=2024-01-01&date_to=2024-02-01');
    expect(wide2.statusCode).toBe(400);
    expect((await get('/api/haraka/logs/?date_from=2024-01-01&date_to=2024-01-31')).statusCode).toBe(200);
    const reversed = await get('/api/haraka/logs/?date_from=2024-02-01&date_to=2024-01-01');
    expect([reversed.statusCode, Object.keys(json<{ errors: object }>(reversed).errors)]).toEqual([400, ['date_from']]);
    const bad = await get('/api/haraka/logs/?severity=INFO,LOUD');
    expect(bad.statusCode).toBe(400);
    const badUuid = await get('/api/haraka/logs/?uuid=not-a-uuid');
    expect([badUuid.statusCode, Object.keys(json<{ errors: object }>(badUuid).errors)]).toEqual([400, ['uuid']]);
  });

  test('filters: severity (several), hostname (any case), uuid (connection or transaction), q (literal % and _)', async () => {
    const from = new Date(now - 20 * DAY_MS).toISOString();
    const msgs = async (p: Record<string, string>) =>
      (await search({ date_from: from, ...p })).results.map((r) => r.message);
    expect(await msgs({ severity: 'warn,error' })).toEqual([`${tag} yesterday-ish`, `${tag} ten days ago`]);
    expect(await msgs({ hostname: 'mx2.EXAMPLE' })).toEqual([`${tag} yesterday-ish`]);
    expect(await msgs({ uuid: `${conn}.1`.toLowerCase() })).toEqual([`${tag} ten days ago`]);
    expect(await msgs({ uuid: conn })).toHaveLength(9);
    expect(await msgs({ q: `${tag} page 3 100%_done` })).toEqual([`${tag} page 3 100%_done`]);
    expect(await msgs({ q: `${tag} page 3 100xxdone` })).toEqual([]);
    expect(await msgs({ q: tag.toUpperCase() + ' TEN' })).toEqual([`${tag} ten days ago`]);
  });

  test('control characters are stored as received; q typed as the page shows them (\\r\\n, \\x1b) finds them', async () => {
    const mark = `ctl${now}`;
    const forged = `${mark} auth failed\r\n2026-01-01T00:00:00Z [NOTICE] admin login ok`;
    const colored = `${mark} \x1b[31mred\x1b[0m \u202egnp.exe\u0085`;
    const literal = `${mark} path C:\\new\\x1b`;
    await ingestOkLines([line({ message: forged }), line({ message: colored }), line({ message: literal })]);
    const stored = await t.db
      .selectFrom('haraka_logs')
      .select('message')
      .where('message', 'like', `${mark}%`)
      .execute();
    expect(stored.map((r) => r.message).sort()).toEqual([forged, colored, literal].sort());
    const found = async (q: string) =>
      (await search({ q: `${mark} ${q}`.trim() })).results.map((r) => r.message).sort();
    expect(await found('auth failed\\r\\n2026')).toEqual([forged]);
    expect(await found('')).toHaveLength(3);
    expect(await search({ q: '\\r\\n2026-01-01T00:00:00Z [NOTICE]' })).toMatchObject({
      results: [{ message: forged }],
    });
    expect(await found('\\x1B[31mred\\x1b[0m \\u202Egnp.exe\\x85')).toEqual([colored]);
    // The escape also finds the text as typed (a literal backslash), and a raw control character
    // in q stays refused.
    expect(await found('path C:\\new\\x1b')).toEqual([literal]);
    expect((await get(`/api/haraka/logs/?q=${encodeURIComponent('a\r\nb')}`)).statusCode).toBe(400);
  });

  test('keyset pages: each line once, in order, same filters; a bad cursor is a 400', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: Awaited<ReturnType<typeof search>> = await search({ page_size: '3', ...(cursor ? { cursor } : {}) });
      seen.push(...page.results.map((r) => r.message));
      cursor = page.next_cursor;
    } while (cursor);
    expect(seen).toEqual((await search({})).results.map((r) => r.message));
    expect(seen).toHaveLength(8);
    const bad = await get('/api/haraka/logs/?cursor=bm9wZQ');
    expect([bad.statusCode, Object.keys(json<{ errors: object }>(bad).errors)]).toEqual([400, ['cursor']]);
  });
});

describe('logs of one uuid', () => {
  const conn = connUuid();
  const now = Date.now() - 3600_000;
  let emailId = '';
  let retryEmail = '';
  const retryConn = connUuid();
  beforeAll(async () => {
    emailId = await ingestOk(t, meta({ uuid: `${conn}.1` }), mime({ subject: 'Logged one' }));
    // A retry (another uuid, same envelope and bytes) is matched to the stored copy.
    const bytes = mime({ subject: 'Retried' });
    const firstUuid = `${connUuid()}.1`;
    retryEmail = await ingestOk(t, meta({ uuid: firstUuid }), bytes);
    expect(await ingestOk(t, meta({ uuid: `${retryConn}.1` }), bytes)).toBe(retryEmail);
    let i = 0;
    const at = () => now + ++i * 10;
    await ingestOkLines([
      line({ ts: at(), uuid: conn, level: 'NOTICE', message: 'connect ip=192.0.2.7 port=1234' }),
      line({ ts: at(), uuid: `${conn}.1`, origin: 'rspamd', message: 'score=15 action=reject' }),
      line({
        ts: at(),
        uuid: `${conn}.1`,
        origin: 'qconsole',
        message: `quarantined (score) for ann@a.example as ${emailId}: HTTP 201`,
      }),
      line({
        ts: at(),
        uuid: `${conn}.1`,
        origin: 'qconsole',
        message: ' hook=queue plugin=qconsole function=quarantine_or_pass params="" retval=OK msg="Message accepted"',
      }),
      line({ ts: at(), uuid: `${conn}.1`, level: 'NOTICE', message: 'queue code=OK msg="Message accepted (X)"' }),
      line({ ts: at(), uuid: `${conn}.2`, level: 'NOTICE', message: 'queue code=DENYSOFT msg="try later"' }),
      line({ ts: at(), uuid: `${conn}.3`, origin: 'qconsole', message: 'rejected by BLACKLIST_RULE' }),
      line({
        ts: at(),
        uuid: `${conn}.3`,
        message: ' hook=data_post plugin=qconsole function=enforce_forced_action params="" retval=DENY msg="no"',
      }),
      line({ ts: at(), uuid: `${conn}.4`, message: 'queue code=OK msg="Message Queued"' }),
      line({ ts: at(), uuid: `${conn}.5`, origin: 'qconsole', message: 'discarded (rule): accepted, not delivered' }),
      line({ ts: at(), uuid: `${conn}.5`, message: 'queue code=OK msg=""' }),
      line({ ts: at(), uuid: `${conn}.6`, message: 'mail from accepted' }),
      line({ ts: at(), uuid: `${conn}.6`, level: 'NOTICE', message: 'disconnect ip=192.0.2.7 txns=6 msgs=4/1/1' }),
      // Another connection, not to be mixed in.
      line({ ts: at(), uuid: `${connUuid()}.1`, message: 'queue code=OK' }),
      // The retry's own transaction: one transaction, only the disconnect line says it was taken.
      line({ ts: at(), uuid: `${retryConn}.1`, level: 'NOTICE', message: 'disconnect ip=192.0.2.8 txns=1 msgs=1/0/0' }),
    ]);
  });

  test('a connection uuid gives its lines and its transactions’, oldest first, each with its outcome', async () => {
    const res = await getOk<{
      uuid: string;
      lines: { uuid: string; message: string }[];
      truncated: boolean;
      transactions: unknown[];
    }>(`/api/haraka/logs/${conn.toLowerCase()}/`);
    expect(res.uuid).toBe(conn);
    expect(res.truncated).toBe(false);
    expect(res.lines).toHaveLength(13);
    expect(res.lines[0]!.message).toMatch(/^connect /);
    expect(res.lines.every((l) => l.uuid.startsWith(conn))).toBe(true);
    expect(res.transactions).toEqual([
      { uuid: `${conn}.1`, outcome: 'quarantined', email_id: emailId },
      { uuid: `${conn}.2`, outcome: 'deferred', email_id: null },
      { uuid: `${conn}.3`, outcome: 'rejected', email_id: null },
      { uuid: `${conn}.4`, outcome: 'queued', email_id: null },
      { uuid: `${conn}.5`, outcome: 'discarded', email_id: null },
      { uuid: `${conn}.6`, outcome: 'unknown', email_id: null },
    ]);
  });

  test('a transaction uuid gives its lines only', async () => {
    const res = await getOk<{ lines: { uuid: string }[]; transactions: unknown[] }>(`/api/haraka/logs/${conn}.3/`);
    expect(res.lines.map((l) => l.uuid)).toEqual([`${conn}.3`, `${conn}.3`]);
    expect(res.transactions).toEqual([{ uuid: `${conn}.3`, outcome: 'rejected', email_id: null }]);
  });

  test('a retry’s uuid leads to the copy stored earlier', async () => {
    const res = await getOk<{ transactions: unknown[] }>(`/api/haraka/logs/${retryConn}.1/`);
    expect(res.transactions).toEqual([{ uuid: `${retryConn}.1`, outcome: 'queued', email_id: retryEmail }]);
    const kept = await t.db
      .selectFrom('quarantine_message_uuids')
      .selectAll()
      .where('message_id', '=', retryEmail)
      .execute();
    expect(kept.map((r) => r.uuid)).toEqual([`${retryConn}.1`]);
  });

  test('a quarantined e-mail’s id gives the lines of the transaction it was received in', async () => {
    const res = await getOk<{ uuid: string; lines: { uuid: string }[]; transactions: unknown[] }>(
      `/api/haraka/logs/${emailId}/`,
    );
    expect(res.uuid).toBe(`${conn}.1`);
    expect(new Set(res.lines.map((l) => l.uuid))).toEqual(new Set([`${conn}.1`]));
    expect(res.transactions).toEqual([{ uuid: `${conn}.1`, outcome: 'quarantined', email_id: emailId }]);
    // An id no e-mail has, in the right form: nothing to show.
    const unknown = await get(`/api/haraka/logs/${'0'.repeat(26)}/`);
    expect([unknown.statusCode, json(unknown).code]).toEqual([404, 'logs_not_found']);
  });

  test('malformed: 400 with errors.uuid; unknown: 404 logs_not_found', async () => {
    for (const bad of [
      'nope',
      `${conn}.x`,
      `${conn}.1234567`,
      `${conn.slice(1)}`,
      `${emailId}U`,
      emailId.toLowerCase(),
    ]) {
      const res = await get(`/api/haraka/logs/${bad}/`);
      expect([bad, res.statusCode, Object.keys(json<{ errors?: object }>(res).errors ?? {})]).toEqual([
        bad,
        400,
        ['uuid'],
      ]);
    }
    const res = await get(`/api/haraka/logs/${connUuid()}/`);
    expect([res.statusCode, json(res).code]).toEqual([404, 'logs_not_found']);
  });
});

describe('statistics from the rollups', () => {
  // A fresh host's lines over 10 days, some days without any (zeros).
  const today = utcDay(Date.now());
  const plan: { daysAgo: number; hour: number; level: string; origin: string; hostname: string }[] = [];
  beforeAll(async () => {
    await t.db.deleteFrom('haraka_logs').execute();
    await t.db.deleteFrom('haraka_log_counts').execute();
    const levels = ['INFO', 'NOTICE', 'WARN', 'ERROR', 'DEBUG', 'WARNING'];
    for (let i = 0; i < 300; i++) {
      const daysAgo = [0, 1, 3, 6, 9][i % 5]!;
      plan.push({
        daysAgo,
        hour: (i * 7) % 24,
        level: levels[i % levels.length]!,
        origin: ['core', 'rspamd', 'qconsole'][i % 3]!,
        hostname: i % 4 === 0 ? 'mx2.example' : 'mx1.example',
      });
    }
    const lines = plan.map((p) => line({ ts: today - p.daysAgo * DAY_MS + p.hour * 3600_000 + 1000, ...p }));
    // Lines of the future hours of today are fine: Haraka's clock decides.
    await ingestOkLines(lines);
    await ingestOkLines(lines); // resent: counted once
  });

  const severityOf = (level: string) =>
    ({ INFO: 'INFO', DEBUG: 'INFO', NOTICE: 'NOTICE', WARN: 'WARN', WARNING: 'WARN', ERROR: 'ERROR' })[level]!;

  test('logs per day: every day of the period, zeros included, equal to the lines ingested', async () => {
    const { days } = await getOk<{ days: { date: string; total: number; INFO: number; ERROR: number }[] }>(
      '/api/haraka/statistics/logs-per-day/?days=7',
    );
    expect(days.map((d) => d.date)).toEqual(
      Array.from({ length: 7 }, (_, i) => new Date(today - (6 - i) * DAY_MS).toISOString().slice(0, 10)),
    );
    for (const [i, d] of days.entries()) {
      const mine = plan.filter((p) => p.daysAgo === 6 - i);
      expect([d.date, d.total, d.INFO, d.ERROR]).toEqual([
        d.date,
        mine.length,
        mine.filter((p) => severityOf(p.level) === 'INFO').length,
        mine.filter((p) => severityOf(p.level) === 'ERROR').length,
      ]);
    }
    expect(days.filter((d) => d.total === 0).map((d) => d.date)).toHaveLength(3); // 2, 4 and 5 days ago
    const year = await getOk<{ days: { total: number }[] }>('/api/haraka/statistics/logs-per-day/?days=365');
    expect(year.days).toHaveLength(365);
    expect(year.days.reduce((s, d) => s + d.total, 0)).toBe(300);
    expect(await lineCount()).toBe(300);
  });

  test('summary: totals by severity, hostnames, error origins and hours equal to the lines', async () => {
    const s = await getOk<{
      total: number;
      by_severity: Record<string, number>;
      top_hostnames: unknown[];
      top_error_origins: { origin: string; errors: number; warnings: number }[];
      per_hour: { hour: number; total: number }[];
      range: { from: string; to: string };
    }>('/api/haraka/statistics/summary/?days=7');
    const mine = plan.filter((p) => p.daysAgo < 7);
    expect(s.total).toBe(mine.length);
    expect(s.range.to).toBe(new Date(today).toISOString().slice(0, 10));
    for (const sev of ['INFO', 'NOTICE', 'WARN', 'ERROR']) {
      expect([sev, s.by_severity[sev]]).toEqual([sev, mine.filter((p) => severityOf(p.level) === sev).length]);
    }
    expect(s.top_hostnames).toEqual([
      { hostname: 'mx1.example', total: mine.filter((p) => p.hostname === 'mx1.example').length },
      { hostname: 'mx2.example', total: mine.filter((p) => p.hostname === 'mx2.example').length },
    ]);
    for (const o of s.top_error_origins) {
      const of = mine.filter((p) => p.origin === o.origin);
      expect(o).toEqual({
        origin: o.origin,
        errors: of.filter((p) => severityOf(p.level) === 'ERROR').length,
        warnings: of.filter((p) => severityOf(p.level) === 'WARN').length,
      });
    }
    expect(s.per_hour).toHaveLength(24);
    for (const h of s.per_hour)
      expect([h.hour, h.total]).toEqual([h.hour, mine.filter((p) => p.hour === h.hour).length]);
    const two = await getOk<{ total: number }>('/api/haraka/statistics/summary/?days=2');
    expect(two.total).toBe(plan.filter((p) => p.daysAgo < 2).length);
    expect((await get('/api/haraka/statistics/summary/?days=3')).statusCode).toBe(400);
  });
});

describe('permissions', () => {
  const routes = [
    '/api/haraka/logs/',
    '/api/haraka/logs/00000001-ABCD-4EF0-8123-000000000001/',
    '/api/haraka/statistics/summary/',
    '/api/haraka/statistics/logs-per-day/',
  ];
  test('domain_admin and user: 403 on every read route (even with a malformed query); anonymous: 401', async () => {
    for (const url of routes) {
      for (const email of ['dom@a.example', 'ann@a.example']) {
        for (const u of [url, `${url}?days=3&date_from=nope`]) {
          const res = await get(u, email);
          expect([u, email, res.statusCode]).toEqual([u, email, 403]);
        }
      }
      expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
  test('the ingest token is not a user token', async () => {
    expect((await t.app.inject({ method: 'GET', url: routes[0]!, headers: bearer(INGEST_TOKEN) })).statusCode).toBe(
      401,
    );
  });
});

describe('retention', () => {
  test('deletes lines older than QC_LOG_RETENTION_DAYS in batches, rollups older than 400 days', async () => {
    await t.db.deleteFrom('haraka_logs').execute();
    const now = Date.now();
    await ingestOkLines([
      ...Array.from({ length: 25 }, (_, i) => line({ ts: now - (31 + i) * DAY_MS, message: 'old' })),
      ...Array.from({ length: 3 }, (_, i) => line({ ts: now - (29 - i) * DAY_MS, message: 'kept' })),
      line({ ts: now - 500 * DAY_MS, message: 'ancient' }),
    ]);
    const ancientDay = utcDay(now - 500 * DAY_MS);
    const before = await t.db.selectFrom('haraka_log_counts').select('day').where('day', '=', ancientDay).execute();
    expect(before).toHaveLength(4); // one row per dimension
    const result = await runLogRetention({ db: t.db, config: t.config }, now);
    expect(result).toEqual({ ran: true, result: { lines: 26, rollups: expect.any(Number) } });
    expect((await t.db.selectFrom('haraka_logs').select('message').execute()).map((r) => r.message)).toEqual([
      'kept',
      'kept',
      'kept',
    ]);
    expect(
      await t.db
        .selectFrom('haraka_log_counts')
        .select('day')
        .where('day', '<', utcDay(now) - 400 * DAY_MS)
        .execute(),
    ).toEqual([]);
    // The rollups of the deleted lines within 400 days stay: the charts keep their history.
    const perDay = await getOk<{ days: { total: number }[] }>('/api/haraka/statistics/logs-per-day/?days=90');
    expect(perDay.days.reduce((s, d) => s + d.total, 0)).toBeGreaterThanOrEqual(28);
  });
});
