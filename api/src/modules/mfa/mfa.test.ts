import { BACKUP_CODE_ALPHABET, BackupCodesResponse, MfaSetupResponse } from '@qc/contracts';
import {
  bearer,
  createMfaUser,
  createTestApp,
  currentStep,
  partialLogin,
  PASSWORD,
  totpAt,
  type TestApp,
} from '../../test/helpers';
import { resetMfa } from '../users/users.service';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (url: string, access: string, payload?: object) =>
  t.app.inject({ method: 'POST', url, headers: bearer(access), ...(payload && { payload }) });
const me = (access: string) => t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });
const refresh = (token: string) =>
  t.app.inject({ method: 'POST', url: '/api/auth/refresh/', payload: { refresh: token } });
const verify = (payload: object) => t.app.inject({ method: 'POST', url: '/api/auth/verify-totp/', payload });
const userRow = (id: string) => t.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

async function secondSession(email: string, code: string) {
  const res = await verify({ partial_token: await partialLogin(t, email), backup_code: code });
  expect(res.statusCode).toBe(200);
  return res.json() as { access: string; refresh: string };
}

describe('setup → enable', () => {
  test('setup: a 160-bit base32 secret and its otpauth URL; MFA stays off, the secret is stored encrypted', async () => {
    const user = await t.createUser({ email: 'setup@example.com' });
    const { access } = await t.login('setup@example.com');
    const res = await post('/api/users/me/mfa/setup/', access);
    expect(res.statusCode).toBe(200);
    const body = MfaSetupResponse.strict().parse(res.json());
    expect(body.secret).toMatch(/^[A-Z2-7]{32,}$/); // ≥ 160 bits
    const url = new URL(body.otpauth_url);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe('/Quarantine Console:setup@example.com');
    expect(url.searchParams.get('issuer')).toBe('Quarantine Console');
    expect(url.searchParams.get('secret')).toBe(body.secret);

    const row = await userRow(user.id);
    expect(row.mfa_enabled).toBe(0);
    expect(row.mfa_secret).toBeNull();
    expect(row.mfa_pending_secret).toMatch(/^v1\./);
    expect(row.mfa_pending_secret).not.toContain(body.secret);
    expect((await me(access)).json().mfa_enabled).toBe(false);
    // Not enabled yet: signing in still needs no code.
    expect(Object.keys(await t.login('setup@example.com')).sort()).toEqual(['access', 'refresh']);

    // A second setup replaces the pending secret.
    const again = (await post('/api/users/me/mfa/setup/', access)).json();
    expect(again.secret).not.toBe(body.secret);
  });

  test('enable with a code computed from the secret: backup codes once; then sign-in requires the second factor', async () => {
    const user = await t.createUser({ email: 'enable@example.com' });
    const { access } = await t.login('enable@example.com');
    const { secret } = (await post('/api/users/me/mfa/setup/', access)).json();
    const res = await post('/api/users/me/mfa/enable/', access, { totp_code: await totpAt(secret, currentStep()) });
    expect(res.statusCode).toBe(200);
    const { backup_codes } = BackupCodesResponse.strict().parse(res.json());
    expect(backup_codes).toHaveLength(10);
    expect(new Set(backup_codes).size).toBe(10);
    for (const code of backup_codes) {
      expect(code).toHaveLength(10);
      for (const ch of code) expect(BACKUP_CODE_ALPHABET).toContain(ch);
    }
    expect(BACKUP_CODE_ALPHABET).not.toMatch(/[01OI]/);

    const row = await userRow(user.id);
    expect(row).toMatchObject({ mfa_enabled: 1, mfa_pending_secret: null });
    expect(row.mfa_secret).toMatch(/^v1\./);
    expect(row.mfa_secret).not.toContain(secret);
    const stored = JSON.stringify(
      await t.db.selectFrom('mfa_backup_codes').selectAll().where('user_id', '=', user.id).execute(),
    );
    for (const code of backup_codes) expect(stored).not.toContain(code);

    expect((await me(access)).json().mfa_enabled).toBe(true);
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: 'enable@example.com', password: PASSWORD },
    });
    expect(login.json()).toEqual({ requires_2fa: true, partial_token: expect.any(String) });
  });

  test('enable: a wrong code is 400 errors.totp_code (never 401); MFA stays off', async () => {
    const user = await t.createUser({ email: 'wrongcode@example.com' });
    const { access } = await t.login('wrongcode@example.com');
    const { secret } = (await post('/api/users/me/mfa/setup/', access)).json();
    const good = await totpAt(secret, currentStep());
    const wrong = good === '000000' ? '111111' : '000000';
    const res = await post('/api/users/me/mfa/enable/', access, { totp_code: wrong });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'invalid_code', errors: { totp_code: expect.any(String) } });
    // A code from another secret is no better.
    const other = await totpAt('JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP', currentStep());
    expect((await post('/api/users/me/mfa/enable/', access, { totp_code: other })).statusCode).toBe(400);
    expect((await userRow(user.id)).mfa_enabled).toBe(0);
    // Malformed codes are validation errors.
    const bad = await post('/api/users/me/mfa/enable/', access, { totp_code: '12345' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'validation_error', errors: { totp_code: expect.any(String) } });
  });

  test('enable without setup → 400 mfa_not_pending; setup or enable when on → 409', async () => {
    await t.createUser({ email: 'nosetup@example.com' });
    const { access } = await t.login('nosetup@example.com');
    const res = await post('/api/users/me/mfa/enable/', access, { totp_code: '123456' });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('mfa_not_pending');

    const on = await createMfaUser(t, 'already@example.com');
    const setup = await post('/api/users/me/mfa/setup/', on.access);
    expect(setup.statusCode).toBe(409);
    expect(setup.json().code).toBe('mfa_already_enabled');
    const enable = await post('/api/users/me/mfa/enable/', on.access, { totp_code: '123456' });
    expect(enable.statusCode).toBe(409);
  });

  test('every MFA route needs a signed-in user', async () => {
    for (const path of ['setup', 'enable', 'disable', 'backup-codes']) {
      const res = await t.app.inject({ method: 'POST', url: `/api/users/me/mfa/${path}/`, payload: {} });
      expect(res.statusCode).toBe(401);
    }
  });
});

describe('sessions and passwords', () => {
  test('enable revokes the other sessions, not the caller’s', async () => {
    await t.createUser({ email: 'revoke-enable@example.com' });
    const mine = await t.login('revoke-enable@example.com');
    const other = await t.login('revoke-enable@example.com');
    const { secret } = (await post('/api/users/me/mfa/setup/', mine.access)).json();
    expect((await me(other.access)).statusCode).toBe(200); // setup alone changes nothing
    const res = await post('/api/users/me/mfa/enable/', mine.access, {
      totp_code: await totpAt(secret, currentStep()),
    });
    expect(res.statusCode).toBe(200);
    expect((await me(other.access)).statusCode).toBe(401);
    expect((await refresh(other.refresh)).statusCode).toBe(401);
    expect((await me(mine.access)).statusCode).toBe(200);
    expect((await refresh(mine.refresh)).statusCode).toBe(200);
  });

  test('new backup codes: password required (wrong → 400 errors.password); old codes die; other sessions end', async () => {
    const u = await createMfaUser(t, 'regen@example.com');
    const other = await secondSession(u.email, u.backupCodes[0]!);

    const wrong = await post('/api/users/me/mfa/backup-codes/', u.access, { password: 'not my password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'invalid_password', errors: { password: expect.any(String) } });
    expect((await me(other.access)).statusCode).toBe(200); // nothing happened
    const missing = await post('/api/users/me/mfa/backup-codes/', u.access, {});
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors).toHaveProperty('password');

    const res = await post('/api/users/me/mfa/backup-codes/', u.access, { password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const fresh: string[] = res.json().backup_codes;
    expect(fresh).toHaveLength(10);
    expect(fresh.some((c) => u.backupCodes.includes(c))).toBe(false);
    expect((await me(other.access)).statusCode).toBe(401);
    expect((await me(u.access)).statusCode).toBe(200);

    const old = await verify({ partial_token: await partialLogin(t, u.email), backup_code: u.backupCodes[1] });
    expect(old.statusCode).toBe(401);
    expect(old.json().code).toBe('invalid_code');
    const renewed = await verify({ partial_token: await partialLogin(t, u.email), backup_code: fresh[0] });
    expect(renewed.statusCode).toBe(200);
  });

  test('disable: wrong password → 400 errors.password and MFA stays on; right one → 204, other sessions end', async () => {
    const u = await createMfaUser(t, 'disable@example.com');
    const other = await secondSession(u.email, u.backupCodes[0]!);

    const wrong = await post('/api/users/me/mfa/disable/', u.access, { password: 'not my password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json()).toMatchObject({ code: 'invalid_password', errors: { password: expect.any(String) } });
    expect((await userRow(u.id)).mfa_enabled).toBe(1);

    const res = await post('/api/users/me/mfa/disable/', u.access, { password: PASSWORD });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await me(other.access)).statusCode).toBe(401);
    expect((await me(u.access)).json().mfa_enabled).toBe(false);
    const row = await userRow(u.id);
    expect(row).toMatchObject({ mfa_enabled: 0, mfa_secret: null, mfa_pending_secret: null, mfa_last_step: null });
    const codes = await t.db.selectFrom('mfa_backup_codes').select('id').where('user_id', '=', u.id).execute();
    expect(codes).toEqual([]);
    // Signing in needs no code any more.
    expect(Object.keys(await t.login(u.email)).sort()).toEqual(['access', 'refresh']);

    const again = await post('/api/users/me/mfa/disable/', u.access, { password: PASSWORD });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('mfa_not_enabled');
    expect((await post('/api/users/me/mfa/backup-codes/', u.access, { password: PASSWORD })).statusCode).toBe(409);
  });

  test('a partial token issued before MFA was disabled is refused', async () => {
    const u = await createMfaUser(t, 'stale-partial@example.com');
    const partial = await partialLogin(t, u.email);
    await post('/api/users/me/mfa/disable/', u.access, { password: PASSWORD });
    const res = await verify({ partial_token: partial, backup_code: u.backupCodes[0] });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('token_invalid');
  });

  test('user:reset-mfa (service used by the CLI) clears secret, backup codes, last step and every session', async () => {
    const u = await createMfaUser(t, 'reset@example.com');
    await resetMfa({ db: t.db, passwords: t.passwords }, 'reset@example.com');
    const row = await userRow(u.id);
    expect(row).toMatchObject({ mfa_enabled: 0, mfa_secret: null, mfa_pending_secret: null, mfa_last_step: null });
    const codes = await t.db.selectFrom('mfa_backup_codes').select('id').where('user_id', '=', u.id).execute();
    expect(codes).toEqual([]);
    expect((await me(u.access)).statusCode).toBe(401);
    expect((await refresh(u.refresh)).statusCode).toBe(401);
  });
});
