import { isCredentialName, REDACTED, redactHeaders, redactUrl } from './log-redaction';

describe('isCredentialName: one rule for query parameters and headers', () => {
  test('credential words, alone, as a word of the name, or at the end of a name without separators', () => {
    const credentials = [
      'token',
      'TOKEN',
      'access_token',
      'refresh_token',
      'id_token',
      'x_token',
      'X-Auth-Token',
      'accessToken',
      'accesstoken',
      'code',
      'ticket',
      'password',
      'client_secret',
      'key',
      'api_key',
      'apikey',
      'X-Api-Key',
      'signature',
      'X-Amz-Signature',
      'sig',
      'auth',
      'authorization',
      'Proxy-Authorization',
      'session',
      'session_id',
      'cookie',
      'Set-Cookie',
      'SAMLResponse',
    ];
    expect(credentials.filter((name) => !isCredentialName(name))).toEqual([]);
  });

  test('ordinary names are kept', () => {
    const ordinary = [
      'q',
      'status',
      'page_size',
      'cursor',
      'sender',
      'monkey',
      'broken',
      'user-agent',
      'accept',
      'host',
    ];
    expect(ordinary.filter(isCredentialName)).toEqual([]);
  });
});

describe('redactUrl', () => {
  test('every credential-like query parameter, whatever its case, the others and their order kept', () => {
    expect(redactUrl('/api/x/?access_token=eyJhbGciOi.e30.sig&page_size=5&TOKEN=abc&x_token=def&q=token')).toBe(
      `/api/x/?access_token=${REDACTED}&page_size=5&TOKEN=${REDACTED}&x_token=${REDACTED}&q=token`,
    );
    // An OpenID Connect callback: its state (and a nonce) is the key to a sign-in in progress.
    expect(redactUrl('/cb?code=AUTHCODE&state=s1&iss=https%3A%2F%2Fsso&api_key=K1&signature=S1&nonce=n1')).toBe(
      `/cb?code=${REDACTED}&state=${REDACTED}&iss=https%3A%2F%2Fsso&api_key=${REDACTED}&signature=${REDACTED}&nonce=${REDACTED}`,
    );
  });

  test('a percent-encoded name is read decoded (%74oken is token); a bare name or empty query is kept', () => {
    expect(redactUrl('/invitation?%74oken=SECRET')).toBe(`/invitation?%74oken=${REDACTED}`);
    expect(redactUrl('/a?token&b=1')).toBe('/a?token&b=1');
    expect(redactUrl('/a?')).toBe('/a?');
    expect(redactUrl('/api/users/me/')).toBe('/api/users/me/');
  });

  test('a digest link’s path token, also percent-encoded in the path (the router decodes it)', () => {
    expect(redactUrl('/digest/v1.abc.def')).toBe(`/digest/${REDACTED}`);
    expect(redactUrl('/api/digest/v1.abc.def/')).toBe(`/api/digest/${REDACTED}/`);
    expect(redactUrl('/api/%64igest/v1.abc.def/?x=1')).toBe(`/api/%64igest/${REDACTED}/?x=1`);
    expect(redactUrl('/DIGEST/v1.abc')).toBe(`/DIGEST/${REDACTED}`);
  });

  test('a segment after a credential-like one; the segments around it kept', () => {
    expect(redactUrl('/api/session/S3CR3T/info')).toBe(`/api/session/${REDACTED}/info`);
    expect(redactUrl('/api/quarantine/01HXYZ/raw/')).toBe('/api/quarantine/01HXYZ/raw/');
    // The sign-in routes stay told apart: /api/auth/ names routes, not secrets.
    expect(redactUrl('/api/auth/login/')).toBe('/api/auth/login/');
    expect(redactUrl('/api/auth/refresh/?token=R1')).toBe(`/api/auth/refresh/?token=${REDACTED}`);
  });

  test('short credential words: pass, pw, pin, hmac (a parameter named so, or one of its words)', () => {
    expect(redactUrl('/a?pass=P1&pw=P2&user_pin=P3&hmac=H1&spin=ok')).toBe(
      `/a?pass=${REDACTED}&pw=${REDACTED}&user_pin=${REDACTED}&hmac=${REDACTED}&spin=ok`,
    );
  });

  test('a fragment is read like a query', () => {
    expect(redactUrl('/login/sso#ticket=T1&x=2')).toBe(`/login/sso#ticket=${REDACTED}&x=2`);
  });
});

describe('redactHeaders', () => {
  test('authorization, cookies and api keys redacted; the others kept as they are', () => {
    expect(
      redactHeaders({
        authorization: 'Bearer eyJ',
        'proxy-authorization': 'Basic dXNlcjpwdw==',
        cookie: 'qc_device=abc',
        'x-api-key': 'k',
        'x-auth-token': 't',
        'user-agent': 'curl/8',
        accept: 'application/json',
        'x-forwarded-for': '192.0.2.1',
      }),
    ).toEqual({
      authorization: REDACTED,
      'proxy-authorization': REDACTED,
      cookie: REDACTED,
      'x-api-key': REDACTED,
      'x-auth-token': REDACTED,
      'user-agent': 'curl/8',
      accept: 'application/json',
      'x-forwarded-for': '192.0.2.1',
    });
  });
});
