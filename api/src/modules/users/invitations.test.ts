import { INVITATION_PATH } from '@qc/contracts';
import { simpleParser } from 'mailparser';
import { bearer, createTestApp, PASSWORD, type TestApp } from '../../test/helpers';
import { startSink, type Sink } from '../../test/quarantine';
import { INVITATION_SUBJECT, invitationText } from './invitations.service';

// A user created without a password gets an invitation e-mail, sent by the app's own mailer over
// SMTP to a real server (smtp-server); the link is read from the message the relay received.

let t: TestApp;
let sink: Sink;
let adminToken: string;
let daToken: string;
let domainA: string;

beforeAll(async () => {
  sink = await startSink();
  t = await createTestApp(
    {
      QC_PUBLIC_URL: 'https://console.example.org/',
      QC_SMTP_URL: sink.url,
      QC_MAIL_FROM: 'console@example.org',
      QC_INVITATION_TTL: '7200',
    },
    { mailer: 'smtp' },
  );
  await t.createUser({ email: 'root@admin.example', role: 'admin' });
  domainA = (await t.createUser({ email: 'boss@a.example', role: 'domain_admin', domain: 'a.example' })).domain_id!;
  adminToken = (await t.login('root@admin.example')).access;
  daToken = (await t.login('boss@a.example')).access;
});
afterAll(async () => {
  await t.close();
  await sink.close();
});
beforeEach(() => {
  sink.mode = 'accept';
  sink.rejectRecipients.clear();
});

const invite = (email: string, token = adminToken, extra: object = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/users/',
    headers: bearer(token),
    payload: { email, role: 'user', ...extra },
  });
const accept = (token: unknown, password: unknown = 'my chosen password', ip = '203.0.113.9') =>
  t.app.inject({
    method: 'POST',
    url: '/api/auth/invitation/',
    payload: { token, password },
    remoteAddress: ip,
  });
const login = (email: string, password: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password } });

/** The token of the last invitation the relay took for `to`, and the mail itself. */
async function lastInvitation(to: string): Promise<{ token: string; link: URL; subject: string; text: string }> {
  const mail = sink.messages.filter((m) => m.to.includes(to)).at(-1);
  if (!mail) throw new Error(`no mail to ${to}`);
  const parsed = await simpleParser(mail.raw);
  expect(mail.from).toBe('console@example.org');
  const link = new URL(/https?:\/\/\S+/.exec(parsed.text ?? '')![0]);
  return { token: link.searchParams.get('token')!, link, subject: parsed.subject ?? '', text: parsed.text ?? '' };
}

test('created without a password: 201 invitation_pending; the link arrives; it sets the password once', async () => {
  const res = await invite('Invitee@Example.com');
  expect(res.statusCode).toBe(201);
  expect(res.json()).toMatchObject({ email: 'invitee@example.com', invitation_pending: true, is_active: true });
  const { token, link, subject, text } = await lastInvitation('invitee@example.com');
  expect(`${link.origin}${link.pathname}`).toBe(`https://console.example.org${INVITATION_PATH}`);
  expect(subject).toBe(INVITATION_SUBJECT);
  expect(text).toContain('Le lien expire dans 2 heures');
  expect(text).toContain('The link expires in 2 hours');
  // Only the token's keyed hash is stored.
  const stored = await t.db.selectFrom('user_invitations').select('token_hash').execute();
  expect(stored.map((r) => r.token_hash)).not.toContain(token);

  // No password matches the account until then (the empty hash included).
  for (const guess of ['', 'anything at all', PASSWORD]) {
    const attempt = await login('invitee@example.com', guess);
    expect([guess, attempt.statusCode, attempt.json().code]).toEqual(
      guess ? [guess, 401, 'invalid_credentials'] : [guess, 400, 'validation_error'],
    );
  }
  const ok = await accept(token);
  expect(ok.statusCode).toBe(204);
  expect((await login('invitee@example.com', 'my chosen password')).statusCode).toBe(200);
  const again = await accept(token, 'another password here');
  expect([again.statusCode, again.json().code, Object.keys(again.json().errors)]).toEqual([
    400,
    'invitation_invalid',
    ['token'],
  ]);
  expect((await login('invitee@example.com', 'another password here')).statusCode).toBe(401);
  const user = (
    await t.app.inject({ method: 'GET', url: `/api/users/${res.json().id}/`, headers: bearer(adminToken) })
  ).json();
  expect(user.invitation_pending).toBe(false);
});

test('an unknown token, or a bad password, is refused and changes nothing', async () => {
  await invite('unknown-token@example.com');
  const { token } = await lastInvitation('unknown-token@example.com');
  expect((await accept('x'.repeat(43))).json().code).toBe('invitation_invalid');
  const weak = await accept(token, 'short');
  expect([weak.statusCode, Object.keys(weak.json().errors)]).toEqual([400, ['password']]);
  const extra = await t.app.inject({
    method: 'POST',
    url: '/api/auth/invitation/',
    payload: { token, password: 'long enough here', role: 'admin' },
  });
  expect([extra.statusCode, Object.keys(extra.json().errors)]).toEqual([400, ['role']]);
  expect((await accept(token)).statusCode).toBe(204); // still unused
});

test('an expired link: 400 invitation_expired; the account keeps no password', async () => {
  await invite('late@example.com');
  const { token } = await lastInvitation('late@example.com');
  await t.db
    .updateTable('user_invitations')
    .set({ expires_at: Date.now() - 1 })
    .where('used_at', 'is', null)
    .execute();
  const res = await accept(token);
  expect([res.statusCode, res.json().code, Object.keys(res.json().errors)]).toEqual([
    400,
    'invitation_expired',
    ['token'],
  ]);
  expect((await login('late@example.com', 'my chosen password')).statusCode).toBe(401);
});

test('two acceptances at once: one wins, the other is invitation_invalid', async () => {
  await invite('racer@example.com');
  const { token } = await lastInvitation('racer@example.com');
  const results = await Promise.all([accept(token, 'first password one'), accept(token, 'second password two')]);
  expect(results.map((r) => r.statusCode).sort()).toEqual([204, 400]);
  const winner = results[0]!.statusCode === 204 ? 'first password one' : 'second password two';
  const loser = winner === 'first password one' ? 'second password two' : 'first password one';
  expect((await login('racer@example.com', winner)).statusCode).toBe(200);
  expect((await login('racer@example.com', loser)).statusCode).toBe(401);
});

test('the relay refuses the e-mail: 502 email_send_failed; the user is not created; the attempt is in the history', async () => {
  sink.rejectRecipients.add('bounce@example.com');
  const res = await invite('bounce@example.com');
  expect([res.statusCode, res.json().code]).toEqual([502, 'email_send_failed']);
  expect(await t.db.selectFrom('users').select('id').where('email', '=', 'bounce@example.com').execute()).toEqual([]);
  const rows = await t.db
    .selectFrom('history')
    .select(['action', 'result', 'code', 'target_id'])
    .where('target_label', '=', 'bounce@example.com')
    .execute();
  expect(rows).toEqual([{ action: 'user_create', result: 'failure', code: 'email_send_failed', target_id: null }]);
  sink.rejectRecipients.clear();
  expect((await invite('bounce@example.com')).statusCode).toBe(201); // simply try again
});

test('a new link (admin or the user’s domain_admin) replaces the earlier one; a password set by an admin voids it', async () => {
  const created = await invite('resend@a.example', daToken);
  expect(created.json().domain.id).toBe(domainA);
  const id = created.json().id;
  const first = (await lastInvitation('resend@a.example')).token;
  const resend = await t.app.inject({ method: 'POST', url: `/api/users/${id}/invitation/`, headers: bearer(daToken) });
  expect(resend.statusCode).toBe(204);
  const second = (await lastInvitation('resend@a.example')).token;
  expect(second).not.toBe(first);
  expect((await accept(first)).json().code).toBe('invitation_invalid');

  const patch = await t.app.inject({
    method: 'PATCH',
    url: `/api/users/${id}/`,
    headers: bearer(adminToken),
    payload: { password: 'set by the admin' },
  });
  expect(patch.json().invitation_pending).toBe(false);
  expect((await accept(second)).json().code).toBe('invitation_invalid');
  const after = await t.app.inject({
    method: 'POST',
    url: `/api/users/${id}/invitation/`,
    headers: bearer(adminToken),
  });
  expect([after.statusCode, after.json().code]).toEqual([409, 'invitation_not_pending']);
});

test('attempts are limited per client address (429 with Retry-After)', async () => {
  const limited = await createTestApp({ QC_LOGIN_RATE_IP_MAX: '3' });
  try {
    const attempt = (ip: string) =>
      limited.app.inject({
        method: 'POST',
        url: '/api/auth/invitation/',
        payload: { token: 'x'.repeat(43), password: 'long enough here' },
        remoteAddress: ip,
      });
    for (let i = 0; i < 3; i++) expect((await attempt('198.51.100.7')).statusCode).toBe(400);
    const over = await attempt('198.51.100.7');
    expect([over.statusCode, over.json().code]).toEqual([429, 'rate_limited']);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect((await attempt('198.51.100.8')).statusCode).toBe(400); // another address has its own budget
  } finally {
    await limited.close();
  }
});

test('the e-mail text: French first, then English, each with the link', () => {
  const text = invitationText('pat@example.com', 'https://c.example/invitation?token=abc', 3600);
  const fr = text.indexOf('Le lien expire dans 1 heure ');
  const en = text.indexOf('The link expires in 1 hour ');
  expect(fr).toBeGreaterThan(0);
  expect(en).toBeGreaterThan(fr);
  expect(text.split('https://c.example/invitation?token=abc')).toHaveLength(3);
  expect(text.split('-----')[0]).not.toMatch(/ [:;?!]/); // a no-break space before French colons
});

test('a link sent to a former address stops working once the admin corrects the address (review)', async () => {
  const res = await invite('jdoe@typo.example');
  const id = res.json().id as string;
  const { token } = await lastInvitation('jdoe@typo.example');
  const patch = await t.app.inject({
    method: 'PATCH',
    url: `/api/users/${id}/`,
    headers: bearer(adminToken),
    payload: { email: 'jdoe@fixed.example' },
  });
  expect(patch.statusCode).toBe(200);
  expect(patch.json().invitation_pending).toBe(true);
  const stale = await accept(token, 'typo mailbox owner pw', '203.0.113.31');
  expect([stale.statusCode, stale.json().code]).toEqual([400, 'invitation_invalid']);
  expect((await login('jdoe@fixed.example', 'typo mailbox owner pw')).statusCode).toBe(401);
  // A new link to the corrected address works.
  const resend = await t.app.inject({
    method: 'POST',
    url: `/api/users/${id}/invitation/`,
    headers: bearer(adminToken),
  });
  expect(resend.statusCode).toBeLessThan(300);
  const fresh = await lastInvitation('jdoe@fixed.example');
  expect((await accept(fresh.token, 'the right person pw', '203.0.113.31')).statusCode).toBe(204);
});

test('a deactivated account gets no password from its link; reactivated, the link works (review)', async () => {
  const res = await invite('paused@example.com');
  const id = res.json().id as string;
  const { token } = await lastInvitation('paused@example.com');
  const setActive = (is_active: boolean) =>
    t.app.inject({ method: 'PATCH', url: `/api/users/${id}/`, headers: bearer(adminToken), payload: { is_active } });
  expect((await setActive(false)).statusCode).toBe(200);
  const refused = await accept(token, 'paused person pw', '203.0.113.32');
  expect([refused.statusCode, refused.json().code]).toEqual([400, 'invitation_invalid']);
  expect((await setActive(true)).statusCode).toBe(200);
  expect((await accept(token, 'paused person pw', '203.0.113.32')).statusCode).toBe(204);
  expect((await login('paused@example.com', 'paused person pw')).statusCode).toBe(200);
});
