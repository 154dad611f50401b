import { EXTERNAL_USER_MESSAGE, ProfileResponse } from '@qc/contracts';
import { simpleParser } from 'mailparser';
import { bearer, createTestApp, freePort, PASSWORD, type TestApp } from '../../test/helpers';
import { EMAIL_CHANGE_NOTICE_SUBJECT, EMAIL_IN_USE_SUBJECT } from './profile.service';
import { startSink, type Sink } from '../../test/quarantine';

// The app's own mailer sends over SMTP to a real server (smtp-server): the confirmation link is
// read from the message as the relay received it.
let t: TestApp;
let sink: Sink;
beforeAll(async () => {
  sink = await startSink();
  t = await createTestApp(
    { QC_PUBLIC_URL: 'https://console.example.org/', QC_SMTP_URL: sink.url, QC_MAIL_FROM: 'console@example.org' },
    { mailer: 'smtp' },
  );
});
afterAll(async () => {
  await t.close();
  await sink.close();
});
beforeEach(() => {
  sink.mode = 'accept';
  sink.rejectRecipients.clear();
});

const patch = (access: string, payload: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'PATCH', url: '/api/users/me/', headers: { ...bearer(access), ...headers }, payload });
const confirm = (access: string, token: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/users/me/email/confirm/', headers: bearer(access), payload: { token } });
const changePassword = (access: string, payload: object) =>
  t.app.inject({ method: 'POST', url: '/api/users/me/password/', headers: bearer(access), payload });
const me = (access: string) => t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });

const mailsTo = (to: string) => sink.messages.filter((m) => m.to.includes(to));

/** The confirmation link of the last mail the relay took for `to` (decoded as a mail client would). */
async function lastLinkTo(to: string): Promise<URL> {
  const mail = mailsTo(to).at(-1);
  if (!mail) throw new Error(`no mail to ${to}`);
  const parsed = await simpleParser(mail.raw);
  expect([mail.from, parsed.to && 'text' in parsed.to ? parsed.to.text : null]).toEqual(['console@example.org', to]);
  const link = /https?:\/\/\S+/.exec(parsed.text ?? '')?.[0];
  return new URL(link!);
}

describe('PATCH /api/users/me/', () => {
  test('names and username change at once; the answer is the user plus pending_email', async () => {
    const row = await t.createUser({ email: 'pat@example.com', username: 'pat' });
    const { access } = await t.login('pat@example.com');
    const res = await patch(access, { username: 'pat.new+1@x_y-z', first_name: ' Pat ', last_name: 'Smith' });
    expect(res.statusCode).toBe(200);
    const body = ProfileResponse.strict().parse(res.json());
    expect(body).toMatchObject({
      id: row.id,
      username: 'pat.new+1@x_y-z',
      first_name: 'Pat',
      last_name: 'Smith',
      email: 'pat@example.com',
      pending_email: null,
    });
    expect((await me(access)).json()).toMatchObject({ username: 'pat.new+1@x_y-z', first_name: 'Pat' });
    // An empty body changes nothing.
    expect((await patch(access, {})).json()).toMatchObject({ username: 'pat.new+1@x_y-z', last_name: 'Smith' });
  });

  test('validation: 400 with errors per field', async () => {
    await t.createUser({ email: 'val@example.com' });
    const { access } = await t.login('val@example.com');
    const cases: [object, string][] = [
      [{ username: '' }, 'username'],
      [{ username: 'has space' }, 'username'],
      [{ username: 'semi;colon' }, 'username'],
      [{ username: 'x'.repeat(151) }, 'username'],
      [{ email: 'not-an-email' }, 'email'],
      [{ email: '' }, 'email'],
      [{ first_name: 'x'.repeat(151) }, 'first_name'],
      [{ last_name: 42 }, 'last_name'],
    ];
    for (const [payload, field] of cases) {
      const res = await patch(access, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code: 'validation_error', errors: { [field]: expect.any(String) } });
    }
    expect((await patch(access, { email: 'bad' })).json().errors.email).toBe('Invalid email format');
    expect((await patch(access, { username: 'x'.repeat(150) })).statusCode).toBe(200);
  });

  test('username unique (case-insensitive): 409 errors.username', async () => {
    await t.createUser({ email: 'taken1@example.com', username: 'TakenName' });
    await t.createUser({ email: 'taken2@example.com', username: 'free' });
    const { access } = await t.login('taken2@example.com');
    const res = await patch(access, { username: 'takenname' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'username_taken', errors: { username: expect.any(String) } });
    // Keeping one's own username (any case) is fine.
    const { access: own } = await t.login('taken1@example.com');
    expect((await patch(own, { username: 'TakenName', first_name: 'T' })).statusCode).toBe(200);
  });

  test('a username may not be another account’s e-mail address (any case): 409, nothing changes', async () => {
    await t.createUser({ email: 'victim@example.com', username: 'victim' });
    const me1 = await t.createUser({ email: 'impostor@example.com', username: 'impostor' });
    const { access } = await t.login('impostor@example.com');
    for (const username of ['victim@example.com', 'Victim@Example.COM']) {
      const res = await patch(access, { username, first_name: 'Changed' });
      expect(res.statusCode).toBe(409);
      expect(res.json()).toMatchObject({ code: 'username_taken', errors: { username: expect.any(String) } });
    }
    expect((await me(access)).json()).toMatchObject({ id: me1.id, username: 'impostor', first_name: '' });
    // One's own address is no one else's: allowed.
    expect((await patch(access, { username: 'impostor@example.com' })).json().username).toBe('impostor@example.com');
  });

  test('external users: only first and last name', async () => {
    await t.createUser({ email: 'ext@example.com', username: 'ext', is_external: true });
    const { access } = await t.login('ext@example.com');
    const res = await patch(access, { username: 'other', email: 'new-ext@example.com', first_name: 'E' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      code: 'validation_error',
      errors: { username: EXTERNAL_USER_MESSAGE, email: EXTERNAL_USER_MESSAGE },
    });
    expect((await me(access)).json()).toMatchObject({ username: 'ext', email: 'ext@example.com', first_name: '' });
    expect(mailsTo('new-ext@example.com')).toEqual([]);
    // Names work, and so does sending the unchanged username/e-mail with them (a whole form).
    const ok = await patch(access, {
      first_name: 'Ext',
      last_name: 'Ernal',
      username: 'ext',
      email: 'ext@example.com',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ first_name: 'Ext', last_name: 'Ernal' });
  });

  test('anonymous → 401', async () => {
    const res = await t.app.inject({ method: 'PATCH', url: '/api/users/me/', payload: { first_name: 'x' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('e-mail change', () => {
  test('a new e-mail is pending until the mailed link is confirmed; then other sessions end', async () => {
    const row = await t.createUser({ email: 'mover@example.com' });
    const mine = await t.login('mover@example.com');
    const other = await t.login('mover@example.com');
    const res = await patch(
      mine.access,
      { email: 'Moved@Example.com', current_password: PASSWORD },
      { host: 'evil.example' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ email: 'mover@example.com', pending_email: 'moved@example.com' });
    // Not in effect yet, and GET /users/me/ says it is waiting (a reloaded profile page shows it).
    expect((await me(mine.access)).json()).toMatchObject({
      email: 'mover@example.com',
      pending_email: 'moved@example.com',
    });
    await expect(t.login('moved@example.com')).rejects.toThrow(/401/);

    const link = await lastLinkTo('moved@example.com');
    // Built from QC_PUBLIC_URL, never from the Host header.
    expect(link.origin).toBe('https://console.example.org');
    expect(link.pathname).toBe('/profile/confirm-email');
    const token = link.searchParams.get('token')!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const stored = JSON.stringify(await t.db.selectFrom('email_changes').selectAll().execute());
    expect(stored).not.toContain(token);

    const done = await confirm(mine.access, token);
    expect(done.statusCode).toBe(200);
    expect(ProfileResponse.strict().parse(done.json())).toMatchObject({
      id: row.id,
      email: 'moved@example.com',
      pending_email: null,
    });
    expect((await me(mine.access)).json().email).toBe('moved@example.com');
    expect((await me(other.access)).statusCode).toBe(401);
    expect((await t.login('moved@example.com')).access).toEqual(expect.any(String));

    // Single use.
    const again = await confirm(mine.access, token);
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'email_change_invalid', errors: { token: expect.any(String) } });
  });

  test('an expired link is refused; an unknown token too', async () => {
    await t.createUser({ email: 'late@example.com' });
    const { access } = await t.login('late@example.com');
    await patch(access, { email: 'late-new@example.com', current_password: PASSWORD });
    const token = (await lastLinkTo('late-new@example.com')).searchParams.get('token')!;
    await t.db
      .updateTable('email_changes')
      .set({ expires_at: Date.now() - 1 })
      .where('new_email', '=', 'late-new@example.com')
      .execute();
    const res = await confirm(access, token);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('email_change_expired');
    expect((await me(access)).json().email).toBe('late@example.com');
    expect((await patch(access, {})).json().pending_email).toBeNull();

    const unknown = await confirm(access, 'A'.repeat(43));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().code).toBe('email_change_invalid');
    expect((await confirm(access, '')).statusCode).toBe(400);
  });

  test('only the user who asked can confirm; a newer request replaces the older link', async () => {
    await t.createUser({ email: 'asker@example.com' });
    await t.createUser({ email: 'thief@example.com' });
    const asker = await t.login('asker@example.com');
    const thief = await t.login('thief@example.com');
    await patch(asker.access, { email: 'first-choice@example.com', current_password: PASSWORD });
    const first = (await lastLinkTo('first-choice@example.com')).searchParams.get('token')!;
    expect((await confirm(thief.access, first)).statusCode).toBe(400);
    expect((await me(thief.access)).json().email).toBe('thief@example.com');

    const res = await patch(asker.access, { email: 'second-choice@example.com', current_password: PASSWORD });
    expect(res.json().pending_email).toBe('second-choice@example.com');
    expect((await confirm(asker.access, first)).json().code).toBe('email_change_invalid');
    const second = (await lastLinkTo('second-choice@example.com')).searchParams.get('token')!;
    expect((await confirm(asker.access, second)).json().email).toBe('second-choice@example.com');
  });

  test('a new e-mail needs the current password: missing or wrong → 400 errors.current_password, nothing changes or is sent', async () => {
    const row = await t.createUser({ email: 'keeper@example.com', username: 'keeper' });
    const { access } = await t.login('keeper@example.com');
    const other = await t.login('keeper@example.com');
    const sent = sink.messages.length;
    const wanted = { email: 'attacker@example.net', username: 'mallory', first_name: 'Mallory' };
    const cases: [object, string][] = [
      [wanted, 'validation_error'],
      [{ ...wanted, current_password: '' }, 'validation_error'],
      [{ ...wanted, current_password: `${PASSWORD}x` }, 'invalid_password'],
    ];
    for (const [payload, code] of cases) {
      const res = await patch(access, payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toMatchObject({ code, errors: { current_password: expect.any(String) } });
    }
    // Nothing changed, nothing pending, nothing sent; every session goes on.
    expect(sink.messages.length).toBe(sent);
    expect((await me(access)).json()).toMatchObject({
      email: 'keeper@example.com',
      username: 'keeper',
      first_name: '',
      pending_email: null,
    });
    expect(await t.db.selectFrom('email_changes').selectAll().where('user_id', '=', row.id).execute()).toEqual([]);
    expect((await me(other.access)).statusCode).toBe(200);

    // Not asked for when the e-mail does not change (a whole form sent back as it was).
    expect((await patch(access, { email: 'KEEPER@example.com', first_name: 'Kee' })).statusCode).toBe(200);
    // The right one: pending, and the link goes out.
    const ok = await patch(access, { email: 'Keeper.New@example.net', current_password: PASSWORD });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toMatchObject({ email: 'keeper@example.com', pending_email: 'keeper.new@example.net' });
    expect((await lastLinkTo('keeper.new@example.net')).pathname).toBe('/profile/confirm-email');
    expect(mailsTo('attacker@example.net')).toEqual([]);
  });

  test('the address in effect is told of the request (French, then English), without the link', async () => {
    await t.createUser({ email: 'told@example.com', username: 'told' });
    const { access } = await t.login('told@example.com');
    const res = await patch(access, { email: 'told-new@example.net', current_password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const notices = mailsTo('told@example.com');
    expect(notices).toHaveLength(1);
    expect(notices[0]!.to).toEqual(['told@example.com']); // its own message: the new address is not copied
    const parsed = await simpleParser(notices[0]!.raw);
    expect(parsed.subject).toBe(EMAIL_CHANGE_NOTICE_SUBJECT);
    const text = parsed.text ?? '';
    const fr = text.indexOf('la nouvelle adresse serait told-new@example.net');
    const en = text.indexOf('the new address would be told-new@example.net');
    expect(fr).toBeGreaterThanOrEqual(0);
    expect(en).toBeGreaterThan(fr);
    const token = (await lastLinkTo('told-new@example.net')).searchParams.get('token')!;
    expect(text).not.toContain(token);
    expect(text).not.toMatch(/https?:\/\//);
  });

  test('the notice to the address in effect is best effort: its refusal does not undo the request', async () => {
    await t.createUser({ email: 'dead-box@example.com' });
    const { access } = await t.login('dead-box@example.com');
    sink.rejectRecipients.add('dead-box@example.com');
    const res = await patch(access, { email: 'live-box@example.net', current_password: PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json().pending_email).toBe('live-box@example.net');
    expect(mailsTo('live-box@example.net')).toHaveLength(1);
  });

  test('an address that has an account: the same answer as any other, its owner gets a notice (no link), nothing changes', async () => {
    const holder = await t.createUser({ email: 'holder@example.com', username: 'holder', first_name: 'Hold' });
    await t.createUser({ email: 'wanter@example.com', username: 'wanter' });
    const wanter = await t.login('wanter@example.com');
    const holderSession = await t.login('holder@example.com');

    const free = await patch(wanter.access, { email: 'nobody-yet@example.com', current_password: PASSWORD });
    const freeMe = (await me(wanter.access)).json();
    const taken = await patch(wanter.access, { email: 'HOLDER@example.com', current_password: PASSWORD });
    const takenMe = (await me(wanter.access)).json();
    // The same answer, now and on a reload: only the address asked for differs.
    expect([free.statusCode, taken.statusCode]).toEqual([200, 200]);
    expect(taken.json()).toMatchObject({ email: 'wanter@example.com', pending_email: 'holder@example.com' });
    expect(free.json()).toMatchObject({ email: 'wanter@example.com', pending_email: 'nobody-yet@example.com' });
    const same = (body: object) => ({ ...body, pending_email: '…' });
    expect(same(taken.json())).toEqual(same(free.json()));
    expect(same(takenMe)).toEqual(same(freeMe));
    expect(takenMe.pending_email).toBe('holder@example.com');
    expect(Object.keys(taken.headers).sort()).toEqual(Object.keys(free.headers).sort());
    // The requester's own address hears of both alike.
    expect(mailsTo('wanter@example.com')).toHaveLength(2);

    // The holder gets a notice, no link; nothing of their account changes and their session goes on.
    const notices = mailsTo('holder@example.com');
    expect(notices).toHaveLength(1);
    const parsed = await simpleParser(notices[0]!.raw);
    expect(parsed.subject).toBe(EMAIL_IN_USE_SUBJECT);
    expect(parsed.text).toContain('Elle est déjà celle de votre compte\u00a0: rien n’a été modifié');
    expect(parsed.text).toContain('It already belongs to your account: nothing was changed');
    expect(parsed.text).not.toMatch(/https?:\/\/|token=/);
    const holderRow = await t.db
      .selectFrom('users')
      .select(['email', 'username', 'first_name', 'password_hash'])
      .where('id', '=', holder.id)
      .executeTakeFirstOrThrow();
    expect(holderRow).toEqual({
      email: holder.email,
      username: holder.username,
      first_name: 'Hold',
      password_hash: holder.password_hash,
    });
    expect((await me(holderSession.access)).json()).toMatchObject({ email: 'holder@example.com', first_name: 'Hold' });
    expect((await t.login('holder@example.com')).access).toEqual(expect.any(String));
    // The replaced link (to the free address) no longer works, as after any newer request.
    const freeToken = (await lastLinkTo('nobody-yet@example.com')).searchParams.get('token')!;
    expect((await confirm(wanter.access, freeToken)).json().code).toBe('email_change_invalid');
    expect((await me(wanter.access)).json().email).toBe('wanter@example.com');
  });

  test('uniqueness is checked again at confirmation', async () => {
    await t.createUser({ email: 'late-wanter@example.com' });
    const wanter = await t.login('late-wanter@example.com');
    await patch(wanter.access, { email: 'contested@example.com', current_password: PASSWORD });
    const token = (await lastLinkTo('contested@example.com')).searchParams.get('token')!;
    await t.createUser({ email: 'contested@example.com' }); // someone got it meanwhile
    const res = await confirm(wanter.access, token);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('email_taken');
    expect((await me(wanter.access)).json().email).toBe('late-wanter@example.com');
  });

  test('the relay refuses the mail (550 at RCPT): 502 email_send_failed, nothing pending, other changes not applied', async () => {
    await t.createUser({ email: 'refused@example.com' });
    const { access } = await t.login('refused@example.com');
    sink.rejectRecipients.add('nobody-here@example.com');
    const res = await patch(access, {
      email: 'nobody-here@example.com',
      current_password: PASSWORD,
      first_name: 'Nope',
    });
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('email_send_failed');
    expect(mailsTo('nobody-here@example.com')).toEqual([]);
    expect((await patch(access, {})).json()).toMatchObject({ pending_email: null, first_name: '' });
  });

  test('the relay is down (nothing listens on its port): 502 email_send_failed, nothing pending', async () => {
    const down = await createTestApp(
      { QC_PUBLIC_URL: 'https://console.example.org/', QC_SMTP_URL: `smtp://127.0.0.1:${await freePort()}` },
      { mailer: 'smtp' },
    );
    try {
      await down.createUser({ email: 'norelay@example.com' });
      const { access } = await down.login('norelay@example.com');
      const send = (payload: object) =>
        down.app.inject({ method: 'PATCH', url: '/api/users/me/', headers: bearer(access), payload });
      const res = await send({ email: 'unreachable@example.com', current_password: PASSWORD, first_name: 'Nope' });
      expect(res.statusCode).toBe(502);
      expect(res.json().code).toBe('email_send_failed');
      expect((await send({})).json()).toMatchObject({ pending_email: null, first_name: '' });
    } finally {
      await down.close();
    }
  });

  test('the same e-mail as now is no change: nothing pending, nothing sent', async () => {
    await t.createUser({ email: 'same@example.com' });
    const { access } = await t.login('same@example.com');
    const sent = sink.messages.length;
    const res = await patch(access, { email: 'SAME@example.com' });
    expect(res.json().pending_email).toBeNull();
    expect(sink.messages.length).toBe(sent);
  });
});

describe('POST /api/users/me/password/', () => {
  test('wrong current password → 400 errors.current_password (not 401); the session stays', async () => {
    await t.createUser({ email: 'pw-wrong@example.com' });
    const { access } = await t.login('pw-wrong@example.com');
    const res = await changePassword(access, { current_password: 'nope nope', new_password: 'a brand new password' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_password', errors: { current_password: expect.any(String) } });
    expect((await me(access)).statusCode).toBe(200);
    expect((await t.login('pw-wrong@example.com')).access).toBeDefined(); // unchanged
  });

  test('validation: new password < 8 characters, missing fields', async () => {
    await t.createUser({ email: 'pw-short@example.com' });
    const { access } = await t.login('pw-short@example.com');
    const short = await changePassword(access, { current_password: PASSWORD, new_password: 'short' });
    expect(short.statusCode).toBe(400);
    expect(short.json()).toMatchObject({
      code: 'validation_error',
      errors: { new_password: 'Password must be at least 8 characters long' },
    });
    const missing = await changePassword(access, {});
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().errors).sort()).toEqual(['current_password', 'new_password']);
  });

  test('success: 204; the new password works, the old one not; other sessions end, the caller’s stays', async () => {
    await t.createUser({ email: 'pw-ok@example.com' });
    const mine = await t.login('pw-ok@example.com');
    const other = await t.login('pw-ok@example.com');
    const res = await changePassword(mine.access, { current_password: PASSWORD, new_password: 'a brand new password' });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await me(mine.access)).statusCode).toBe(200);
    expect((await me(other.access)).statusCode).toBe(401);
    const refreshed = await t.app.inject({
      method: 'POST',
      url: '/api/auth/refresh/',
      payload: { refresh: mine.refresh },
    });
    expect(refreshed.statusCode).toBe(200);
    await expect(t.login('pw-ok@example.com')).rejects.toThrow(/401/);
    expect((await t.login('pw-ok@example.com', 'a brand new password')).access).toBeDefined();
  });
});

describe('password checks are rate limited per user', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({ QC_REAUTH_RATE_MAX: '3' });
  });
  afterAll(() => small.close());

  test('after QC_REAUTH_RATE_MAX attempts (any route) → 429', async () => {
    await small.createUser({ email: 'guesser@example.com' });
    const { access } = await small.login('guesser@example.com');
    const post = (url: string, payload: object) =>
      small.app.inject({ method: 'POST', url, headers: bearer(access), payload });
    expect(
      (await post('/api/users/me/password/', { current_password: 'x', new_password: 'yyyyyyyy' })).statusCode,
    ).toBe(400);
    expect((await post('/api/users/me/mfa/disable/', { password: 'x' })).statusCode).toBe(400);
    expect((await post('/api/users/me/mfa/backup-codes/', { password: 'x' })).statusCode).toBe(400);
    const limited = await post('/api/users/me/password/', { current_password: PASSWORD, new_password: 'yyyyyyyy' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBeDefined();
    // Asking for e-mail changes draws on the same budget (each one sends a mail).
    const mail = await small.app.inject({
      method: 'PATCH',
      url: '/api/users/me/',
      headers: bearer(access),
      payload: { email: 'victim@example.net' },
    });
    expect(mail.statusCode).toBe(429);
    expect(small.mails).toEqual([]);
    // Other profile changes are not limited.
    const names = await small.app.inject({
      method: 'PATCH',
      url: '/api/users/me/',
      headers: bearer(access),
      payload: { first_name: 'Still', email: 'guesser@example.com' },
    });
    expect(names.statusCode).toBe(200);
  });

  test('wrong passwords sent with an e-mail change draw on that budget too', async () => {
    await small.createUser({ email: 'mail-guesser@example.com' });
    const { access } = await small.login('mail-guesser@example.com');
    const send = (current_password: string) =>
      small.app.inject({
        method: 'PATCH',
        url: '/api/users/me/',
        headers: bearer(access),
        payload: { email: 'elsewhere@example.net', current_password },
      });
    for (const guess of ['guess-1', 'guess-2', 'guess-3']) expect((await send(guess)).statusCode).toBe(400);
    const limited = await send(PASSWORD);
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
    expect(small.mails.filter((m) => m.to === 'elsewhere@example.net')).toEqual([]);
  });

  test('username changes have their own budget of the same size', async () => {
    await small.createUser({ email: 'renamer@example.com', username: 'renamer' });
    await small.createUser({ email: 'named@example.com', username: 'named' });
    const { access } = await small.login('renamer@example.com');
    const send = (payload: object) =>
      small.app.inject({ method: 'PATCH', url: '/api/users/me/', headers: bearer(access), payload });
    expect((await send({ username: 'named' })).statusCode).toBe(409);
    expect((await send({ username: 'renamed-1' })).statusCode).toBe(200);
    // Sending the username in effect is no change: not counted.
    expect((await send({ username: 'renamed-1', first_name: 'R' })).statusCode).toBe(200);
    expect((await send({ username: 'renamed-2' })).statusCode).toBe(200);
    const limited = await send({ username: 'named-or-not' });
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toBeDefined();
    expect((await send({})).json().username).toBe('renamed-2');
    // The password checks keep their own budget.
    const post = await small.app.inject({
      method: 'POST',
      url: '/api/users/me/mfa/disable/',
      headers: bearer(access),
      payload: { password: 'x' },
    });
    expect(post.statusCode).toBe(400);
  });
});
