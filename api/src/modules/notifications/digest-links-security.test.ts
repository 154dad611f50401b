/**
 * Digest links under attack (issue 20's security review): a personal link reaches only its
 * recipient's copy whatever the role, tokens never reach the access log, and the properties the
 * review checked and found sound.
 */
import { type DigestAction } from '@qc/contracts';
import { createTestApp, type TestApp } from '../../test/helpers';
import { INGEST_TOKEN, ingestOk, meta, mime, recipientStatuses, type Sink, startSink } from '../../test/quarantine';
import { signDigestLink } from './digest-link';

const PUBLIC_URL = 'https://console.example';
const DAY = 24 * 3600 * 1000;

let t: TestApp;
let sink: Sink;
const lines: string[] = [];
const ids: Record<string, string> = {};

beforeAll(async () => {
  sink = await startSink();
  t = await createTestApp(
    { QC_INGEST_TOKEN: INGEST_TOKEN, QC_SMTP_URL: sink.url, QC_PUBLIC_URL: PUBLIC_URL, QC_LOG_LEVEL: 'info' },
    { logStream: { write: (line) => void lines.push(line) } },
  );
  const users: [string, 'admin' | 'domain_admin' | 'user', string | undefined][] = [
    ['root@admin.example', 'admin', undefined],
    ['boss@a.example', 'domain_admin', 'a.example'],
    ['ann@a.example', 'user', 'a.example'],
    ['carl@b.example', 'user', 'b.example'],
  ];
  for (const [email, role, domain] of users) ids[email] = (await t.createUser({ email, role, domain })).id;
});
afterAll(async () => {
  await t.close();
  await sink.close();
});

function link(email: string, action: DigestAction, messageId: string | null, kind: 'user' | 'domain' = 'user') {
  return signDigestLink(t.config.secretKey, {
    userId: ids[email]!,
    action,
    messageId,
    kind,
    expiresAt: Date.now() + 7 * DAY,
  });
}
const post = (token: string) => t.app.inject({ method: 'POST', url: `/api/digest/${token}/` });
const held = (to: string[], subject: string) =>
  ingestOk(t, meta({ mail_from: 'bounce@spam.example', rcpt_to: to }), mime({ subject, to: to.join(', ') }));
const statuses = (id: string) => recipientStatuses(t, id);

describe('a personal digest link acts on its recipient’s copy only', () => {
  // The user digest ("Your quarantine": messages addressed to <you>) of a domain_admin or admin
  // carries kind 'user' links, but actOnLink runs them with scopeFor(role): the whole domain, or
  // everything. One click on "Release" of a campaign that hit the whole domain re-injects it to
  // every mailbox of the domain. DESIGN §4.1: tokens are "per action and recipient".
  test("a domain_admin's personal release link releases only their own copy", async () => {
    const id = await held(['boss@a.example', 'ann@a.example'], 'Phish for everyone');
    const res = await post(link('boss@a.example', 'release', id, 'user'));
    expect(res.statusCode).toBe(200);
    expect(await statuses(id)).toEqual({ 'boss@a.example': 'released', 'ann@a.example': 'pending' });
  });

  test("an admin's personal delete link deletes only their own copy", async () => {
    const id = await held(['root@admin.example', 'carl@b.example'], 'Delete from my digest');
    const res = await post(link('root@admin.example', 'delete', id, 'user'));
    expect(res.statusCode).toBe(200);
    expect(await statuses(id)).toEqual({ 'root@admin.example': 'deleted', 'carl@b.example': 'pending' });
  });

  test("a personal link is not valid for a message not addressed to its user (a domain_admin's colleague's)", async () => {
    // Never in boss's personal digest; a user-kind token for it should not be honoured either.
    const id = await held(['ann@a.example'], 'Only Ann');
    const info = await t.app.inject({ method: 'GET', url: `/api/digest/${link('boss@a.example', 'release', id)}/` });
    expect(info.json().state).toBe('invalid');
  });
});

describe('digest tokens never reach the access log', () => {
  // requestForLog redacts `?token=` (invitations, e-mail confirmation) but a digest token is a
  // path segment: every GET/POST of /api/digest/<token>/ and every open of the console page
  // /digest/<token> writes a live, usable credential (release/delete/allow of someone's mail) to
  // the log at the default level (info).
  test('neither /api/digest/<token>/ nor /digest/<token> writes the token to the log', async () => {
    const id = await held(['ann@a.example'], 'Logged link');
    const token = link('ann@a.example', 'release', id);
    const signature = token.split('.')[1]!;
    lines.length = 0;
    await t.app.inject({ method: 'GET', url: `/api/digest/${token}/` });
    await t.app.inject({ method: 'GET', url: `/digest/${token}`, headers: { accept: 'text/html' } });
    const text = lines.join('');
    expect(text).toContain('digest'); // the requests were logged
    expect(text).not.toContain(signature);
  });
});

describe('checked by the review and sound', () => {
  test('the form parser stays in the digest plugin: a form POST elsewhere is 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: 'email=root%40admin.example&password=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(415);
    const notif = await t.app.inject({
      method: 'PUT',
      url: '/api/users/me/notifications/',
      payload: 'enabled=false',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect([401, 415]).toContain(notif.statusCode);
  });

  test('a form body other than List-Unsubscribe=One-Click is refused; nothing done', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/digest/${link('ann@a.example', 'unsubscribe', null)}/`,
      payload: 'List-Unsubscribe=One-Click&enabled=1',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode).toBe(400);
  });

  test('a malleated signature (base64 junk) reaches the same link id: still single use', async () => {
    const id = await held(['ann@a.example'], 'Malleable');
    const token = link('ann@a.example', 'delete', id);
    const [p, s] = token.split('.') as [string, string];
    expect((await post(token)).statusCode).toBe(200);
    const variant = `${p}.${s.slice(0, 10)}!${s.slice(10)}`;
    const again = await post(variant);
    expect([404, 409]).toContain(again.statusCode);
  });

  test('the confirm page sends no Referer (the token is in its URL)', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/digest/abc.def', headers: { accept: 'text/html' } });
    expect(res.headers['referrer-policy']).toBe('no-referrer');
  });

  test('the 303 goes to QC_PUBLIC_URL, never to the Host header', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/api/digest/${link('ann@a.example', 'unsubscribe', null)}/`,
      headers: { accept: 'text/html', host: 'evil.example', 'x-forwarded-host': 'evil.example' },
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^https:\/\/console\.example\/digest\//);
  });

  test('a plain user promoted then demoted: a domain link is refused after the demotion', async () => {
    const id = await held(['ann@a.example'], 'Demoted');
    const token = link('boss@a.example', 'release', id, 'domain');
    await t.db.updateTable('users').set({ role: 'user' }).where('id', '=', ids['boss@a.example']!).execute();
    try {
      expect((await post(token)).statusCode).toBe(404);
      expect(await statuses(id)).toEqual({ 'ann@a.example': 'pending' });
    } finally {
      await t.db.updateTable('users').set({ role: 'domain_admin' }).where('id', '=', ids['boss@a.example']!).execute();
    }
  });
});
