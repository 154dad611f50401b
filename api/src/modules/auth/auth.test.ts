import { bearer, createTestApp, PASSWORD, type TestApp } from '../../test/helpers';
import { SignJWT } from 'jose';
import { setUserActive } from '../users/users.repository';
import { JWT_AUDIENCE, JWT_ISSUER, jwtKey } from './tokens';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (payload: unknown) =>
  t.app.inject({ method: 'POST', url: '/api/auth/login/', payload: payload as object });
const me = (token: string) => t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(token) });

describe('POST /api/auth/login/', () => {
  test('right password: a token pair that works', async () => {
    await t.createUser({ email: 'Alice@Example.com' });
    const res = await login({ email: ' alice@EXAMPLE.com ', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['access', 'refresh']);
    expect(body.refresh).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes
    expect((await me(body.access)).json().email).toBe('alice@example.com');
  });

  test('wrong password and unknown user: the same 401', async () => {
    await t.createUser({ email: 'bob@example.com' });
    const wrong = await login({ email: 'bob@example.com', password: 'not the password' });
    const unknown = await login({ email: 'nobody@example.com', password: 'not the password' });
    for (const res of [wrong, unknown]) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ detail: 'Invalid e-mail or password.', code: 'invalid_credentials' });
    }
  });

  test('an inactive user is refused', async () => {
    const user = await t.createUser({ email: 'carol@example.com' });
    await setUserActive(t.db, user.id, false);
    const res = await login({ email: 'carol@example.com', password: PASSWORD });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('account_inactive');
    expect(res.json()).not.toHaveProperty('access');
  });

  test('MFA enabled: a short-lived partial token, no pair', async () => {
    const user = await t.createUser({ email: 'dave@example.com' });
    await t.db.updateTable('users').set({ mfa_enabled: 1 }).where('id', '=', user.id).execute();
    const res = await login({ email: 'dave@example.com', password: PASSWORD });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.requires_2fa).toBe(true);
    expect(body).not.toHaveProperty('access');
    const claims = JSON.parse(Buffer.from(body.partial_token.split('.')[1], 'base64url').toString());
    expect(claims).toMatchObject({ typ: 'partial', sub: user.id, aud: JWT_AUDIENCE, iss: JWT_ISSUER });
    expect(claims.exp - claims.iat).toBe(t.config.partialTtl);
    // A partial token is never an access token.
    const asAccess = await me(body.partial_token);
    expect(asAccess.statusCode).toBe(401);
    expect(asAccess.json().code).toBe('token_invalid');
  });

  test('validation: 400 with errors per field', async () => {
    const res = await login({ email: 'not-an-email' });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('validation_error');
    expect(typeof body.detail).toBe('string');
    expect(Object.keys(body.errors).sort()).toEqual(['email', 'password']);
  });

  test('a body that is not JSON: 400 in the error shape', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'bad_request', detail: expect.any(String) });
  });
});

describe('access tokens', () => {
  let user: { id: string };
  let valid: string;
  let sid: string;
  beforeAll(async () => {
    user = await t.createUser({ email: 'tokens@example.com' });
    valid = (await t.login('tokens@example.com')).access;
    sid = JSON.parse(Buffer.from(valid.split('.')[1]!, 'base64url').toString()).sid;
  });

  const sign = (claims: Record<string, unknown>, opts: { key?: Uint8Array; aud?: string; exp?: number } = {}) =>
    new SignJWT({ typ: 'access', sid, ...claims })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(JWT_ISSUER)
      .setAudience(opts.aud ?? JWT_AUDIENCE)
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime(opts.exp ?? Math.floor(Date.now() / 1000) + 60)
      .sign(opts.key ?? jwtKey(t.config.secretKey));

  test('a correctly signed token passes (the forgeries below differ by one thing)', async () => {
    expect((await me(await sign({}))).statusCode).toBe(200);
    expect((await me(valid)).statusCode).toBe(200);
  });

  test.each([
    ['no header', undefined, 'not_authenticated'],
    ['not a bearer', 'Basic dXNlcjpwdw==', 'not_authenticated'],
    ['garbage', 'Bearer abc.def.ghi', 'token_invalid'],
  ])('%s → 401', async (_name, header, code) => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/api/users/me/',
      headers: header ? { authorization: header } : {},
    });
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe(code);
  });

  test('forged signature (another key) → 401', async () => {
    const res = await me(await sign({}, { key: new Uint8Array(32).fill(7) }));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('token_invalid');
  });

  test('alg "none" → 401', async () => {
    const [, payload] = (await sign({})).split('.');
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    expect((await me(`${header}.${payload}.`)).statusCode).toBe(401);
  });

  test('another algorithm with the right key (HS512) → 401', async () => {
    const token = await new SignJWT({ typ: 'access', sid })
      .setProtectedHeader({ alg: 'HS512' })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject(user.id)
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(new Uint8Array(64).fill(1));
    expect((await me(token)).statusCode).toBe(401);
  });

  test('expired → 401 token_expired', async () => {
    const res = await me(await sign({}, { exp: Math.floor(Date.now() / 1000) - 10 }));
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('token_expired');
  });

  test('wrong audience → 401', async () => {
    expect((await me(await sign({}, { aud: 'someone-else' }))).statusCode).toBe(401);
  });

  test('wrong typ (partial) → 401, even with a live session id', async () => {
    expect((await me(await sign({ typ: 'partial' }))).statusCode).toBe(401);
  });

  test('a session id of someone else → 401', async () => {
    const other = await t.createUser({ email: 'other@example.com' });
    const token = await new SignJWT({ typ: 'access', sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer(JWT_ISSUER)
      .setAudience(JWT_AUDIENCE)
      .setSubject(other.id)
      .setIssuedAt()
      .setExpirationTime('1m')
      .sign(jwtKey(t.config.secretKey));
    expect((await me(token)).statusCode).toBe(401);
  });

  test('deactivating the user ends the session at once', async () => {
    await t.createUser({ email: 'leaver@example.com' });
    const { access } = await t.login('leaver@example.com');
    expect((await me(access)).statusCode).toBe(200);
    const row = await t.db
      .selectFrom('users')
      .select('id')
      .where('email', '=', 'leaver@example.com')
      .executeTakeFirstOrThrow();
    await setUserActive(t.db, row.id, false);
    expect((await me(access)).statusCode).toBe(401);
  });
});
