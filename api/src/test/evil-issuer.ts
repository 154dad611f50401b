import { generateKeyPair, exportJWK, SignJWT, type CryptoKey, type JWTPayload } from 'jose';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A hostile OpenID Provider for the tests (issue 32): a certified provider never signs a token for
 * another audience, with another key, already expired or with `alg: none`, so this one does what
 * each test tells it. It serves discovery, its keys and a token endpoint answering the next
 * `idToken` it is given; the authorization step is the test's (it reads state and nonce from the
 * console's redirect and calls the callback itself).
 */
export interface EvilIssuer {
  issuer: string;
  /** What the token endpoint answers next: the claims and how to sign them. */
  next(token: { claims: JWTPayload; key?: 'own' | 'other' | 'none' }): void;
  /** Each token request's form (the code, the verifier), to prove the console sent them. */
  requests: URLSearchParams[];
  close(): Promise<void>;
}

const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

async function sign(claims: JWTPayload, key: CryptoKey, kid: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'RS256', kid, typ: 'JWT' }).sign(key);
}

export async function startEvilIssuer(): Promise<EvilIssuer> {
  const own = await generateKeyPair('RS256', { extractable: true });
  const other = await generateKeyPair('RS256', { extractable: true });
  const jwk = { ...(await exportJWK(own.publicKey)), kid: 'own', alg: 'RS256', use: 'sig' };
  let pending: { claims: JWTPayload; key?: 'own' | 'other' | 'none' } | null = null;
  const requests: URLSearchParams[] = [];
  let issuer = '';

  const server = http.createServer((req, res) => {
    const send = (status: number, body: object) => {
      res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(JSON.stringify(body));
    };
    if (req.url === '/.well-known/openid-configuration') {
      return send(200, {
        issuer,
        authorization_endpoint: `${issuer}/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        code_challenge_methods_supported: ['S256'],
      });
    }
    if (req.url === '/jwks') return send(200, { keys: [jwk] });
    if (req.url === '/token' && req.method === 'POST') {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        requests.push(new URLSearchParams(body));
        const token = pending;
        pending = null;
        if (!token) return send(400, { error: 'invalid_grant' });
        const idToken =
          token.key === 'none'
            ? Promise.resolve(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(token.claims)}.`)
            : sign(token.claims, token.key === 'other' ? other.privateKey : own.privateKey, 'own');
        void idToken.then((id_token) =>
          send(200, { access_token: 'evil-access', token_type: 'Bearer', expires_in: 300, id_token }),
        );
      });
      return;
    }
    send(404, { error: 'not_found' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    issuer,
    next: (token) => void (pending = token),
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
