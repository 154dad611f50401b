import { CurrentUser, LoginResponse } from '@qc/contracts';
import { bearer, countUsers, createTestApp, freePort, PASSWORD, totpAt, type TestApp } from '../../test/helpers';
import {
  OIDC_TEST_CLIENT,
  oidcAccount,
  SHARED_OIDC_REDIRECT_URI,
  signInAtProvider,
  TEST_OIDC_ISSUER,
} from '../../test/oidc-provider';
import { ensureDomain } from '../domains/domains.service';

/**
 * Single sign-on against a real OpenID Provider (oidc-provider, the shared one of scripts/oidc.sh):
 * the whole code flow over HTTP, provisioning and its refresh at each sign-in, the console's two-factor
 * beside the provider's, and every bad input refused with nothing changed.
 */
const PUBLIC = new URL(SHARED_OIDC_REDIRECT_URI).origin;
let t: TestApp;
const lines: string[] = [];

const oidcEnv = (extra: Record<string, string> = {}) => ({
  QC_PUBLIC_URL: PUBLIC,
  QC_OIDC_ISSUER: TEST_OIDC_ISSUER,
  QC_OIDC_CLIENT_ID: OIDC_TEST_CLIENT.id,
  QC_OIDC_CLIENT_SECRET: OIDC_TEST_CLIENT.secret,
  QC_OIDC_SCOPES: 'openid email profile groups aliases',
  QC_OIDC_ALIASES_CLAIM: 'mail_aliases',
  QC_OIDC_ADMIN_GROUP: 'qc-admins',
  QC_OIDC_DOMAIN_ADMIN_GROUP: 'qc-domain-admins',
  QC_OIDC_LABEL: 'Keycloak',
  ...extra,
});

beforeAll(async () => {
  t = await createTestApp(oidcEnv({ QC_LOG_LEVEL: 'info', QC_MFA_REQUIRED_ROLES: 'none' }), {
    logStream: { write: (line) => void lines.push(line) },
  });
  await ensureDomain(t.db, 'example.com');
});
afterAll(async () => {
  await t?.close();
});

const users = (app = t) => countUsers(app.db);
const byEmail = (email: string) => t.db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
const me = (app: TestApp, access: string) =>
  app.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });

interface Started {
  location: string;
  cookie: string;
}
async function start(app = t, url = '/api/auth/oidc/start/'): Promise<Started> {
  const res = await app.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(302);
  const location = res.headers.location as string;
  expect(location.startsWith(`${TEST_OIDC_ISSUER}/`)).toBe(true);
  return { location, cookie: String(res.headers['set-cookie']).split(';')[0]! };
}
/** The console's callback: where it sends the browser next (and the ticket or the error in it). */
async function callback(app: TestApp, url: string, cookie: string) {
  const u = new URL(url);
  expect(u.origin + u.pathname).toBe(SHARED_OIDC_REDIRECT_URI);
  const res = await app.app.inject({ method: 'GET', url: `${u.pathname}${u.search}`, headers: { cookie } });
  expect(res.statusCode).toBe(302);
  expect(res.headers['cache-control']).toBe('no-store');
  const location = res.headers.location as string;
  const ticket = /^(.*)\/login\/sso#ticket=([A-Za-z0-9_-]+)$/.exec(location);
  if (ticket) {
    expect(ticket[1]).toBe(PUBLIC);
    return { ticket: ticket[2]!, error: null };
  }
  expect(location).toMatch(new RegExp(`^${PUBLIC}/login\\?sso_error=[a-z_]+$`));
  return { ticket: null, error: new URL(location).searchParams.get('sso_error') };
}
const exchange = (app: TestApp, ticket: string, cookie: string) =>
  app.app.inject({ method: 'POST', url: '/api/auth/oidc/exchange/', payload: { ticket }, headers: { cookie } });

/** The whole flow as a browser does it: the console's answer at /login/sso, or the sso_error. */
async function signIn(login: string, app = t, opts: { cancel?: boolean } = {}) {
  const flow = await start(app);
  const back = await signInAtProvider(flow.location, login, oidcAccount(login).password, opts);
  const result = await callback(app, back, flow.cookie);
  if (!result.ticket) return { error: result.error, answer: null };
  const res = await exchange(app, result.ticket, flow.cookie);
  expect(res.statusCode).toBe(200);
  return { error: null, answer: LoginResponse.parse(res.json()) };
}
const tokensOf = (answer: LoginResponse | null) => {
  if (!answer || !('access' in answer)) throw new Error(`no tokens: ${JSON.stringify(answer)}`);
  return answer;
};

describe('the code flow', () => {
  test('GET /api/auth/oidc/ offers the button and, once discovered, the provider’s sign-out page', async () => {
    await start(); // discovery done
    const info = (await t.app.inject({ method: 'GET', url: '/api/auth/oidc/' })).json();
    expect(info).toMatchObject({ enabled: true, label: 'Keycloak' });
    const end = new URL(info.end_session_url);
    expect(end.origin).toBe(TEST_OIDC_ISSUER);
    expect(end.searchParams.get('client_id')).toBe(OIDC_TEST_CLIENT.id);
    expect(end.searchParams.get('post_logout_redirect_uri')).toBe(`${PUBLIC}/login`);
  });

  test('the start asks for the code with PKCE S256, state and nonce, and binds the flow to a cookie', async () => {
    const flow = await start();
    const url = new URL(flow.location);
    expect(url.searchParams.get('response_type')).toBe('code');
    expect(url.searchParams.get('client_id')).toBe(OIDC_TEST_CLIENT.id);
    expect(url.searchParams.get('redirect_uri')).toBe(SHARED_OIDC_REDIRECT_URI);
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(url.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(url.searchParams.get('nonce')).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(url.searchParams.get('scope')).toBe('openid email profile groups aliases');
    const res = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/start/' });
    expect(String(res.headers['set-cookie'])).toMatch(
      /^qc_sso=[A-Za-z0-9_-]{43}; Path=\/api\/auth\/oidc\/; Max-Age=600; HttpOnly; SameSite=Lax$/,
    );
  });

  test('first sign-in creates the account: source oidc, role from the groups, aliases in console domains', async () => {
    const before = await users();
    const { answer } = await signIn('alice');
    const user = CurrentUser.strict().parse((await me(t, tokensOf(answer).access)).json());
    expect(user).toMatchObject({
      email: 'alice@example.com',
      source: 'oidc',
      role: 'admin',
      first_name: 'Alice',
      last_name: 'Smith',
    });
    // alice@elsewhere.test is not in a console domain.
    expect(user.addresses).toEqual(['alice@example.com', 'alice.smith@example.com']);
    expect(await users()).toBe(before + 1);
    const row = (await byEmail('alice@example.com'))!;
    expect(row.password_hash).toBe('');
    expect(row.external_id).toBe(`${TEST_OIDC_ISSUER} ${oidcAccount('alice').sub}`);
    // No console password opens an OIDC account.
    const pw = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: 'alice@example.com', password: '' + 'alice-pass' },
    });
    expect(pw.statusCode).toBe(401);
  });

  test('each sign-in brings role and addresses back to what the provider says', async () => {
    await signIn('alice');
    const row = (await byEmail('alice@example.com'))!;
    await t.db.updateTable('users').set({ role: 'user' }).where('id', '=', row.id).execute();
    await t.db.deleteFrom('user_addresses').where('address', '=', 'alice.smith@example.com').execute();
    const before = await users();
    const { answer } = await signIn('alice');
    const user = CurrentUser.parse((await me(t, tokensOf(answer).access)).json());
    expect(user.role).toBe('admin');
    expect(user.addresses).toEqual(['alice@example.com', 'alice.smith@example.com']);
    expect(await users()).toBe(before); // the same account (by issuer and subject)
  });

  test('a single sign-on lasts QC_OIDC_SESSION_MAX_AGE at most, its refreshed tokens included', async () => {
    const short = await createTestApp(oidcEnv({ QC_OIDC_SESSION_MAX_AGE: '600' }));
    try {
      await ensureDomain(short.db, 'example.com');
      const tokens = tokensOf((await signIn('bob', short)).answer);
      const refreshed = await short.app.inject({
        method: 'POST',
        url: '/api/auth/refresh/',
        payload: { refresh: tokens.refresh },
      });
      expect(refreshed.statusCode).toBe(200);
      const local = await short.createUser({ email: 'local-session@example.com' });
      await short.login(local.email);
      const sessions = await short.db.selectFrom('sessions').select(['user_id', 'family_id', 'expires_at']).execute();
      const { idTime } = await import('../../lib/ids');
      const bob = sessions.filter((r) => r.user_id !== local.id);
      expect(bob).toHaveLength(2);
      for (const r of bob) expect(r.expires_at - idTime(r.family_id)).toBeLessThanOrEqual(600_000);
      const mine = sessions.find((r) => r.user_id === local.id)!;
      expect(mine.expires_at - idTime(mine.family_id)).toBeGreaterThan(600_000);
    } finally {
      await short.close();
    }
  });

  test('a person in no group is a user; the domain comes from the address', async () => {
    const { answer } = await signIn('bob');
    expect((await me(t, tokensOf(answer).access)).json()).toMatchObject({
      role: 'user',
      domain: { name: 'example.com' },
    });
  });
});

describe('refused, nothing created', () => {
  test.each([
    ['carol', 'email_verified: false', 'email_not_verified'],
    ['frank', 'no email_verified claim', 'email_not_verified'],
    ['dave', 'an address outside the console domains', 'no_domain'],
  ])('%s (%s): %s', async (login, _why, code) => {
    const before = await users();
    expect((await signIn(login)).error).toBe(code);
    expect(await users()).toBe(before);
    expect(lines.some((l) => l.includes('sso_failed') && l.includes(code))).toBe(true);
  });

  test('an address that is a local account’s: address_conflict, the local account untouched', async () => {
    const local = await t.createUser({ email: 'ivan@example.com' });
    const before = await users();
    expect((await signIn('ivan')).error).toBe('address_conflict');
    expect(await users()).toBe(before);
    expect((await byEmail('ivan@example.com'))!).toMatchObject({ id: local.id, source: 'local' });
    await t.login('ivan@example.com', PASSWORD); // its own password still opens it
  });

  test('the person cancels at the provider: cancelled', async () => {
    expect((await signIn('bob', t, { cancel: true })).error).toBe('cancelled');
  });

  test('an account disabled in the console: account_inactive at the callback, and left as it was', async () => {
    await signIn('bob');
    await t.db
      .updateTable('users')
      .set({ is_active: 0, role: 'domain_admin' })
      .where('email', '=', 'bob@example.com')
      .execute();
    expect((await signIn('bob')).error).toBe('account_inactive');
    expect(await byEmail('bob@example.com')).toMatchObject({ role: 'domain_admin' }); // not brought up to date
    await t.db
      .updateTable('users')
      .set({ is_active: 1, role: 'user' })
      .where('email', '=', 'bob@example.com')
      .execute();
  });

  test('an alias alone in a console domain makes no account: the primary must be the vouched-for e-mail', async () => {
    // alice's e-mail is in example.com, which this console does not have; one of her aliases is in elsewhere.test.
    const other = await createTestApp(oidcEnv());
    try {
      await ensureDomain(other.db, 'elsewhere.test');
      expect((await signIn('alice', other)).error).toBe('no_domain');
      expect(await users(other)).toBe(0);
    } finally {
      await other.close();
    }
  });
});

describe('the state, the code and the ticket', () => {
  test('a callback used twice: the second finds no sign-in (expired), the code is not redeemed again', async () => {
    const flow = await start();
    const back = await signInAtProvider(flow.location, 'bob', oidcAccount('bob').password);
    expect((await callback(t, back, flow.cookie)).ticket).not.toBeNull();
    expect((await callback(t, back, flow.cookie)).error).toBe('expired');
  });

  test('a wrong state: expired, and the real flow still works once', async () => {
    const flow = await start();
    const back = new URL(await signInAtProvider(flow.location, 'bob', oidcAccount('bob').password));
    const real = back.searchParams.get('state')!;
    back.searchParams.set('state', `${real}x`);
    expect((await callback(t, back.href, flow.cookie)).error).toBe('expired');
    back.searchParams.set('state', real);
    expect((await callback(t, back.href, flow.cookie)).ticket).not.toBeNull();
  });

  test('a code used twice (carried into another sign-in’s callback): the provider refuses it', async () => {
    const first = await start();
    const back = new URL(await signInAtProvider(first.location, 'bob', oidcAccount('bob').password));
    expect((await callback(t, back.href, first.cookie)).ticket).not.toBeNull();
    const second = await start();
    const state = new URL(second.location).searchParams.get('state')!;
    back.searchParams.set('state', state);
    expect((await callback(t, back.href, second.cookie)).error).toBe('invalid_response');
  });

  test('a callback in another browser than the one that started (login CSRF): expired, the flow spent', async () => {
    const flow = await start();
    const back = await signInAtProvider(flow.location, 'bob', oidcAccount('bob').password);
    const other = await start();
    expect((await callback(t, back, other.cookie)).error).toBe('expired');
    expect((await callback(t, back, flow.cookie)).error).toBe('expired');
  });

  test('a ticket works once, in its browser, within its minute', async () => {
    const trade = async () => {
      const flow = await start();
      const back = await signInAtProvider(flow.location, 'bob', oidcAccount('bob').password);
      return { ...(await callback(t, back, flow.cookie)), cookie: flow.cookie };
    };
    const once = await trade();
    expect((await exchange(t, once.ticket!, once.cookie)).statusCode).toBe(200);
    const again = await exchange(t, once.ticket!, once.cookie);
    expect([again.statusCode, again.json().code]).toEqual([401, 'sso_ticket_invalid']);

    const elsewhere = await trade();
    const other = await start();
    const wrongBrowser = await exchange(t, elsewhere.ticket!, other.cookie);
    expect([wrongBrowser.statusCode, wrongBrowser.json().code]).toEqual([401, 'sso_ticket_invalid']);
    expect((await exchange(t, elsewhere.ticket!, elsewhere.cookie)).statusCode).toBe(401); // spent by the attempt

    const late = await trade();
    await t.db
      .updateTable('sso_tickets')
      .set({ expires_at: Date.now() - 1 })
      .execute();
    expect((await exchange(t, late.ticket!, late.cookie)).json().code).toBe('sso_ticket_invalid');

    const made = await exchange(t, 'x'.repeat(43), once.cookie);
    expect([made.statusCode, made.json().code]).toEqual([401, 'sso_ticket_invalid']);
  });

  test('no parameter chooses where the browser goes (open redirect)', async () => {
    const flow = await start(
      t,
      '/api/auth/oidc/start/?redirect_uri=https://evil.example/&next=//evil.example&return_to=https://evil.example',
    );
    expect(new URL(flow.location).searchParams.get('redirect_uri')).toBe(SHARED_OIDC_REDIRECT_URI);
    const back = new URL(await signInAtProvider(flow.location, 'bob', oidcAccount('bob').password));
    back.searchParams.set('redirect_uri', 'https://evil.example/');
    back.searchParams.set('next', '//evil.example');
    const res = await t.app.inject({
      method: 'GET',
      url: `${back.pathname}${back.search}`,
      headers: { cookie: flow.cookie },
    });
    expect((res.headers.location as string).startsWith(`${PUBLIC}/login`)).toBe(true);
    const bad = await t.app.inject({
      method: 'GET',
      url: '/api/auth/oidc/callback/?state=nope&error=access_denied&redirect_uri=https://evil.example/',
    });
    expect(bad.headers.location).toBe(`${PUBLIC}/login?sso_error=expired`);
  });
});

describe('two-factor', () => {
  test('the console’s own code still applies to an account that has it', async () => {
    await signIn('bob');
    await t.db
      .updateTable('users')
      .set({ mfa_enabled: 1, mfa_secret: 'JBSWY3DPEHPK3PXP' })
      .where('email', '=', 'bob@example.com')
      .execute();
    const { answer } = await signIn('bob');
    expect(answer).toMatchObject({ requires_2fa: true });
    await t.db
      .updateTable('users')
      .set({ mfa_enabled: 0, mfa_secret: null })
      .where('email', '=', 'bob@example.com')
      .execute();
  });

  test('no console password: a code of the authenticator confirms two-factor changes, once', async () => {
    const access = tokensOf((await signIn('erin')).answer).access;
    const post = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url: `/api/users/me/mfa/${url}/`, headers: bearer(access), payload });
    const { secret } = (await post('setup', {})).json();
    const step = Math.floor(Date.now() / 30_000);
    expect((await post('enable', { totp_code: await totpAt(secret, step - 1) })).statusCode).toBe(200);

    const none = await post('disable', { password: 'erin-pass' });
    expect([none.statusCode, Object.keys(none.json().errors)]).toEqual([400, ['totp_code']]);
    const codes = await post('backup-codes', { totp_code: await totpAt(secret, step) });
    expect(codes.statusCode).toBe(200);
    const replayed = await post('disable', { totp_code: await totpAt(secret, step) });
    expect([replayed.statusCode, replayed.json().code]).toEqual([400, 'invalid_code']);
    expect((await byEmail('erin@example.com'))!.mfa_enabled).toBe(1);
    const off = await post('disable', { totp_code: await totpAt(secret, step + 1) });
    expect(off.statusCode).toBe(204);
    expect((await byEmail('erin@example.com'))!.mfa_enabled).toBe(0);
  });

  test('QC_OIDC_TRUST_MFA: the provider’s second factor (amr) meets the policy; a password alone does not', async () => {
    const strict = await createTestApp(oidcEnv({ QC_MFA_REQUIRED_ROLES: 'admin,domain_admin' }));
    const trusting = await createTestApp(
      oidcEnv({ QC_MFA_REQUIRED_ROLES: 'admin,domain_admin', QC_OIDC_TRUST_MFA: 'true' }),
    );
    try {
      for (const app of [strict, trusting]) await ensureDomain(app.db, 'example.com');
      // erin (domain_admin) did pwd + otp at the provider; alice (admin) a password only.
      expect((await signIn('erin', strict)).answer).toMatchObject({ requires_2fa_setup: true });
      expect((await signIn('erin', trusting)).answer).toHaveProperty('access');
      expect((await signIn('alice', trusting)).answer).toMatchObject({ requires_2fa_setup: true });
    } finally {
      await strict.close();
      await trusting.close();
    }
  });
});

describe('the provider down', () => {
  test('the start comes back to /login (provider_unreachable); local accounts still sign in', async () => {
    const down = await createTestApp(
      oidcEnv({ QC_OIDC_ISSUER: `http://127.0.0.1:${await freePort()}`, QC_OIDC_TIMEOUT_MS: '1000' }),
    );
    try {
      const res = await down.app.inject({ method: 'GET', url: '/api/auth/oidc/start/' });
      expect([res.statusCode, res.headers.location]).toEqual([302, `${PUBLIC}/login?sso_error=provider_unreachable`]);
      expect((await down.app.inject({ method: 'GET', url: '/api/auth/oidc/' })).json()).toEqual({
        enabled: true,
        label: 'Keycloak',
        end_session_url: null,
      });
      await down.createUser({ email: 'local@example.com' });
      await down.login('local@example.com');
    } finally {
      await down.close();
    }
  });
});

test('without QC_OIDC_ISSUER: not offered, and the routes say so', async () => {
  const plain = await createTestApp();
  try {
    expect((await plain.app.inject({ method: 'GET', url: '/api/auth/oidc/' })).json()).toEqual({
      enabled: false,
      label: null,
      end_session_url: null,
    });
    const res = await plain.app.inject({ method: 'GET', url: '/api/auth/oidc/start/' });
    expect(res.headers.location).toMatch(/\/login\?sso_error=not_configured$/);
    const ex = await exchange(plain, 'x'.repeat(43), '');
    expect([ex.statusCode, ex.json().code]).toEqual([404, 'oidc_not_configured']);
  } finally {
    await plain.close();
  }
});
