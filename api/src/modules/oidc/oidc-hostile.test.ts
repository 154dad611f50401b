import { countUsers, createTestApp, type TestApp } from '../../test/helpers';
import { startEvilIssuer, type EvilIssuer } from '../../test/evil-issuer';
import { ensureDomain } from '../domains/domains.service';

/**
 * ID tokens a certified provider never sends (issue 32), from a hostile issuer: each is refused at
 * the callback with a clear code, and nothing is created. A well-formed one from the same issuer
 * signs in, so each refusal is the token's doing, not the harness's.
 */
let evil: EvilIssuer;
let t: TestApp;
const PUBLIC = 'http://127.0.0.1:8080';
const CLIENT = 'qc-console';

beforeAll(async () => {
  evil = await startEvilIssuer();
  t = await createTestApp({
    QC_PUBLIC_URL: PUBLIC,
    QC_OIDC_ISSUER: evil.issuer,
    QC_OIDC_CLIENT_ID: CLIENT,
    QC_OIDC_CLIENT_SECRET: 'evil-secret',
  });
  await ensureDomain(t.db, 'example.com');
});
afterAll(async () => {
  await t?.close();
  await evil?.close();
});

const users = () => countUsers(t.db);

/** Starts a sign-in: the provider URL's state and nonce, and this browser's cookie. */
async function start() {
  const res = await t.app.inject({ method: 'GET', url: '/api/auth/oidc/start/' });
  expect(res.statusCode).toBe(302);
  const url = new URL(res.headers.location as string);
  expect(url.origin + url.pathname).toBe(`${evil.issuer}/auth`);
  const cookie = String(res.headers['set-cookie']).split(';')[0]!;
  return { state: url.searchParams.get('state')!, nonce: url.searchParams.get('nonce')!, cookie, url };
}

const callback = (query: string, cookie: string) =>
  t.app.inject({ method: 'GET', url: `/api/auth/oidc/callback/?${query}`, headers: { cookie } });

const now = () => Math.floor(Date.now() / 1000);
const claimsFor = (nonce: string, extra: Record<string, unknown> = {}) => ({
  iss: evil.issuer,
  sub: 'evil-subject-1',
  aud: CLIENT,
  iat: now(),
  exp: now() + 300,
  nonce,
  email: 'eve@example.com',
  email_verified: true,
  ...extra,
});

/** One callback with the token the test chose; the 302's sso_error, or 'ticket'. */
async function outcome(
  token: Parameters<EvilIssuer['next']>[0] | ((nonce: string) => Parameters<EvilIssuer['next']>[0]),
) {
  const flow = await start();
  evil.next(typeof token === 'function' ? token(flow.nonce) : token);
  const res = await callback(`code=evil-code&state=${flow.state}`, flow.cookie);
  expect(res.statusCode).toBe(302);
  const location = res.headers.location as string;
  if (location.startsWith(`${PUBLIC}/login/sso#ticket=`)) return 'ticket';
  expect(location).toMatch(new RegExp(`^${PUBLIC}/login\\?sso_error=[a-z_]+$`));
  return new URL(location).searchParams.get('sso_error');
}

test.each([
  ['another audience', 'invalid_response', (nonce: string) => ({ claims: claimsFor(nonce, { aud: 'someone-else' }) })],
  [
    'another issuer',
    'invalid_response',
    (nonce: string) => ({ claims: claimsFor(nonce, { iss: 'https://other.example' }) }),
  ],
  [
    'signed with another key',
    'invalid_response',
    (nonce: string) => ({ claims: claimsFor(nonce), key: 'other' as const }),
  ],
  ['alg: none', 'invalid_response', (nonce: string) => ({ claims: claimsFor(nonce), key: 'none' as const })],
  [
    'expired',
    'clock_skew',
    (nonce: string) => ({ claims: claimsFor(nonce, { iat: now() - 3600, exp: now() - 1800 }) }),
  ],
  [
    'not valid before an hour from now',
    'clock_skew',
    (nonce: string) => ({ claims: claimsFor(nonce, { nbf: now() + 3600 }) }),
  ],
  ['without a nonce', 'invalid_response', (nonce: string) => ({ claims: claimsFor(nonce, { nonce: undefined }) })],
])('an ID token %s is refused (%s), nothing created', async (_name, code, token) => {
  const before = await users();
  expect(await outcome(token)).toBe(code);
  expect(await users()).toBe(before);
});

test('a replayed nonce (the ID token of an earlier sign-in) is refused', async () => {
  const earlier = await start();
  const before = await users();
  expect(await outcome({ claims: claimsFor(earlier.nonce) })).toBe('invalid_response');
  expect(await users()).toBe(before);
});

test('the token request carries the code and the PKCE verifier of this sign-in', async () => {
  const flow = await start();
  evil.next({ claims: claimsFor(flow.nonce) });
  await callback(`code=the-code&state=${flow.state}`, flow.cookie);
  const form = evil.requests.at(-1)!;
  expect(form.get('code')).toBe('the-code');
  expect(form.get('grant_type')).toBe('authorization_code');
  expect(form.get('redirect_uri')).toBe(`${PUBLIC}/api/auth/oidc/callback/`);
  // S256 of the verifier is the challenge the start sent.
  const { createHash } = await import('node:crypto');
  const challenge = createHash('sha256').update(form.get('code_verifier')!).digest('base64url');
  expect(challenge).toBe(flow.url.searchParams.get('code_challenge'));
  expect(flow.url.searchParams.get('code_challenge_method')).toBe('S256');
});

test('a well-formed ID token from the same issuer signs in (the refusals above are the tokens’ doing)', async () => {
  const before = await users();
  const claims = (nonce: string) => claimsFor(nonce, { sub: 'evil-subject-2', email: 'yves@example.com' });
  expect(await outcome((nonce) => ({ claims: claims(nonce) }))).toBe('ticket');
  expect(await users()).toBe(before + 1);
});

test('on https the browser key is a __Host- cookie (Secure, Path=/): no sibling subdomain can plant it', async () => {
  const secure = await createTestApp({
    QC_PUBLIC_URL: 'https://console.example',
    QC_OIDC_ISSUER: evil.issuer,
    QC_OIDC_CLIENT_ID: CLIENT,
    QC_OIDC_CLIENT_SECRET: 'evil-secret',
  });
  try {
    const res = await secure.app.inject({ method: 'GET', url: '/api/auth/oidc/start/' });
    expect(res.statusCode).toBe(302);
    expect(String(res.headers['set-cookie'])).toMatch(
      /^__Host-qc_sso=[A-Za-z0-9_-]{43}; Path=\/; Secure; Max-Age=600; HttpOnly; SameSite=Lax$/,
    );
    expect(new URL(res.headers.location as string).searchParams.get('redirect_uri')).toBe(
      'https://console.example/api/auth/oidc/callback/',
    );
  } finally {
    await secure.close();
  }
});
