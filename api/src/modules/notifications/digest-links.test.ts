import { DigestActOutcome, DigestLinkInfo, type DigestAction } from '@qc/contracts';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import { INGEST_TOKEN, ingestOk, meta, mime, recipientStatuses, type Sink, startSink } from '../../test/quarantine';
import { signDigestLink } from './digest-link';

const PUBLIC_URL = 'https://console.example';

let t: TestApp;
let sink: Sink;
const ids: Record<string, string> = {};
const access: Record<string, string> = {};

beforeAll(async () => {
  sink = await startSink();
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN, QC_SMTP_URL: sink.url, QC_PUBLIC_URL: PUBLIC_URL });
  const users: [string, 'admin' | 'domain_admin' | 'user', string | undefined][] = [
    ['root@admin.example', 'admin', undefined],
    ['boss@a.example', 'domain_admin', 'a.example'],
    ['ann@a.example', 'user', 'a.example'],
    ['bob@a.example', 'user', 'a.example'],
    ['carl@b.example', 'user', 'b.example'],
    ['dora@a.example', 'user', 'a.example'],
  ];
  for (const [email, role, domain] of users) {
    ids[email] = (await t.createUser({ email, role, domain })).id;
    access[email] = (await t.login(email)).access;
  }
});
afterAll(async () => {
  await t.close();
  await sink.close();
});
beforeEach(() => {
  sink.mode = 'accept';
  sink.delayMs = 0;
});

const DAY = 24 * 3600 * 1000;

function link(
  email: string,
  action: DigestAction,
  messageId: string | null,
  opts: { kind?: 'user' | 'domain'; expiresAt?: number } = {},
): string {
  return signDigestLink(t.config.secretKey, {
    userId: ids[email]!,
    action,
    messageId,
    kind: opts.kind ?? 'user',
    expiresAt: opts.expiresAt ?? Date.now() + 7 * DAY,
  });
}

const get = (token: string, accept = 'application/json') =>
  t.app.inject({ method: 'GET', url: `/api/digest/${token}/`, headers: { accept } });
const post = (token: string, payload?: string | object, contentType?: string) =>
  t.app.inject({
    method: 'POST',
    url: `/api/digest/${token}/`,
    ...(payload === undefined ? {} : { payload }),
    ...(contentType ? { headers: { 'content-type': contentType } } : {}),
  });

async function held(to: string[], subject: string): Promise<string> {
  return ingestOk(t, meta({ mail_from: 'bounce@spam.example', rcpt_to: to }), mime({ subject, to: to.join(', ') }));
}

const statuses = (id: string) => recipientStatuses(t, id);
const historyOf = (id: string) =>
  t.db
    .selectFrom('history')
    .select(['action', 'result', 'code', 'actor_email', 'ip_address'])
    .where('email_id', '=', id)
    .orderBy('created_at')
    .execute();
const delivered = (subject: string) => sink.messages.filter((m) => m.raw.includes(Buffer.from(`Subject: ${subject}`)));

/** Everything a link could change (rate_limits aside: a forged token is counted). */
async function snapshot() {
  const [recipients, history, uses, lists, settings, deliveries] = await Promise.all([
    t.db.selectFrom('quarantine_recipients').selectAll().orderBy('message_id').orderBy('recipient').execute(),
    t.db.selectFrom('history').selectAll().orderBy('id').execute(),
    t.db.selectFrom('digest_link_uses').selectAll().orderBy('link_id').execute(),
    t.db.selectFrom('sender_lists').selectAll().orderBy('id').execute(),
    t.db.selectFrom('notification_settings').selectAll().orderBy('user_id').execute(),
    t.db.selectFrom('quarantine_deliveries').selectAll().orderBy('id').execute(),
  ]);
  return { recipients, history, uses, lists, settings, deliveries, sent: sink.messages.length };
}

describe('GET changes nothing', () => {
  // Mail scanners prefetch every link of a mail: no GET (nor HEAD) may act, whatever the action.
  test.each<DigestAction>(['release', 'allow_sender', 'delete', 'unsubscribe'])(
    '%s: its info, a browser sent to the confirm page, the database as it was',
    async (action) => {
      const id = await held(['ann@a.example'], `Prefetched ${action}`);
      const token = link('ann@a.example', action, action === 'unsubscribe' ? null : id);
      const message = {
        sender: 'king@spam.example',
        subject: `Prefetched ${action}`,
        received_at: expect.any(String),
        score: 15,
      };
      const before = await snapshot();

      const info = await get(token);
      expect(info.statusCode).toBe(200);
      expect(DigestLinkInfo.strict().parse(info.json())).toEqual({
        state: 'ready',
        action,
        recipient: 'ann@a.example',
        message: action === 'unsubscribe' ? null : message,
        expires_at: expect.any(String),
        outcome: null,
      });
      const page = await get(token, 'text/html,application/xhtml+xml,*/*;q=0.8');
      expect(page.statusCode).toBe(303);
      expect(page.headers.location).toBe(`${PUBLIC_URL}/digest/${token}`);
      expect((await t.app.inject({ method: 'HEAD', url: `/api/digest/${token}/` })).statusCode).toBe(200);

      expect(await snapshot()).toEqual(before);
      expect(await statuses(id)).toEqual({ 'ann@a.example': 'pending' });
      // Still unused: the confirm's POST is what acts.
      expect((await get(token)).json()).toMatchObject({ state: 'ready', outcome: null });
    },
  );
});

describe('POST acts once', () => {
  test('release: delivered once through the relay, history as from the UI, then 409 with the first outcome', async () => {
    const id = await held(['ann@a.example'], 'Release by link');
    const token = link('ann@a.example', 'release', id);
    const res = await post(token);
    expect(res.statusCode).toBe(200);
    const outcome = DigestActOutcome.strict().parse(res.json());
    expect(outcome).toEqual({
      action: 'release',
      result: 'released',
      relay_response: expect.stringMatching(/^250 .*queued as Q/),
      sender: null,
      at: expect.any(String),
    });
    expect(delivered('Release by link')).toHaveLength(1);
    expect(delivered('Release by link')[0]!.raw.toString()).toMatch(
      /^X-Quarantine-Released: \S+ by ann@a\.example\r\n/,
    );
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'released' });
    expect(await historyOf(id)).toEqual([
      { action: 'release', result: 'success', code: null, actor_email: 'ann@a.example', ip_address: '127.0.0.1' },
    ]);

    const again = await post(token);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'digest_link_used', outcome });
    expect((await get(token)).json()).toMatchObject({ state: 'used', outcome, recipient: 'ann@a.example' });
    expect(delivered('Release by link')).toHaveLength(1);
    expect(await historyOf(id)).toHaveLength(1);
  });

  test('concurrent POSTs of one link: exactly one acts', async () => {
    const id = await held(['bob@a.example'], 'Raced');
    const token = link('bob@a.example', 'release', id);
    sink.delayMs = 200; // the first is still at the relay while the others arrive
    const answers = await Promise.all([post(token), post(token), post(token), post(token)]);
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, 409, 409, 409]);
    expect(delivered('Raced')).toHaveLength(1);
    expect((await historyOf(id)).filter((h) => h.action === 'release')).toHaveLength(1);

    const del = await held(['bob@a.example'], 'Raced delete');
    const delToken = link('bob@a.example', 'delete', del);
    const both = await Promise.all([post(delToken), post(delToken)]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await historyOf(del)).toHaveLength(1);

    const off = link('dora@a.example', 'unsubscribe', null);
    const offs = await Promise.all([post(off), post(off), post(off)]);
    expect(offs.map((r) => r.statusCode).sort()).toEqual([200, 409, 409]);
  });

  test('delete: the normal soft delete and its history row; a message deleted by other means: already_done', async () => {
    const id = await held(['ann@a.example'], 'Delete by link');
    const res = await post(link('ann@a.example', 'delete', id));
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ action: 'delete', result: 'deleted' });
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'deleted' });
    expect(await historyOf(id)).toMatchObject([{ action: 'delete', result: 'success', actor_email: 'ann@a.example' }]);

    // Released from the console first: the link has nothing left to do, nothing is sent twice.
    const other = await held(['ann@a.example'], 'Released elsewhere');
    const ui = await t.app.inject({
      method: 'POST',
      url: `/api/quarantine/${other}/release/`,
      headers: bearer(access['ann@a.example']!),
    });
    expect(ui.statusCode).toBe(200);
    for (const action of ['release', 'delete'] as const) {
      const r = await post(link('ann@a.example', action, other));
      expect(r.statusCode).toBe(200);
      expect(r.json()).toMatchObject({ action, result: 'already_done' });
    }
    expect(delivered('Released elsewhere')).toHaveLength(1);
    expect(await statuses(other)).toEqual({ 'ann@a.example': 'released' });
  });

  test('a release the relay refuses: failed with its answer, the link not spent; the retry releases', async () => {
    const id = await held(['ann@a.example'], 'Refused once');
    const token = link('ann@a.example', 'release', id);
    sink.mode = 'reject-data';
    const res = await post(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ result: 'failed', relay_response: expect.stringMatching(/^550 /) });
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'release_failed' });
    expect((await get(token)).json()).toMatchObject({ state: 'ready' });

    sink.mode = 'accept';
    const retry = await post(token);
    expect(retry.json()).toMatchObject({ result: 'released' });
    expect(delivered('Refused once')).toHaveLength(1);
    expect((await historyOf(id)).map((h) => [h.result, h.code])).toEqual([
      ['failure', 'relay_refused'],
      ['success', null],
    ]);
  });

  test("allow_sender: the header From into the user's whitelist (a domain digest: the domain's)", async () => {
    const id = await held(['ann@a.example'], 'Allow me');
    const token = link('ann@a.example', 'allow_sender', id);
    const res = await post(token);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ action: 'allow_sender', result: 'sender_allowed', sender: 'king@spam.example' });
    const entries = () =>
      t.db.selectFrom('sender_lists').select(['kind', 'owner_key', 'address', 'created_by_email']).execute();
    expect(await entries()).toEqual([
      {
        kind: 'whitelist',
        owner_key: `user:${ids['ann@a.example']}`,
        address: 'king@spam.example',
        created_by_email: 'ann@a.example',
      },
    ]);
    const listAdds = await t.db
      .selectFrom('history')
      .select(['actor_email'])
      .where('action', '=', 'list_add')
      .execute();
    expect(listAdds).toEqual([{ actor_email: 'ann@a.example' }]);
    // The same link again: 409 with the first outcome, nothing added (it acts once).
    const reused = await post(token);
    expect(reused.statusCode).toBe(409);
    expect(reused.json()).toMatchObject({ code: 'digest_link_used', outcome: res.json() });
    expect(await entries()).toHaveLength(1);
    expect(await t.db.selectFrom('history').select('id').where('action', '=', 'list_add').execute()).toHaveLength(1);
    // Another link for the same sender: already there.
    const again = await post(link('ann@a.example', 'allow_sender', id));
    expect(again.json()).toMatchObject({ result: 'already_done', sender: 'king@spam.example' });

    const forBob = await held(['bob@a.example'], 'Allow for domain');
    const dom = await post(link('boss@a.example', 'allow_sender', forBob, { kind: 'domain' }));
    expect(dom.json()).toMatchObject({ result: 'sender_allowed' });
    const domainId = (
      await t.db.selectFrom('domains').select('id').where('name', '=', 'a.example').executeTakeFirstOrThrow()
    ).id;
    expect((await entries()).map((e) => e.owner_key)).toContain(`domain:${domainId}`);
  });

  test("a domain digest's links act with the domain_admin's rights: their domain only", async () => {
    const ours = await held(['bob@a.example'], 'Domain release');
    const res = await post(link('boss@a.example', 'release', ours, { kind: 'domain' }));
    expect(res.json()).toMatchObject({ result: 'released' });
    expect(await historyOf(ours)).toMatchObject([{ action: 'release', actor_email: 'boss@a.example' }]);

    const theirs = await held(['carl@b.example'], 'Other domain');
    const snap = await snapshot();
    const refused = await post(link('boss@a.example', 'release', theirs, { kind: 'domain' }));
    expect(refused.statusCode).toBe(404);
    expect(refused.json().code).toBe('digest_link_invalid');
    // A domain link of a plain user (no domain to act for): invalid too.
    expect((await post(link('carl@b.example', 'release', theirs, { kind: 'domain' }))).statusCode).toBe(404);
    expect(await snapshot()).toEqual(snap);
  });
});

describe('refused with nothing done', () => {
  test('tampered, expired, another user’s message, unknown message, deactivated account', async () => {
    const id = await held(['ann@a.example'], 'Not for you');
    const good = link('ann@a.example', 'release', id);
    const [payload, signature] = good.split('.') as [string, string];
    const flipped = `${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}`;
    // A payload of another message under the original signature.
    const body = JSON.parse(Buffer.from(payload, 'base64url').toString());
    const swapped = `${Buffer.from(JSON.stringify({ ...body, m: 'other' })).toString('base64url')}.${signature}`;
    const otherKey = signDigestLink('x'.repeat(43), {
      userId: ids['ann@a.example']!,
      action: 'release',
      messageId: id,
      kind: 'user',
      expiresAt: Date.now() + DAY,
    });

    const dora = ids['dora@a.example']!;
    const doraMessage = await held(['dora@a.example'], 'Dora deactivated');
    const doraLink = link('dora@a.example', 'delete', doraMessage);
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', dora).execute();

    const before = await snapshot();
    const cases: [string, string, number, string][] = [
      ['tampered signature', flipped, 404, 'digest_link_invalid'],
      ['tampered payload', swapped, 404, 'digest_link_invalid'],
      ['another key', otherKey, 404, 'digest_link_invalid'],
      ['garbage', 'not-a-token', 404, 'digest_link_invalid'],
      ['expired', link('ann@a.example', 'release', id, { expiresAt: Date.now() - 1000 }), 410, 'digest_link_expired'],
      ["another user's message", link('bob@a.example', 'release', id), 404, 'digest_link_invalid'],
      ['unknown message', link('ann@a.example', 'delete', 'NOSUCHMESSAGE'), 404, 'digest_link_invalid'],
      ['deactivated account', doraLink, 404, 'digest_link_invalid'],
      ['deactivated unsubscribe', link('dora@a.example', 'unsubscribe', null), 404, 'digest_link_invalid'],
    ];
    for (const [name, token, status, code] of cases) {
      const info = await get(token);
      expect([name, info.statusCode]).toEqual([name, 200]);
      // Nothing about the message or the recipient is told.
      const expected = status === 410 ? 'expired' : 'invalid';
      const { state, recipient, message } = info.json();
      expect([name, state, recipient, message]).toEqual([name, expected, null, null]);
      const res = await post(token);
      expect([name, res.statusCode, res.json().code]).toEqual([name, status, code]);
    }
    expect(await snapshot()).toEqual(before);
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'pending' });
    expect(await statuses(doraMessage)).toEqual({ 'dora@a.example': 'pending' });
    await t.db.updateTable('users').set({ is_active: 1 }).where('id', '=', dora).execute();
  });
});

describe('unsubscribe', () => {
  const settingsOf = async (email: string) =>
    (
      await t.app.inject({ method: 'GET', url: '/api/users/me/notifications/', headers: bearer(access[email]!) })
    ).json();

  test('RFC 8058 one-click form POST: notifications off, the rest from the defaults now in force', async () => {
    const admin = bearer(access['root@admin.example']!);
    const defaults = { enabled: true, frequency: 'weekly', send_time: '07:30', time_zone: 'America/New_York' };
    const put = await t.app.inject({
      method: 'PUT',
      url: '/api/notifications/defaults/',
      headers: admin,
      payload: defaults,
    });
    expect(put.statusCode).toBe(200);
    expect(await settingsOf('carl@b.example')).toMatchObject({ ...defaults, is_default: true });

    const token = link('carl@b.example', 'unsubscribe', null);
    expect((await get(token)).json()).toMatchObject({ state: 'ready', action: 'unsubscribe', message: null });
    const res = await post(token, 'List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ action: 'unsubscribe', result: 'unsubscribed' });
    expect(await settingsOf('carl@b.example')).toMatchObject({ ...defaults, enabled: false, is_default: false });

    const again = await post(token, 'List-Unsubscribe=One-Click', 'application/x-www-form-urlencoded');
    expect(again.statusCode).toBe(409);
    expect(again.json().outcome).toMatchObject({ result: 'unsubscribed' });

    // Another user's own row keeps its values; only enabled changes.
    await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/notifications/',
      headers: bearer(access['bob@a.example']!),
      payload: { enabled: true, frequency: 'monthly', send_time: '18:00', time_zone: 'Asia/Tokyo' },
    });
    const bob = await post(link('bob@a.example', 'unsubscribe', null), {});
    expect(bob.statusCode).toBe(200);
    expect(await settingsOf('bob@a.example')).toMatchObject({
      enabled: false,
      frequency: 'monthly',
      time_zone: 'Asia/Tokyo',
    });

    // The form parser is these routes' own: elsewhere a form is still 415.
    const elsewhere = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/notifications/',
      headers: { ...bearer(access['bob@a.example']!), 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'enabled=true',
    });
    expect(elsewhere.statusCode).toBe(415);
    // Any other form field: refused by name, nothing done.
    const odd = await post(
      link('ann@a.example', 'unsubscribe', null),
      'List-Unsubscribe=One-Click&x=1',
      'application/x-www-form-urlencoded',
    );
    expect(odd.statusCode).toBe(400);
    expect(odd.json().errors).toHaveProperty('x');
    expect(await settingsOf('ann@a.example')).toMatchObject({ enabled: true });

    await t.app.inject({
      method: 'PUT',
      url: '/api/notifications/defaults/',
      headers: admin,
      payload: { enabled: true, frequency: 'daily', send_time: '08:00', time_zone: 'Europe/Paris' },
    });
  });
});

test('forged tokens per client address are limited (429 with Retry-After); genuine links are not', async () => {
  const small = await createTestApp({ QC_LOGIN_RATE_IP_MAX: '3' });
  try {
    const genuine = signDigestLink(small.config.secretKey, {
      userId: 'nobody',
      action: 'unsubscribe',
      messageId: null,
      kind: 'user',
      expiresAt: Date.now() + DAY,
    });
    const forged = signDigestLink('another secret, not this console’s 0123456789', {
      userId: 'nobody',
      action: 'unsubscribe',
      messageId: null,
      kind: 'user',
      expiresAt: Date.now() + DAY,
    });
    // Many genuine links from one address (an office, a mail provider's one-click): never limited.
    for (let i = 0; i < 6; i++) {
      const res = await small.app.inject({ method: i % 2 ? 'POST' : 'GET', url: `/api/digest/${genuine}/` });
      expect([i, res.statusCode]).toEqual([i, i % 2 ? 404 : 200]);
    }
    const answers = [];
    for (let i = 0; i < 4; i++) {
      answers.push(await small.app.inject({ method: i % 2 ? 'POST' : 'GET', url: `/api/digest/${forged}/` }));
    }
    expect(answers.map((r) => r.statusCode)).toEqual([200, 404, 200, 429]);
    expect(answers[3]!.json().code).toBe('rate_limited');
    expect(Number(answers[3]!.headers['retry-after'])).toBeGreaterThan(0);
    // The genuine link still answers from the limited address.
    expect((await small.app.inject({ method: 'GET', url: `/api/digest/${genuine}/` })).statusCode).toBe(200);
    const limited = await small.app.inject({
      method: 'POST',
      url: `/api/digest/${forged}/`,
      remoteAddress: '192.0.2.1',
    });
    expect(limited.statusCode).toBe(404); // another address has its own budget
  } finally {
    await small.close();
  }
});

test('OpenAPI describes the routes, the one-click form among the POST’s bodies', async () => {
  const spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
  for (const p of ['/api/digest/{token}/', '/api/users/me/notifications/', '/api/notifications/defaults/']) {
    expect(Object.keys(spec.paths)).toContain(p);
  }
  expect(spec.paths['/api/users/me/notifications/test/'].post.operationId).toBe('postUsersMeNotificationsTest');
  const act = spec.paths['/api/digest/{token}/'].post;
  expect(Object.keys(act.requestBody.content)).toEqual(['application/json', 'application/x-www-form-urlencoded']);
  expect(Object.keys(act.responses)).toEqual(expect.arrayContaining(['200', '404', '409', '410', '429']));
  expect(spec.paths['/api/digest/{token}/'].get.security).toBeUndefined();
});
