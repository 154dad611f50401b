import type { HistoryEntry } from '@qc/contracts';
import { simpleParser, type ParsedMail } from 'mailparser';
import {
  bearer,
  createMfaUser,
  createTestApp,
  freshStep,
  partialLogin,
  PASSWORD,
  totpAt,
  type TestApp,
} from '../../test/helpers';
import { startSink, type Sink } from '../../test/quarantine';
import { actorOf } from '../history/audit.service';
import { authenticate } from '../auth/auth.service';
import { createMailer } from '../../lib/mailer';
import { createTokenService } from '../auth/tokens';
import { notifyMfaReset, recordPasswordChanged, type RequestOrigin } from './security-events';
import { SECURITY_NOTICE_SUBJECTS } from './security-notices';

// Each security event from its real trigger, through the real app: its log line (read from the
// app's own log stream), its history row and readers, and the owner's notice as a real SMTP server
// received it.
// The TOTP tests first wait for a step with time to spare (up to 6 s, past jest's 5 s default).
jest.setTimeout(20_000);

let t: TestApp;
let sink: Sink;
const lines: string[] = [];
const AGENT = 'security-test/1.0';
const ACCOUNT_MAX = 3;
let admin: string;
let domainAdminA: string;
let domainAdminB: string;

beforeAll(async () => {
  sink = await startSink();
  t = await createTestApp(
    {
      QC_LOG_LEVEL: 'info',
      QC_SMTP_URL: sink.url,
      QC_MAIL_FROM: 'console@example.org',
      QC_LOGIN_RATE_ACCOUNT_MAX: String(ACCOUNT_MAX),
      QC_REFRESH_GRACE: '0',
    },
    { mailer: 'smtp', logStream: { write: (line) => void lines.push(line) } },
  );
  await t.createUser({ email: 'root@example.com', role: 'admin' });
  await t.createUser({ email: 'boss@a.example', role: 'domain_admin', domain: 'a.example' });
  await t.createUser({ email: 'boss@b.example', role: 'domain_admin', domain: 'b.example' });
  admin = (await t.login('root@example.com')).access;
  domainAdminA = (await t.login('boss@a.example')).access;
  domainAdminB = (await t.login('boss@b.example')).access;
});
afterAll(async () => {
  await t.close();
  await sink.close();
});
beforeEach(() => sink.rejectRecipients.clear());

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers: { 'user-agent': AGENT, ...headers } });
const login = (email: string, password: string) => post('/api/auth/login/', { email, password });

interface LogLine {
  level: number;
  msg: string;
  event?: string;
  account?: string;
  user_id?: string | null;
  ip?: string | null;
  user_agent?: string | null;
  code?: string;
}
const logLines = (): LogLine[] => lines.map((l) => JSON.parse(l) as LogLine);
const eventLines = (event: string, account: string) =>
  logLines().filter((l) => l.event === event && l.account === account);

/** The security rows of one account, as `reader` reads them (newest first). */
async function securityRows(reader: string, account: string): Promise<HistoryEntry[]> {
  const res = await t.app.inject({
    method: 'GET',
    url: `/api/history/?category=security&page_size=200`,
    headers: bearer(reader),
  });
  expect(res.statusCode).toBe(200);
  return (res.json().results as HistoryEntry[]).filter((r) => r.target?.label === account);
}

/** The notice with this subject the SMTP server received for `to` (sending is not awaited by the action). */
async function noticeTo(to: string, subject: string): Promise<ParsedMail> {
  for (let i = 0; i < 100; i++) {
    for (const m of sink.messages.filter((x) => x.to.includes(to))) {
      const parsed = await simpleParser(m.raw);
      if (parsed.subject === subject) return parsed;
    }
    await sleep(50);
  }
  throw new Error(`no "${subject}" for ${to}`);
}

/** The subjects of every e-mail the SMTP server received for `to`, oldest first. */
async function subjectsTo(to: string): Promise<(string | undefined)[]> {
  const mails = sink.messages.filter((m) => m.to.includes(to));
  return Promise.all(mails.map(async (m) => (await simpleParser(m.raw)).subject));
}

/** A code of none of the window's steps around `step` (one in a million would be). */
async function wrongCode(secret: string, step: number): Promise<string> {
  const window = await Promise.all([step - 1, step, step + 1].map((s) => totpAt(secret, s)));
  return ['000000', '111111', '222222'].find((c) => !window.includes(c))!;
}

/** A user of a.example and their own session (to read their own rows). */
async function userOfA(email: string) {
  const user = await t.createUser({ email, domain: 'a.example' });
  const { access } = await t.login(email);
  return { id: user.id, email, access };
}

/** The row is read by admins, a.example's domain_admin and the user, not by b.example's domain_admin. */
async function expectReaders(account: string, action: string, own: string) {
  for (const reader of [admin, domainAdminA, own]) {
    expect((await securityRows(reader, account)).map((r) => r.action)).toContain(action);
  }
  expect(await securityRows(domainAdminB, account)).toEqual([]);
}

describe('failed sign-in (login_failed)', () => {
  test('a wrong password: a warn log line and a history row naming the account, read by its readers', async () => {
    const u = await userOfA('wrong-password@a.example');
    const res = await login(u.email, 'not the password');
    expect(res.statusCode).toBe(401);
    const [line] = eventLines('login_failed', u.email);
    expect(line).toMatchObject({
      level: 40,
      user_id: u.id,
      ip: '127.0.0.1',
      user_agent: AGENT,
      code: 'invalid_credentials',
    });
    const [row] = await securityRows(admin, u.email);
    expect(row).toMatchObject({
      action: 'login_failed',
      user: { id: u.id, email: u.email, role: 'user' },
      target: { kind: 'user', id: u.id, label: u.email },
      email_id: null,
      result: 'failure',
      code: 'invalid_credentials',
      ip_address: '127.0.0.1',
    });
    await expectReaders(u.email, 'login_failed', u.access);
  });

  test('the right password of a disabled account: a failed sign-in too (account_inactive)', async () => {
    const u = await userOfA('disabled@a.example');
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', u.id).execute();
    expect((await login(u.email, PASSWORD)).json().code).toBe('account_inactive');
    expect(eventLines('login_failed', u.email)).toEqual([expect.objectContaining({ code: 'account_inactive' })]);
    expect(await securityRows(admin, u.email)).toEqual([
      expect.objectContaining({ action: 'login_failed', result: 'failure', code: 'account_inactive' }),
    ]);
  });

  test('an unknown e-mail: the log line only, never a history row', async () => {
    const res = await login('nobody-here@a.example', 'whatever it is');
    expect(res.statusCode).toBe(401);
    expect(eventLines('login_failed', 'nobody-here@a.example')).toEqual([
      expect.objectContaining({ user_id: null, ip: '127.0.0.1', user_agent: AGENT }),
    ]);
    const rows = await t.db
      .selectFrom('history')
      .select('id')
      .where((eb) =>
        eb.or([eb('actor_email', '=', 'nobody-here@a.example'), eb('target_label', '=', 'nobody-here@a.example')]),
      )
      .execute();
    expect(rows).toEqual([]);
  });

  test('the right sign-in is no event', async () => {
    const u = await userOfA('fine@a.example');
    await t.login(u.email);
    expect(logLines().filter((l) => l.account === u.email)).toEqual([]);
    expect(await securityRows(admin, u.email)).toEqual([]);
  });

  test('a wrong second-factor code is a failed sign-in (invalid_code)', async () => {
    const u = await createMfaUser(t, 'wrong-code@example.com');
    const res = await post('/api/auth/verify-totp/', {
      partial_token: await partialLogin(t, u.email),
      totp_code: await wrongCode(u.secret, await freshStep()),
    });
    expect(res.statusCode).toBe(401);
    expect(eventLines('login_failed', u.email)).toEqual([expect.objectContaining({ code: 'invalid_code' })]);
    expect(await securityRows(admin, u.email)).toEqual(
      expect.arrayContaining([expect.objectContaining({ action: 'login_failed', code: 'invalid_code' })]),
    );
  });
});

describe('lock-out (account_locked)', () => {
  test('the attempt that first goes over the account’s budget is the event, once; later ones are not', async () => {
    const u = await userOfA('locked@a.example');
    const statuses: number[] = [];
    for (let i = 0; i < ACCOUNT_MAX + 2; i++) statuses.push((await login(u.email, `guess ${i}`)).statusCode);
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
    expect(eventLines('account_locked', u.email)).toEqual([
      expect.objectContaining({ level: 40, user_id: u.id, ip: '127.0.0.1', user_agent: AGENT, code: 'rate_limited' }),
    ]);
    // The refused attempts checked no password: no failed sign-in recorded for them.
    expect(eventLines('login_failed', u.email)).toHaveLength(ACCOUNT_MAX);
    const rows = await securityRows(admin, u.email);
    expect(rows.filter((r) => r.action === 'account_locked')).toEqual([
      expect.objectContaining({
        result: 'failure',
        code: 'rate_limited',
        target: expect.objectContaining({ id: u.id }),
      }),
    ]);
    await expectReaders(u.email, 'account_locked', u.access);
  });

  test('an unknown e-mail going over its budget: the log line only', async () => {
    for (let i = 0; i < ACCOUNT_MAX + 1; i++) await login('ghost@a.example', `guess ${i}`);
    expect(eventLines('account_locked', 'ghost@a.example')).toEqual([expect.objectContaining({ user_id: null })]);
    const rows = await t.db.selectFrom('history').select('id').where('actor_email', '=', 'ghost@a.example').execute();
    expect(rows).toEqual([]);
  });
});

describe('refresh-token reuse (refresh_reuse)', () => {
  test('a replaced token used again: event, history row, and the owner is told by e-mail', async () => {
    const u = await userOfA('reuse@a.example');
    const first = await t.login(u.email);
    const rotated = await post('/api/auth/refresh/', { refresh: first.refresh });
    expect(rotated.statusCode).toBe(200);
    await sleep(5); // QC_REFRESH_GRACE=0: any later reuse is one
    const reused = await post('/api/auth/refresh/', { refresh: first.refresh });
    expect(reused.json().code).toBe('token_reused');
    expect(eventLines('refresh_reuse', u.email)).toEqual([
      expect.objectContaining({ level: 40, user_id: u.id, ip: '127.0.0.1', user_agent: AGENT }),
    ]);
    await expectReaders(u.email, 'refresh_reuse', u.access);
    const mail = await noticeTo(u.email, SECURITY_NOTICE_SUBJECTS.refresh_reuse);
    expect(mail.text).toContain('déjà remplacé');
    expect(mail.text).toContain('already been replaced');
    expect(mail.text).toContain('127.0.0.1');
    // The family is revoked: the same token again is no new event, and no second notice.
    expect((await post('/api/auth/refresh/', { refresh: first.refresh })).statusCode).toBe(401);
    await sleep(200);
    expect(eventLines('refresh_reuse', u.email)).toHaveLength(1);
    const notices = sink.messages.filter((m) => m.to.includes(u.email));
    expect(notices).toHaveLength(1);
  });
});

describe('TOTP replay (totp_replay)', () => {
  test('the code of a step already used: refused, a replay event rather than a plain failure, and the owner told once', async () => {
    const step = await freshStep();
    const u = await createMfaUser(t, 'replay@example.com', step);
    const code = await totpAt(u.secret, step);
    const partial = await partialLogin(t, u.email);
    const res = await post('/api/auth/verify-totp/', { partial_token: partial, totp_code: code });
    expect(res.statusCode).toBe(401);
    expect(eventLines('totp_replay', u.email)).toEqual([
      expect.objectContaining({ level: 40, user_id: u.id, code: 'invalid_code', user_agent: AGENT }),
    ]);
    expect(eventLines('login_failed', u.email)).toEqual([]);
    const rows = await securityRows(admin, u.email);
    expect(rows.map((r) => r.action)).toEqual(['totp_replay', 'mfa_enabled']);
    const mail = await noticeTo(u.email, SECURITY_NOTICE_SUBJECTS.totp_replay);
    expect(mail.text).toContain('qui avait déjà servi');
    expect(mail.text).toContain('had already been used');
    expect(mail.text).toContain('127.0.0.1');
    expect(mail.text).not.toContain(code);
    expect(mail.text).not.toContain(u.secret);

    // The same code again (a burst): refused and recorded again, but no second e-mail.
    expect((await post('/api/auth/verify-totp/', { partial_token: partial, totp_code: code })).statusCode).toBe(401);
    expect(eventLines('totp_replay', u.email)).toHaveLength(2);
    await sleep(200);
    expect(await subjectsTo(u.email)).toEqual([SECURITY_NOTICE_SUBJECTS.totp_replay]);
  });
});

describe('repeated second-factor failures (issue 29)', () => {
  const MAX_FAILURES = 5; // QC_MFA_MAX_FAILURES's default

  test('the owner is told at the QC_MFA_MAX_FAILURES-th wrong code, once for the burst, never with the code', async () => {
    const u = await createMfaUser(t, 'burst@example.com');
    const wrong = await wrongCode(u.secret, await freshStep());
    const verify = (partial: string) => post('/api/auth/verify-totp/', { partial_token: partial, totp_code: wrong });
    const first = await partialLogin(t, u.email);
    for (let i = 1; i < MAX_FAILURES; i++) expect((await verify(first)).statusCode).toBe(401);
    await sleep(200);
    expect(await subjectsTo(u.email)).toEqual([]); // below the threshold: nobody is told

    expect((await verify(first)).json().code).toBe('invalid_code'); // the last one this challenge takes
    const mail = await noticeTo(u.email, SECURITY_NOTICE_SUBJECTS.mfa_failures);
    expect(mail.text).toContain(`(${MAX_FAILURES} fois)`);
    expect(mail.text).toContain(`(${MAX_FAILURES} times)`);
    expect(mail.text).toContain('127.0.0.1');
    expect(mail.text).toContain('someone knows your password');
    expect(mail.text).not.toContain(wrong);
    expect(mail.text).not.toContain(u.secret);

    // A new challenge in the same window does not start the burst again: more failures, no new e-mail.
    const second = await partialLogin(t, u.email);
    for (let i = 0; i < 2; i++) expect((await verify(second)).statusCode).toBe(401);
    await sleep(200);
    expect(await subjectsTo(u.email)).toEqual([SECURITY_NOTICE_SUBJECTS.mfa_failures]);
    expect(eventLines('login_failed', u.email)).toHaveLength(MAX_FAILURES + 2);
  });
});

describe('two-factor enabled and disabled', () => {
  test('enabled: an info line and a row; no e-mail', async () => {
    const m = await createMfaUser(t, 'enable2@a.example');
    expect(eventLines('mfa_enabled', 'enable2@a.example')).toEqual([
      expect.objectContaining({ level: 30, user_id: m.id, ip: '127.0.0.1' }),
    ]);
    expect(await securityRows(admin, 'enable2@a.example')).toEqual([
      expect.objectContaining({ action: 'mfa_enabled', result: 'success', code: null }),
    ]);
    await sleep(200);
    expect(sink.messages.filter((x) => x.to.includes('enable2@a.example'))).toEqual([]);
  });

  test('disabled: event, row, and the owner’s notice', async () => {
    const m = await createMfaUser(t, 'disable@example.com');
    const res = await post('/api/users/me/mfa/disable/', { password: PASSWORD }, bearer(m.access));
    expect(res.statusCode).toBe(204);
    expect(eventLines('mfa_disabled', m.email)).toEqual([
      expect.objectContaining({ level: 30, user_id: m.id, ip: '127.0.0.1', user_agent: AGENT }),
    ]);
    expect((await securityRows(admin, m.email)).map((r) => r.action)).toEqual(['mfa_disabled', 'mfa_enabled']);
    const mail = await noticeTo(m.email, SECURITY_NOTICE_SUBJECTS.mfa_disabled);
    expect(mail.from?.text).toContain('console@example.org');
    expect(mail.text).toContain('a été désactivée');
    expect(mail.text).toContain('was turned off');
  });

  test('a wrong password disables nothing and records nothing', async () => {
    const m = await createMfaUser(t, 'disable-wrong@example.com');
    const res = await post('/api/users/me/mfa/disable/', { password: 'not it at all' }, bearer(m.access));
    expect(res.statusCode).toBe(400);
    expect(eventLines('mfa_disabled', m.email)).toEqual([]);
    expect((await securityRows(admin, m.email)).map((r) => r.action)).toEqual(['mfa_enabled']);
  });
});

describe('password changed (password_changed)', () => {
  test('by its owner: event, row read by the account’s readers, and the owner’s notice', async () => {
    const u = await userOfA('password@a.example');
    const res = await post(
      '/api/users/me/password/',
      { current_password: PASSWORD, new_password: 'another long password' },
      bearer(u.access),
    );
    expect(res.statusCode).toBe(204);
    expect(eventLines('password_changed', u.email)).toEqual([
      expect.objectContaining({ level: 30, user_id: u.id, ip: '127.0.0.1', user_agent: AGENT }),
    ]);
    await expectReaders(u.email, 'password_changed', u.access);
    const mail = await noticeTo(u.email, SECURITY_NOTICE_SUBJECTS.password_changed);
    expect(mail.text).toMatch(
      /Le mot de passe du compte Quarantine Console de password a été changé le .+ depuis l’adresse 127\.0\.0\.1\./,
    );
    expect(mail.text).toContain('was changed on');
  });

  test('the notice cannot be sent (relay refuses the address): the change is made all the same, and logged', async () => {
    const u = await userOfA('no-mailbox@a.example');
    sink.rejectRecipients.add(u.email);
    const res = await post(
      '/api/users/me/password/',
      { current_password: PASSWORD, new_password: 'another long password' },
      bearer(u.access),
    );
    expect(res.statusCode).toBe(204);
    expect((await login(u.email, 'another long password')).statusCode).toBe(200);
    for (let i = 0; i < 100 && !logLines().some((l) => l.msg.includes('could not be sent') && l.user_id === u.id); i++)
      await sleep(50);
    expect(logLines().filter((l) => l.msg.includes('security notice') && l.user_id === u.id)).toEqual([
      expect.objectContaining({ level: 40, event: 'password_changed' }),
    ]);
  });

  test('by an administrator (users module, CLI): the row names the administrator, the notice says so', async () => {
    const u = await userOfA('set-by-admin@a.example');
    const adminAuth = await authenticate({ db: t.db, tokens: tokensOf(t) }, `Bearer ${admin}`);
    const origin: RequestOrigin = { ip: '192.0.2.7', userAgent: AGENT, log: captureLog() };
    await recordPasswordChanged({ db: t.db, mailer: mailerOf() }, origin, u.id, actorOf(adminAuth, '192.0.2.7'));
    const [row] = await securityRows(admin, u.email);
    expect(row).toMatchObject({
      action: 'password_changed',
      user: { email: 'root@example.com', role: 'admin' },
      target: { id: u.id, label: u.email },
      ip_address: '192.0.2.7',
    });
    await expectReaders(u.email, 'password_changed', u.access);
    const mail = await noticeTo(u.email, SECURITY_NOTICE_SUBJECTS.password_changed);
    expect(mail.text).toContain('Un administrateur a changé le mot de passe');
    expect(mail.text).toContain('An administrator changed the password');
    expect(mail.text).not.toContain('192.0.2.7'); // the administrator's address is not the owner's business
  });
});

describe('two-factor reset (notifyMfaReset, for the users module)', () => {
  test('a log line and the owner’s notice; the history row is the users module’s (none here)', async () => {
    const m = await createMfaUser(t, 'reset@example.com');
    const logged: object[] = [];
    const origin: RequestOrigin = { ip: '192.0.2.8', userAgent: AGENT, log: captureLog(logged) };
    await notifyMfaReset({ db: t.db, mailer: mailerOf() }, origin, m.id);
    expect(logged).toEqual([
      expect.objectContaining({ event: 'mfa_reset', account: m.email, user_id: m.id, ip: '192.0.2.8' }),
    ]);
    const mail = await noticeTo(m.email, SECURITY_NOTICE_SUBJECTS.mfa_reset);
    expect(mail.text).toContain('Un administrateur a réinitialisé');
    expect(mail.text).toContain('An administrator reset two-factor authentication');
    expect((await securityRows(admin, m.email)).map((r) => r.action)).toEqual(['mfa_enabled']);
  });
});

/** The app's own mailer and token service are not exposed: a second mailer to the same sink, and the app's key. */
function mailerOf() {
  return createMailer(t.config, { info: () => undefined });
}
function tokensOf(app: TestApp) {
  return createTokenService(app.config.secretKey, { access: app.config.accessTtl, partial: app.config.partialTtl });
}
function captureLog(into: object[] = []): RequestOrigin['log'] {
  return { info: (obj) => void into.push(obj), warn: (obj) => void into.push(obj) };
}

test("a domain_admin reads the events of their domain's users, not those of its admins and domain_admins (review)", async () => {
  await t.createUser({ email: 'deputy@a.example', role: 'domain_admin', domain: 'a.example' });
  await t.createUser({ email: 'cto@a.example', role: 'admin', domain: 'a.example' });
  await t.createUser({ email: 'staff@a.example', role: 'user', domain: 'a.example' });
  for (const account of ['deputy@a.example', 'cto@a.example', 'staff@a.example']) {
    expect((await login(account, 'not the password')).statusCode).toBe(401);
  }
  expect(await securityRows(domainAdminA, 'deputy@a.example')).toEqual([]);
  expect(await securityRows(domainAdminA, 'cto@a.example')).toEqual([]);
  expect((await securityRows(domainAdminA, 'staff@a.example')).map((r) => r.action)).toEqual(['login_failed']);
  for (const account of ['deputy@a.example', 'cto@a.example', 'staff@a.example']) {
    expect((await securityRows(admin, account)).map((r) => r.action)).toEqual(['login_failed']);
  }
});

test('the access log never holds the token of an e-mailed link', async () => {
  lines.length = 0;
  await t.app.inject({ method: 'GET', url: '/invitation?token=SECRETINVITETOKEN123&x=1' });
  await t.app.inject({ method: 'GET', url: '/profile/confirm-email?TOKEN=SECRETCONFIRMTOKEN456' });
  const text = lines.join('\n');
  expect(text).toContain('/invitation?token=[redacted]&x=1');
  expect(text).toContain('/profile/confirm-email?TOKEN=[redacted]');
  expect(text).not.toMatch(/SECRETINVITETOKEN123|SECRETCONFIRMTOKEN456/);
});

test('the access log never holds a credential a client put in the URL, nor a logged header’s (issue 29)', async () => {
  lines.length = 0;
  const jwt = admin; // a live access token
  await t.app.inject({ method: 'GET', url: `/api/users/me/?access_token=${jwt}&page_size=5` });
  await t.app.inject({ method: 'GET', url: '/api/health/?API_KEY=SECRETKEY789&x_token=SECRETXTOKEN012' });
  t.app.log.warn(
    { headers: { authorization: `Bearer ${jwt}`, cookie: 'qc_device=SECRETCOOKIE345', accept: '*/*' } },
    'h',
  );
  const text = lines.join('\n');
  expect(text).toContain('/api/users/me/?access_token=[redacted]&page_size=5');
  expect(text).toContain('/api/health/?API_KEY=[redacted]&x_token=[redacted]');
  expect(logLines().find((l) => l.msg === 'h')).toMatchObject({
    headers: { authorization: '[redacted]', cookie: '[redacted]', accept: '*/*' },
  });
  expect(text).not.toContain(jwt.split('.')[2]!);
  expect(text).not.toMatch(/SECRETKEY789|SECRETXTOKEN012|SECRETCOOKIE345/);
});
