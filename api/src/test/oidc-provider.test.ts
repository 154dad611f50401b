import { createHash, randomBytes } from 'node:crypto';
import * as client from 'openid-client';
import {
  OIDC_TEST_CLIENT,
  OIDC_TEST_SCOPE,
  TEST_OIDC_ISSUER,
  oidcAccount,
  signInAtProvider,
  startOidcProvider,
  type OidcCookieJar,
  type OidcProvider,
} from './oidc-provider';

// The harness against the real provider (test/oidc/provider.mjs in a process of its own).
const REDIRECT_URI = 'http://127.0.0.1:8080/api/auth/oidc/callback/';
const POST_LOGOUT_URI = 'http://127.0.0.1:8080/login';
let op: OidcProvider;

beforeAll(async () => {
  op = await startOidcProvider({ redirectUris: [REDIRECT_URI], postLogoutRedirectUris: [POST_LOGOUT_URI] });
});
afterAll(() => op?.stop());

const b64url = (b: Buffer) => b.toString('base64url');

/** An authorization request as the console makes it: code flow, PKCE S256, state and nonce. */
function authorizationRequest(extra: Record<string, string> = {}) {
  const verifier = b64url(randomBytes(32));
  const state = b64url(randomBytes(16));
  const nonce = b64url(randomBytes(16));
  const url = new URL(`${op.issuer}/auth`);
  url.search = new URLSearchParams({
    client_id: OIDC_TEST_CLIENT.id,
    response_type: 'code',
    redirect_uri: REDIRECT_URI,
    scope: OIDC_TEST_SCOPE,
    state,
    nonce,
    code_challenge: b64url(createHash('sha256').update(verifier).digest()),
    code_challenge_method: 'S256',
    ...extra,
  }).toString();
  return { url: url.href, verifier, state, nonce };
}

async function redeem(code: string, verifier: string) {
  const basic = Buffer.from(`${OIDC_TEST_CLIENT.id}:${OIDC_TEST_CLIENT.secret}`).toString('base64');
  const res = await fetch(`${op.issuer}/token`, {
    method: 'POST',
    headers: { authorization: `Basic ${basic}` },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    }),
  });
  const body = (await res.json()) as { id_token?: string; error?: string };
  if (!res.ok || !body.id_token) throw new Error(`token endpoint: ${res.status} ${JSON.stringify(body)}`);
  return JSON.parse(Buffer.from(body.id_token.split('.')[1]!, 'base64url').toString('utf8'));
}

/** Signs `login` in and returns the ID token's payload (not verified: the openid-client test does). */
async function idTokenOf(login: string) {
  const req = authorizationRequest();
  const back = new URL(await signInAtProvider(req.url, login, `${login}-pass`));
  expect(back.origin + back.pathname).toBe(REDIRECT_URI);
  expect(back.searchParams.get('state')).toBe(req.state);
  expect(back.searchParams.get('iss')).toBe(op.issuer);
  const claims = await redeem(back.searchParams.get('code')!, req.verifier);
  expect(claims.nonce).toBe(req.nonce);
  return claims;
}

test('discovery names the issuer, S256 and every scope', async () => {
  const res = await fetch(`${op.issuer}/.well-known/openid-configuration`);
  const doc = await res.json();
  expect(op.issuer).toBe(`http://127.0.0.1:${op.port}`);
  expect(doc.issuer).toBe(op.issuer);
  expect(doc.code_challenge_methods_supported).toEqual(['S256']);
  expect(doc.scopes_supported).toEqual(expect.arrayContaining(OIDC_TEST_SCOPE.split(' ')));
  expect(doc.end_session_endpoint).toBe(`${op.issuer}/session/end`);
});

test('a code flow puts every claim into the ID token, amr from the login', async () => {
  const alice = oidcAccount('alice');
  expect(await idTokenOf('alice')).toMatchObject({
    iss: op.issuer,
    aud: OIDC_TEST_CLIENT.id,
    sub: alice.sub,
    email: 'alice@example.com',
    email_verified: true,
    name: 'Alice Smith',
    given_name: 'Alice',
    family_name: 'Smith',
    groups: ['qc-admins'],
    mail_aliases: ['alice.smith@example.com', 'alice@elsewhere.test'],
    amr: ['pwd'],
  });
  expect(await idTokenOf('erin')).toMatchObject({ groups: ['qc-domain-admins'], amr: ['pwd', 'otp'] });
});

test('absent and false claims stay so', async () => {
  const bob = await idTokenOf('bob');
  expect(bob).toMatchObject({ email: 'bob@example.com', email_verified: true, groups: [] });
  expect(bob).not.toHaveProperty('mail_aliases');
  expect(await idTokenOf('carol')).toMatchObject({ email_verified: false });
  const frank = await idTokenOf('frank');
  expect(frank.email).toBe('frank@example.com');
  expect(frank).not.toHaveProperty('email_verified');
});

test('Cancel comes back with access_denied; a wrong password throws', async () => {
  const req = authorizationRequest();
  const back = new URL(await signInAtProvider(req.url, 'alice', 'alice-pass', { cancel: true }));
  expect(back.searchParams.get('error')).toBe('access_denied');
  expect(back.searchParams.get('state')).toBe(req.state);
  await expect(signInAtProvider(authorizationRequest().url, 'alice', 'wrong')).rejects.toThrow(
    /Invalid username or password/,
  );
  await expect(signInAtProvider(authorizationRequest().url, 'nobody', 'x')).rejects.toThrow(/Invalid username/);
});

test('prompt=login asks again, prompt=consent passes through', async () => {
  const jar: OidcCookieJar = new Map();
  await signInAtProvider(authorizationRequest().url, 'bob', 'bob-pass', { jar });
  const login = authorizationRequest({ prompt: 'login' }).url;
  await expect(signInAtProvider(login, 'bob', 'wrong', { jar })).rejects.toThrow(/Invalid username/);
  const consent = new URL(await signInAtProvider(authorizationRequest({ prompt: 'consent' }).url, 'x', 'y', { jar }));
  expect(consent.searchParams.get('code')).toBeTruthy();
});

test('PKCE is required', async () => {
  const url = new URL(authorizationRequest().url);
  url.searchParams.delete('code_challenge');
  url.searchParams.delete('code_challenge_method');
  const back = new URL(await signInAtProvider(url.href, 'alice', 'alice-pass'));
  expect(back.searchParams.get('error')).toBe('invalid_request');
  expect(back.searchParams.get('error_description')).toMatch(/PKCE/);
});

test('one browser: single sign-on, then RP-initiated logout with client_id only', async () => {
  const jar: OidcCookieJar = new Map();
  await signInAtProvider(authorizationRequest().url, 'bob', 'bob-pass', { jar });
  // Signed in already: no password asked (a wrong one is never checked).
  const again = new URL(await signInAtProvider(authorizationRequest().url, 'bob', 'unused', { jar }));
  expect(again.searchParams.get('code')).toBeTruthy();

  const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
  const end = new URL(`${op.issuer}/session/end`);
  end.search = new URLSearchParams({
    client_id: OIDC_TEST_CLIENT.id,
    post_logout_redirect_uri: POST_LOGOUT_URI,
    state: 's1',
  }).toString();
  const page = await (await fetch(end, { headers: { cookie } })).text();
  expect(page).toContain('Yes, sign me out');
  const xsrf = /name="xsrf" value="([^"]+)"/.exec(page)![1]!;
  const confirm = await fetch(`${op.issuer}/session/end/confirm`, {
    method: 'POST',
    headers: { cookie },
    body: new URLSearchParams({ xsrf, logout: 'yes' }),
    redirect: 'manual',
  });
  expect(confirm.status).toBe(303);
  expect(confirm.headers.get('location')).toBe(`${POST_LOGOUT_URI}?state=s1`);
  expect(confirm.headers.getSetCookie().join('\n')).toMatch(/^op_session=;/m);
});

test('openid-client signs in against it (signature, iss, PKCE, nonce checked)', async () => {
  const config = await client.discovery(new URL(op.issuer), OIDC_TEST_CLIENT.id, OIDC_TEST_CLIENT.secret, undefined, {
    execute: [client.allowInsecureRequests], // http on loopback
  });
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: REDIRECT_URI,
    scope: OIDC_TEST_SCOPE,
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  const back = await signInAtProvider(url.href, 'erin', 'erin-pass');
  const tokens = await client.authorizationCodeGrant(config, new URL(back), {
    pkceCodeVerifier: verifier,
    expectedState: state,
    expectedNonce: nonce,
  });
  expect(tokens.claims()).toMatchObject({
    sub: oidcAccount('erin').sub,
    email: 'erin@example.com',
    amr: ['pwd', 'otp'],
  });
});

// The shared provider of scripts/oidc.sh, when npm test (or a developer) started it.
(process.env.QC_TEST_OIDC_ISSUER ? test : test.skip)('the shared provider answers', async () => {
  const doc = await (await fetch(`${TEST_OIDC_ISSUER}/.well-known/openid-configuration`)).json();
  expect(doc.issuer).toBe(TEST_OIDC_ISSUER);
});
