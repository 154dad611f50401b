import { MfaEnableResponse, MfaSetupResponse, TwoFactorSetupChallenge } from '@qc/contracts';
import { ConfigError, loadConfig } from '../../config';
import { startServer } from '../../server';
import {
  bearer,
  createMfaUser,
  createTestApp,
  createTestEnv,
  currentStep,
  partialLogin,
  PASSWORD,
  processEnvWithoutQc,
  totpAt,
  type TestApp,
} from '../../test/helpers';
import { DEFAULT_ADMIN_EMAIL } from '../users/users.service';

// Two-factor that must be set up before any access (issue 16 §3): an administrator's `mfa_required`,
// or a role in QC_MFA_REQUIRED_ROLES. The sign-in then answers a set-up challenge whose token opens
// the two set-up routes and nothing else.
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ QC_MFA_REQUIRED_ROLES: 'domain_admin' });
});
afterAll(() => t.close());

const inject = (method: 'GET' | 'POST' | 'PATCH', url: string, token?: string, payload?: object) =>
  t.app.inject({ method, url, ...(token ? { headers: bearer(token) } : {}), ...(payload ? { payload } : {}) });
const userRow = (id: string) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
const requireMfa = (id: string) => t.db.updateTable('users').set({ mfa_required: 1 }).where('id', '=', id).execute();

async function setupChallenge(email: string): Promise<string> {
  const res = await inject('POST', '/api/auth/login/', undefined, { email, password: PASSWORD });
  expect(res.statusCode).toBe(200);
  // Exactly the challenge: no access or refresh token beside it.
  return TwoFactorSetupChallenge.strict().parse(res.json()).partial_token;
}

/** Set-up then enable with the set-up token: the backup codes and the new session. */
async function completeSetup(token: string) {
  const setup = await inject('POST', '/api/users/me/mfa/setup/', token);
  expect(setup.statusCode).toBe(200);
  const { secret } = MfaSetupResponse.strict().parse(setup.json());
  const enable = await inject('POST', '/api/users/me/mfa/enable/', token, {
    totp_code: await totpAt(secret, currentStep()),
  });
  expect(enable.statusCode).toBe(200);
  return { secret, ...MfaEnableResponse.strict().parse(enable.json()) };
}

describe('QC_MFA_REQUIRED_ROLES', () => {
  /** The test app's settings without QC_MFA_REQUIRED_ROLES (the test harness turns it off). */
  const unset = () => {
    const env: Record<string, string> = { ...processEnvWithoutQc(), ...t.env };
    delete env.QC_MFA_REQUIRED_ROLES;
    return env;
  };
  const rolesOf = (value?: string) =>
    loadConfig(value === undefined ? unset() : { ...unset(), QC_MFA_REQUIRED_ROLES: value }, t.tmpDir).mfaRequiredRoles;
  const problemsOf = (value: string) => {
    try {
      rolesOf(value);
    } catch (e) {
      expect(e).toBeInstanceOf(ConfigError);
      return (e as ConfigError).problems.join('\n');
    }
    throw new Error(`${value} was accepted`);
  };

  test('secure by default: unset or empty is admin and domain_admin; only `none` is no role', () => {
    expect(rolesOf()).toEqual(['admin', 'domain_admin']);
    expect(rolesOf('')).toEqual(['admin', 'domain_admin']);
    expect(rolesOf('none')).toEqual([]);
    expect(rolesOf(' none ')).toEqual([]);
    expect(rolesOf(' admin, domain_admin ,admin')).toEqual(['admin', 'domain_admin']);
    expect(rolesOf('user')).toEqual(['user']);
  });

  test('a role that does not exist stops the start-up, naming the variable', () => {
    for (const value of ['admins', 'admin,superuser', 'Admin', 'none,admin', 'None']) {
      expect(problemsOf(value)).toMatch(/^QC_MFA_REQUIRED_ROLES: .*admin, domain_admin, user, or none/);
    }
  });

  test('a value naming no role (commas, spaces) is refused, not taken for "none"', () => {
    for (const value of [',', ' ', ' , ']) {
      expect(problemsOf(value)).toBe('QC_MFA_REQUIRED_ROLES: must name at least one role, or none');
    }
  });

  test('by default the generated first admin is taken through the two-factor set-up at first sign-in', async () => {
    const env = await createTestEnv({ QC_PORT: '0' });
    delete env.env.QC_MFA_REQUIRED_ROLES;
    try {
      let out = '';
      const app = await startServer(loadConfig(env.env, env.tmpDir), (text) => (out += text));
      try {
        const password = /password:\s+(\S+)/.exec(out)![1]!;
        const login = await app.inject({
          method: 'POST',
          url: '/api/auth/login/',
          payload: { email: DEFAULT_ADMIN_EMAIL, password },
        });
        const token = TwoFactorSetupChallenge.strict().parse(login.json()).partial_token;
        expect((await app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(token) })).statusCode).toBe(
          403,
        );
        const setup = await app.inject({ method: 'POST', url: '/api/users/me/mfa/setup/', headers: bearer(token) });
        const { secret } = MfaSetupResponse.strict().parse(setup.json());
        const enable = await app.inject({
          method: 'POST',
          url: '/api/users/me/mfa/enable/',
          headers: bearer(token),
          payload: { totp_code: await totpAt(secret, currentStep()) },
        });
        const { access } = MfaEnableResponse.strict().parse(enable.json());
        const me = await app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access!) });
        expect(me.json()).toMatchObject({ email: DEFAULT_ADMIN_EMAIL, role: 'admin', mfa_enabled: true });
      } finally {
        await app.close();
      }
    } finally {
      await env.cleanup();
    }
  });

  test('a role in the list without two-factor gets the set-up step; other roles sign in as before', async () => {
    await t.createUser({ email: 'da@policy.example', role: 'domain_admin', domain: 'policy.example' });
    await t.createUser({ email: 'plain@policy.example', domain: 'policy.example' });
    await setupChallenge('da@policy.example');
    expect(Object.keys(await t.login('plain@policy.example')).sort()).toEqual(['access', 'refresh']);
  });

  test('two roles in the list: both are held at the set-up step', async () => {
    const other = await createTestApp({ QC_MFA_REQUIRED_ROLES: 'admin,domain_admin' });
    try {
      await other.createUser({ email: 'root@example.com', role: 'admin' });
      await other.createUser({ email: 'user@example.com' });
      const res = await other.app.inject({
        method: 'POST',
        url: '/api/auth/login/',
        payload: { email: 'root@example.com', password: PASSWORD },
      });
      expect(res.json()).toEqual({ requires_2fa_setup: true, partial_token: expect.any(String) });
      expect(Object.keys(await other.login('user@example.com')).sort()).toEqual(['access', 'refresh']);
    } finally {
      await other.close();
    }
  });
});

describe('mfa_required: the set-up step before any access', () => {
  test('the sign-in answers the set-up challenge, issues no token and records no sign-in', async () => {
    const u = await t.createUser({ email: 'required@example.com' });
    await requireMfa(u.id);
    await setupChallenge(u.email);
    expect((await userRow(u.id)).last_login).toBeNull();
    expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
  });

  test('the set-up token reaches nothing but the set-up: 403 mfa_setup_required (or 401) everywhere else', async () => {
    const u = await t.createUser({ email: 'nothing-else@example.com' });
    await requireMfa(u.id);
    const token = await setupChallenge(u.email);
    const bearerRoutes: [method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object][] = [
      ['GET', '/api/users/me/'],
      ['PATCH', '/api/users/me/', { first_name: 'X' }],
      ['POST', '/api/users/me/password/', { current_password: PASSWORD, new_password: 'a new long password' }],
      ['POST', '/api/users/me/mfa/disable/', { password: PASSWORD }],
      ['POST', '/api/users/me/mfa/backup-codes/', { password: PASSWORD }],
      ['GET', '/api/quarantine/'],
      ['GET', '/api/dashboard/'],
      ['GET', '/api/history/'],
      ['GET', '/api/statistics/?days=7'],
      ['GET', '/api/users/me/preferences/'],
    ];
    for (const [method, url, payload] of bearerRoutes) {
      const res = await inject(method, url, token, payload);
      expect([url, res.statusCode, res.json().code]).toEqual([url, 403, 'mfa_setup_required']);
    }
    // As a token in a body it is no refresh token and no second-factor challenge either.
    const asRefresh = await inject('POST', '/api/auth/refresh/', undefined, { refresh: token });
    expect([asRefresh.statusCode, asRefresh.json().code]).toEqual([401, 'token_invalid']);
    const asPartial = await inject('POST', '/api/auth/verify-totp/', undefined, {
      partial_token: token,
      totp_code: '123456',
    });
    expect([asPartial.statusCode, asPartial.json().code]).toEqual([403, 'mfa_setup_required']);
    // Nothing changed meanwhile.
    const row = await userRow(u.id);
    expect([row.first_name, row.mfa_enabled, row.last_login]).toEqual(['', 0, null]);
  });

  test('set-up and enable with the set-up token: backup codes and a session; then the normal challenge', async () => {
    const u = await t.createUser({ email: 'enrol@example.com' });
    await requireMfa(u.id);
    const before = Date.now();
    const token = await setupChallenge(u.email);
    const done = await completeSetup(token);
    expect(done.backup_codes).toHaveLength(10);
    const me = await inject('GET', '/api/users/me/', done.access);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: u.id, mfa_enabled: true });
    const row = await userRow(u.id);
    expect(row.last_login).toBeGreaterThanOrEqual(before);
    // mfa_required stays: it means "must have two-factor", not "must set it up once".
    expect(row.mfa_required).toBe(1);
    expect((await inject('POST', '/api/auth/refresh/', undefined, { refresh: done.refresh! })).statusCode).toBe(200);

    // Spent: the challenge ended with the session it gave (and two-factor is on).
    for (const url of ['/api/users/me/mfa/setup/', '/api/users/me/mfa/enable/']) {
      const again = await inject('POST', url, token, url.endsWith('enable/') ? { totp_code: '123456' } : undefined);
      expect([url, again.statusCode, again.json().code]).toEqual([url, 401, 'token_invalid']);
    }
    // The next sign-in asks for the code, as for anyone with two-factor.
    expect(await partialLogin(t, u.email)).toEqual(expect.any(String));
  });

  test('the set-up token is bound to its user: the secret is made for that account', async () => {
    const a = await t.createUser({ email: 'bound-a@example.com' });
    await requireMfa(a.id);
    const token = await setupChallenge(a.email);
    const setup = await inject('POST', '/api/users/me/mfa/setup/', token);
    expect(decodeURIComponent(new URL(setup.json().otpauth_url).pathname)).toBe(
      '/Quarantine Console:bound-a@example.com',
    );
    expect((await userRow(a.id)).mfa_pending_secret).not.toBeNull();
  });

  test('a second-factor (partial) token does not open the set-up routes', async () => {
    const m = await createMfaUser(t, 'partial-at-setup@example.com');
    const partial = await partialLogin(t, m.email);
    for (const url of ['/api/users/me/mfa/setup/', '/api/users/me/mfa/enable/']) {
      const res = await inject('POST', url, partial, { totp_code: '123456' });
      expect([res.statusCode, res.json().code]).toEqual([401, 'token_invalid']);
    }
  });

  test('an account deactivated after its password was given: the set-up token is refused', async () => {
    const u = await t.createUser({ email: 'deactivated@example.com' });
    await requireMfa(u.id);
    const token = await setupChallenge(u.email);
    await t.db.updateTable('users').set({ is_active: 0 }).where('id', '=', u.id).execute();
    expect((await inject('POST', '/api/users/me/mfa/setup/', token)).statusCode).toBe(401);
  });

  test('a wrong code enables nothing and gives no session', async () => {
    const u = await t.createUser({ email: 'wrong-enrol@example.com' });
    await requireMfa(u.id);
    const token = await setupChallenge(u.email);
    const { secret } = (await inject('POST', '/api/users/me/mfa/setup/', token)).json();
    const window = await Promise.all([-1, 0, 1].map((d) => totpAt(secret, currentStep() + d)));
    const wrong = ['000000', '111111', '222222'].find((c) => !window.includes(c))!;
    const res = await inject('POST', '/api/users/me/mfa/enable/', token, { totp_code: wrong });
    expect(res.statusCode).toBe(400);
    expect(res.json()).not.toHaveProperty('access');
    expect((await userRow(u.id)).mfa_enabled).toBe(0);
    expect(await t.db.selectFrom('sessions').select('id').where('user_id', '=', u.id).execute()).toEqual([]);
  });
});

describe('two-factor that is mandatory cannot be turned off', () => {
  test('mfa_required: 409 mfa_required, two-factor stays on', async () => {
    const m = await createMfaUser(t, 'keep-on@example.com');
    await requireMfa(m.id);
    const res = await inject('POST', '/api/users/me/mfa/disable/', m.access, { password: PASSWORD });
    expect([res.statusCode, res.json().code]).toEqual([409, 'mfa_required']);
    expect((await userRow(m.id)).mfa_enabled).toBe(1);
  });

  test('a role in QC_MFA_REQUIRED_ROLES: 409 mfa_required; a wrong password is still 400 first', async () => {
    const da = await t.createUser({ email: 'da-keep@policy.example', role: 'domain_admin', domain: 'policy.example' });
    const { secret, access } = await completeSetup(await setupChallenge(da.email));
    expect(secret).toBeDefined();
    const wrong = await inject('POST', '/api/users/me/mfa/disable/', access!, { password: 'not the one' });
    expect([wrong.statusCode, wrong.json().code]).toEqual([400, 'invalid_password']);
    const res = await inject('POST', '/api/users/me/mfa/disable/', access!, { password: PASSWORD });
    expect([res.statusCode, res.json().code]).toEqual([409, 'mfa_required']);
  });

  test('not mandatory: turned off as before', async () => {
    const m = await createMfaUser(t, 'may-disable@example.com');
    expect((await inject('POST', '/api/users/me/mfa/disable/', m.access, { password: PASSWORD })).statusCode).toBe(204);
  });
});

describe('an unconfirmed set-up expires (QC_MFA_SETUP_TTL)', () => {
  const age = (id: string, seconds: number) =>
    t.db
      .updateTable('users')
      .set({ mfa_pending_at: Date.now() - seconds * 1000 })
      .where('id', '=', id)
      .execute();

  test('a code after the set-up’s lifetime: 400 mfa_setup_expired, the secret forgotten; a new set-up works', async () => {
    const u = await t.createUser({ email: 'expired-setup@example.com' });
    const { access } = await t.login(u.email);
    const { secret } = (await inject('POST', '/api/users/me/mfa/setup/', access)).json();
    expect((await userRow(u.id)).mfa_pending_at).toEqual(expect.any(Number));
    await age(u.id, t.config.mfaSetupTtl + 1);
    const late = await inject('POST', '/api/users/me/mfa/enable/', access, {
      totp_code: await totpAt(secret, currentStep()),
    });
    expect([late.statusCode, late.json().code]).toEqual([400, 'mfa_setup_expired']);
    const row = await userRow(u.id);
    expect([row.mfa_enabled, row.mfa_pending_secret, row.mfa_pending_at]).toEqual([0, null, null]);
    // Then: nothing pending any more.
    const again = await inject('POST', '/api/users/me/mfa/enable/', access, {
      totp_code: await totpAt(secret, currentStep()),
    });
    expect(again.json().code).toBe('mfa_not_pending');
    const fresh = (await inject('POST', '/api/users/me/mfa/setup/', access)).json();
    const ok = await inject('POST', '/api/users/me/mfa/enable/', access, {
      totp_code: await totpAt(fresh.secret, currentStep()),
    });
    expect(ok.statusCode).toBe(200);
  });

  test('within its lifetime it is accepted (15 minutes by default)', async () => {
    expect(t.config.mfaSetupTtl).toBe(900);
    const u = await t.createUser({ email: 'in-time@example.com' });
    const { access } = await t.login(u.email);
    const { secret } = (await inject('POST', '/api/users/me/mfa/setup/', access)).json();
    await age(u.id, t.config.mfaSetupTtl - 30);
    const res = await inject('POST', '/api/users/me/mfa/enable/', access, {
      totp_code: await totpAt(secret, currentStep()),
    });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json())).toEqual(['backup_codes']); // a signed-in caller keeps their session
  });
});

describe('last_login', () => {
  test('recorded by each sign-in that issues tokens: password, second factor', async () => {
    const u = await t.createUser({ email: 'last-login@example.com' });
    expect((await userRow(u.id)).last_login).toBeNull();
    const t0 = Date.now();
    await t.login(u.email);
    const first = (await userRow(u.id)).last_login!;
    expect(first).toBeGreaterThanOrEqual(t0);

    const m = await createMfaUser(t, 'last-login-2fa@example.com');
    const afterEnable = (await userRow(m.id)).last_login!;
    await new Promise((r) => setTimeout(r, 5));
    const partial = await partialLogin(t, m.email);
    expect((await userRow(m.id)).last_login).toBe(afterEnable); // the password alone issues no token
    const res = await inject('POST', '/api/auth/verify-totp/', undefined, {
      partial_token: partial,
      backup_code: m.backupCodes[0],
    });
    expect(res.statusCode).toBe(200);
    expect((await userRow(m.id)).last_login).toBeGreaterThan(afterEnable);
  });

  test('a refresh is no sign-in', async () => {
    const u = await t.createUser({ email: 'refresh-no-login@example.com' });
    const { refresh } = await t.login(u.email);
    const at = (await userRow(u.id)).last_login;
    await new Promise((r) => setTimeout(r, 5));
    expect((await inject('POST', '/api/auth/refresh/', undefined, { refresh })).statusCode).toBe(200);
    expect((await userRow(u.id)).last_login).toBe(at);
  });
});

describe('sign-in challenges end with the credentials (review)', () => {
  test('a set-up token stops working once an admin changes the password or resets two-factor', async () => {
    const admin = await t.createUser({ email: 'root@challenge.example', role: 'admin' });
    const adminToken = (await t.login(admin.email)).access;
    const victim = await t.createUser({ email: 'vic@challenge.example' });
    await requireMfa(victim.id);
    const token = await setupChallenge(victim.email);
    const patch = await inject('PATCH', `/api/users/${victim.id}/`, adminToken, { password: 'brand new password 1' });
    expect(patch.statusCode).toBe(200);
    for (const url of ['/api/users/me/mfa/setup/', '/api/users/me/mfa/enable/']) {
      const res = await inject('POST', url, token, url.endsWith('enable/') ? { totp_code: '123456' } : undefined);
      expect([url, res.statusCode]).toEqual([url, 401]);
    }
    expect((await userRow(victim.id)).mfa_enabled).toBe(0);

    // A new challenge (new password) works until an MFA reset, then it too is refused.
    const fresh = await inject('POST', '/api/auth/login/', undefined, {
      email: victim.email,
      password: 'brand new password 1',
    });
    const freshToken = TwoFactorSetupChallenge.parse(fresh.json()).partial_token;
    expect((await inject('POST', '/api/users/me/mfa/setup/', freshToken)).statusCode).toBe(200);
    const reset = await inject('POST', `/api/users/${victim.id}/mfa/reset/`, adminToken);
    expect(reset.statusCode).toBe(204);
    expect((await inject('POST', '/api/users/me/mfa/setup/', freshToken)).statusCode).toBe(401);
  });

  test('a second-factor challenge started before an admin changes the password is refused', async () => {
    const admin = await t.createUser({ email: 'root2@challenge.example', role: 'admin' });
    const adminToken = (await t.login(admin.email)).access;
    const mfa = await createMfaUser(t, 'mfa3@challenge.example');
    const partial = await partialLogin(t, mfa.email);
    const patch = await inject('PATCH', `/api/users/${mfa.id}/`, adminToken, { password: 'brand new password 2' });
    expect(patch.statusCode).toBe(200);
    const res = await inject('POST', '/api/auth/verify-totp/', undefined, {
      partial_token: partial,
      backup_code: mfa.backupCodes[0],
    });
    expect(res.statusCode).toBe(401);
    // A challenge of the new password still signs in (the backup code was not spent).
    const again = await partialLogin(t, mfa.email, 'brand new password 2');
    const ok = await inject('POST', '/api/auth/verify-totp/', undefined, {
      partial_token: again,
      backup_code: mfa.backupCodes[0],
    });
    expect(ok.statusCode).toBe(200);
  });
});
