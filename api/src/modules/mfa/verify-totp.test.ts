import { SignJWT } from 'jose';
import {
  bearer,
  createMfaUser,
  createTestApp,
  freshStep,
  partialLogin,
  totpAt,
  type TestApp,
} from '../../test/helpers';
import { JWT_AUDIENCE, JWT_ISSUER, jwtKey } from '../auth/tokens';

// Tests that compute codes for "now ± 1 step" first wait for a step with time to spare.
jest.setTimeout(20_000);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const verifyOn = (app: TestApp, payload: object, remoteAddress = '127.0.0.1') =>
  app.app.inject({ method: 'POST', url: '/api/auth/verify-totp/', payload, remoteAddress });
const verify = (payload: object) => verifyOn(t, payload);
const meOn = (app: TestApp, access: string) =>
  app.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(access) });
const me = (access: string) => meOn(t, access);

describe('TOTP codes', () => {
  test('a valid code signs in: a working pair for the partial token’s user', async () => {
    const step = await freshStep();
    const u = await createMfaUser(t, 'ok@example.com', step - 1);
    const res = await verify({
      partial_token: await partialLogin(t, u.email),
      totp_code: await totpAt(u.secret, step),
    });
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['access', 'refresh']);
    expect((await me(res.json().access)).json()).toMatchObject({ id: u.id, email: u.email, mfa_enabled: true });
  });

  test('replay: the same code twice → the second is refused, even with a new partial token', async () => {
    const step = await freshStep();
    const u = await createMfaUser(t, 'replay@example.com', step - 1);
    const code = await totpAt(u.secret, step);
    expect((await verify({ partial_token: await partialLogin(t, u.email), totp_code: code })).statusCode).toBe(200);
    const again = await verify({ partial_token: await partialLogin(t, u.email), totp_code: code });
    expect(again.statusCode).toBe(401);
    expect(again.json()).toEqual({ detail: expect.any(String), code: 'invalid_code' });
  });

  test('the same code sent twice at once: exactly one sign-in', async () => {
    const step = await freshStep();
    const u = await createMfaUser(t, 'race@example.com', step - 1);
    const code = await totpAt(u.secret, step);
    const [p1, p2] = [await partialLogin(t, u.email), await partialLogin(t, u.email)];
    const results = await Promise.all([
      verify({ partial_token: p1, totp_code: code }),
      verify({ partial_token: p2, totp_code: code }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  test('the code that enabled MFA cannot be replayed to sign in', async () => {
    const step = await freshStep();
    const u = await createMfaUser(t, 'enable-replay@example.com', step);
    const res = await verify({
      partial_token: await partialLogin(t, u.email),
      totp_code: await totpAt(u.secret, step),
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('invalid_code');
  });

  test('a code of an older step, still inside the ±1 window, is refused once a newer one was used', async () => {
    const step = await freshStep();
    const u = await createMfaUser(t, 'older@example.com', step - 1);
    const newer = await verify({
      partial_token: await partialLogin(t, u.email),
      totp_code: await totpAt(u.secret, step + 1),
    });
    expect(newer.statusCode).toBe(200);
    // `step` is within the window and was never used, but it is not after step + 1.
    const older = await verify({
      partial_token: await partialLogin(t, u.email),
      totp_code: await totpAt(u.secret, step),
    });
    expect(older.statusCode).toBe(401);
    expect(older.json().code).toBe('invalid_code');
  });

  test('codes outside ±1 step and wrong codes are refused', async () => {
    const step = await freshStep();
    const u = await createMfaUser(t, 'window@example.com', step - 1);
    for (const code of [await totpAt(u.secret, step + 3), await totpAt(u.secret, step - 3), '000000']) {
      if (code === (await totpAt(u.secret, step))) continue; // 1 in a million
      const res = await verify({ partial_token: await partialLogin(t, u.email), totp_code: code });
      expect(res.statusCode).toBe(401);
    }
    // The right one still works afterwards (those failures were on other partial tokens).
    const ok = await verify({ partial_token: await partialLogin(t, u.email), totp_code: await totpAt(u.secret, step) });
    expect(ok.statusCode).toBe(200);
  });

  test('malformed bodies → 400', async () => {
    const u = await createMfaUser(t, 'malformed@example.com');
    const partial = await partialLogin(t, u.email);
    for (const payload of [{ partial_token: partial, totp_code: '12345' }, { partial_token: partial }, {}]) {
      const res = await verify(payload);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_error');
    }
  });
});

describe('backup codes', () => {
  test('a backup code works once (any case, with a dash); another one still works', async () => {
    const u = await createMfaUser(t, 'backup@example.com');
    const [first, second] = u.backupCodes as [string, string];
    const ok = await verify({ partial_token: await partialLogin(t, u.email), backup_code: first });
    expect(ok.statusCode).toBe(200);
    expect((await me(ok.json().access)).json().id).toBe(u.id);
    const reuse = await verify({ partial_token: await partialLogin(t, u.email), backup_code: first });
    expect(reuse.statusCode).toBe(401);
    expect(reuse.json().code).toBe('invalid_code');
    const typed = `${second.slice(0, 5).toLowerCase()}-${second.slice(5)}`;
    expect((await verify({ partial_token: await partialLogin(t, u.email), backup_code: typed })).statusCode).toBe(200);
    const unknown = await verify({ partial_token: await partialLogin(t, u.email), backup_code: 'ZZZZZZZZZZ' });
    expect(unknown.statusCode).toBe(401);
  });
});

describe('partial tokens', () => {
  test('as a Bearer token it opens nothing', async () => {
    const u = await createMfaUser(t, 'bearer@example.com');
    const partial = await partialLogin(t, u.email);
    for (const [method, url] of [
      ['GET', '/api/users/me/'],
      ['GET', '/api/dashboard/'],
      ['POST', '/api/users/me/mfa/setup/'],
      ['GET', '/api/users/me/preferences/'],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: bearer(partial) });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('token_invalid');
    }
    // …and it is still good for its purpose.
    expect((await verify({ partial_token: partial, backup_code: u.backupCodes[0] })).statusCode).toBe(200);
  });

  test('single use: reused after a success → 401, even with another valid code', async () => {
    const u = await createMfaUser(t, 'single@example.com');
    const partial = await partialLogin(t, u.email);
    expect((await verify({ partial_token: partial, backup_code: u.backupCodes[0] })).statusCode).toBe(200);
    const again = await verify({ partial_token: partial, backup_code: u.backupCodes[1] });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('token_invalid');
    // The refused attempt did not spend that backup code.
    expect(
      (await verify({ partial_token: await partialLogin(t, u.email), backup_code: u.backupCodes[1] })).statusCode,
    ).toBe(200);
  });

  test('one partial token sent twice at once with two valid codes: exactly one sign-in', async () => {
    const u = await createMfaUser(t, 'race-partial@example.com');
    const partial = await partialLogin(t, u.email);
    const results = await Promise.all([
      verify({ partial_token: partial, backup_code: u.backupCodes[0] }),
      verify({ partial_token: partial, backup_code: u.backupCodes[1] }),
    ]);
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  test('bound to its user: another user’s codes do not work with it, and the pair is always its subject’s', async () => {
    const step = await freshStep();
    const alice = await createMfaUser(t, 'alice-mfa@example.com', step - 1);
    const bob = await createMfaUser(t, 'bob-mfa@example.com', step - 1);
    const alicePartial = await partialLogin(t, alice.email);
    const withBobTotp = await verify({ partial_token: alicePartial, totp_code: await totpAt(bob.secret, step) });
    expect(withBobTotp.statusCode).toBe(401);
    const withBobBackup = await verify({ partial_token: alicePartial, backup_code: bob.backupCodes[0] });
    expect(withBobBackup.statusCode).toBe(401);
    // Bob's codes were not spent by those attempts.
    const bobOk = await verify({ partial_token: await partialLogin(t, bob.email), backup_code: bob.backupCodes[0] });
    expect((await me(bobOk.json().access)).json().id).toBe(bob.id);

    const ok = await verify({ partial_token: alicePartial, totp_code: await totpAt(alice.secret, step) });
    expect(ok.statusCode).toBe(200);
    expect((await me(ok.json().access)).json()).toMatchObject({ id: alice.id, email: alice.email });
  });

  test('forged partial tokens → 401', async () => {
    const u = await createMfaUser(t, 'forged@example.com');
    const sign = (claims: Record<string, unknown>, key = jwtKey(t.config.secretKey)) =>
      new SignJWT({ typ: 'partial', jti: `j${Math.random()}`, ...claims })
        .setProtectedHeader({ alg: 'HS256' })
        .setIssuer(JWT_ISSUER)
        .setAudience(JWT_AUDIENCE)
        .setSubject(u.id)
        .setIssuedAt()
        .setExpirationTime('1m')
        .sign(key);
    // Control: the same construction with the real key is accepted.
    expect((await verify({ partial_token: await sign({}), backup_code: u.backupCodes[0] })).statusCode).toBe(200);
    const forgeries = [
      await sign({}, new Uint8Array(32).fill(7)), // another key
      await sign({ typ: 'access', sid: 'x' }), // not a partial token
      await sign({ jti: undefined }), // no jti: could not be used once
      'not.a.token',
    ];
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    forgeries.push(`${header}.${(await sign({})).split('.')[1]}.`);
    for (const token of forgeries) {
      const res = await verify({ partial_token: token, backup_code: u.backupCodes[1] });
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('token_invalid');
    }
  });
});

describe('expiry (QC_PARTIAL_TTL=1)', () => {
  let short: TestApp;
  beforeAll(async () => {
    short = await createTestApp({ QC_PARTIAL_TTL: '1' });
  });
  afterAll(() => short.close());

  test('an expired partial token → 401 token_expired', async () => {
    const u = await createMfaUser(short, 'expiry@example.com');
    const partial = await partialLogin(short, u.email);
    await new Promise((r) => setTimeout(r, 2100));
    const res = await verifyOn(short, { partial_token: partial, backup_code: u.backupCodes[0] });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('token_expired');
  });
});

describe('brute force', () => {
  let small: TestApp;
  beforeAll(async () => {
    small = await createTestApp({
      QC_MFA_MAX_FAILURES: '3',
      QC_MFA_RATE_ACCOUNT_MAX: '5',
      QC_MFA_RATE_IP_MAX: '8',
      QC_LOGIN_RATE_WINDOW: '600',
    });
  });
  afterAll(() => small.close());

  test('wrong codes burn the partial token; then the account is limited (429) whatever the code', async () => {
    const u = await createMfaUser(small, 'brute@example.com');
    const ip = '192.0.2.10';
    const partial = await partialLogin(small, u.email);
    for (const code of ['AAAAAAAAAA', 'BBBBBBBBBB', 'CCCCCCCCCC']) {
      const res = await verifyOn(small, { partial_token: partial, backup_code: code }, ip);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('invalid_code');
    }
    // Burned after 3 failures: even a right code is refused with it.
    const burned = await verifyOn(small, { partial_token: partial, backup_code: u.backupCodes[0] }, ip);
    expect(burned.statusCode).toBe(401);
    expect(burned.json().code).toBe('token_invalid');
    const row = await small.db.selectFrom('mfa_partial_tokens').selectAll().executeTakeFirstOrThrow();
    expect(row).toMatchObject({ failures: 3, used_at: expect.any(Number) });

    // 5 attempts per account per window (4 so far): one more wrong code, then 429 even for a right one.
    const fresh = await partialLogin(small, u.email);
    expect((await verifyOn(small, { partial_token: fresh, backup_code: 'DDDDDDDDDD' }, ip)).statusCode).toBe(401);
    const limited = await verifyOn(small, { partial_token: fresh, backup_code: u.backupCodes[1] }, '192.0.2.11');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ detail: expect.any(String), code: 'rate_limited' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(500);
  });

  test('per client IP: forged or not, attempts from one address are limited; another address is not', async () => {
    const ip = '198.51.100.20';
    const statuses = [];
    for (let i = 0; i < 9; i++) {
      statuses.push((await verifyOn(small, { partial_token: 'x.y.z', totp_code: '123456' }, ip)).statusCode);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 401, 429]);
    expect((await verifyOn(small, { partial_token: 'x.y.z', totp_code: '123456' }, '198.51.100.21')).statusCode).toBe(
      401,
    );
  });
});
