import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { createTestApp, type TestApp } from '../../test/helpers';
import { API_CSP, DOCS_CSP } from './csp';

const IMMUTABLE = 'public, max-age=31536000, immutable';

function write(file: string, content: string) {
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, content);
}

describe('built console', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    const { staticDir, remotesDir } = t.config;
    write(path.join(staticDir, 'index.html'), '<!doctype html><title>QC shell</title>');
    write(path.join(staticDir, 'main.0123abcd4567ef89.js'), 'console.log(1)');
    write(path.join(staticDir, 'favicon.ico'), 'ico');
    writeFileSync(path.join(staticDir, 'main.0123abcd4567ef89.js.br'), brotliCompressSync('console.log(1)'));
    write(path.join(remotesDir, 'remote-mail/dist/mf-manifest.json'), '{"name":"remote_mail"}');
    write(path.join(remotesDir, 'remote-mail/dist/remoteEntry.js'), 'var remote_mail;');
    write(path.join(remotesDir, 'remote-mail/dist/__federation_expose_Dashboard.8f9e0d1c.js'), '1');
    write(path.join(remotesDir, 'remote-haraka/dist/mf-manifest.json'), '{"name":"remote_haraka"}');
    mkdirSync(path.join(remotesDir, 'remote-admin'), { recursive: true }); // folder without a build
  });
  afterAll(() => t.close());

  const get = (url: string, accept = '*/*') => t.app.inject({ method: 'GET', url, headers: { accept } });

  test('host shell at / and entry files are no-cache; hashed files immutable', async () => {
    const root = await get('/', 'text/html');
    expect(root.statusCode).toBe(200);
    expect(root.body).toContain('QC shell');
    expect(root.headers['cache-control']).toBe('no-cache');
    expect((await get('/main.0123abcd4567ef89.js')).headers['cache-control']).toBe(IMMUTABLE);
    expect((await get('/favicon.ico')).headers['cache-control']).toBe('no-cache');
    expect((await get('/remotes/remote-mail/remoteEntry.js')).headers['cache-control']).toBe('no-cache');
    expect((await get('/remotes/remote-mail/mf-manifest.json')).headers['cache-control']).toBe('no-cache');
    const chunk = await get('/remotes/remote-mail/__federation_expose_Dashboard.8f9e0d1c.js');
    expect(chunk.statusCode).toBe(200);
    expect(chunk.headers['cache-control']).toBe(IMMUTABLE);
  });

  test('a precompressed sibling is served to clients that accept it, cached like its file', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/main.0123abcd4567ef89.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe(IMMUTABLE);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe('console.log(1)');
    const plain = await get('/main.0123abcd4567ef89.js');
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  test('SPA fallback: client routes get index.html; API, remotes and non-HTML requests do not', async () => {
    const page = await get('/mail/42?x=1', 'text/html,application/xhtml+xml');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('QC shell');
    expect(page.headers['cache-control']).toBe('no-cache');

    const api = await get('/api/does-not-exist/', 'text/html');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
    const apiPost = await t.app.inject({ method: 'POST', url: '/api/nothing/' });
    expect(apiPost.statusCode).toBe(404);
    expect(apiPost.json().code).toBe('not_found');

    expect((await get('/remotes/remote-mail/missing.js', 'text/html')).statusCode).toBe(404);
    expect((await get('/remotes/remote-admin/remoteEntry.js')).statusCode).toBe(404); // not built
    expect((await get('/missing.js')).statusCode).toBe(404);
  });

  test('no path escapes the build directories', async () => {
    for (const url of ['/../package.json', '/remotes/remote-mail/../../secret.key', '/%2e%2e/secret.key']) {
      const res = await get(url);
      expect(res.statusCode).not.toBe(200);
    }
  });

  test('default /remotes.json lists the built remotes this server serves', async () => {
    const res = await get('/remotes.json');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      remote_mail: '/remotes/remote-mail/mf-manifest.json',
      remote_haraka: '/remotes/remote-haraka/mf-manifest.json',
    });
  });

  test('strict CSP and helmet headers on every page', async () => {
    const res = await get('/', 'text/html');
    const csp = res.headers['content-security-policy'] as string;
    for (const directive of [
      "default-src 'self'",
      "script-src 'self'",
      "style-src 'self' 'unsafe-inline'",
      "img-src 'self' data: https:",
      "connect-src 'self'",
      "object-src 'none'",
      "base-uri 'none'",
      "frame-ancestors 'none'",
    ]) {
      expect(csp.split('; ')).toContain(directive);
    }
    expect(csp).not.toContain('unsafe-eval');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    // The api's JSON is never a page: the strictest policy, whatever the remotes file says.
    expect((await get('/api/health/')).headers['content-security-policy']).toBe(API_CSP);
  });

  test('Swagger UI has its own CSP; OpenAPI lists the routes', async () => {
    const docs = await get('/api/docs/', 'text/html');
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-security-policy']).toBe(DOCS_CSP);
    expect(DOCS_CSP).toContain("object-src 'none'");
    const asset = await get('/api/docs/static/swagger-initializer.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['content-security-policy']).toBe(DOCS_CSP);
    const spec = await get('/api/openapi.json');
    expect(spec.statusCode).toBe(200);
    const paths = Object.keys(spec.json().paths);
    for (const p of [
      '/api/auth/login/',
      '/api/auth/refresh/',
      '/api/auth/logout/',
      '/api/users/me/',
      '/api/dashboard/',
      '/api/health/',
      '/api/auth/verify-totp/',
      '/api/users/me/mfa/setup/',
      '/api/users/me/mfa/enable/',
      '/api/users/me/mfa/disable/',
      '/api/users/me/mfa/backup-codes/',
      '/api/users/me/email/confirm/',
      '/api/users/me/password/',
      '/api/users/me/preferences/',
      '/api/feedback/',
      '/api/feedback/{id}/images/{imageId}/',
    ]) {
      expect(paths).toContain(p);
    }
    expect(Object.keys(spec.json().paths['/api/users/me/'])).toEqual(expect.arrayContaining(['get', 'patch']));
    const feedbackForm = spec.json().paths['/api/feedback/'].post.requestBody.content['multipart/form-data'].schema;
    expect(Object.keys(feedbackForm.properties)).toEqual(['type', 'message', 'email', 'image0', 'image1', 'image2']);
    expect(paths).not.toContain('/remotes.json');
    expect(spec.json().paths['/api/auth/login/'].post.requestBody.content['application/json'].schema.required).toEqual([
      'email',
      'password',
    ]);
  });
});

describe('QC_REMOTES_FILE', () => {
  let t: TestApp;
  let file: string;
  beforeAll(async () => {
    t = await createTestApp({ QC_REMOTES_FILE: 'remotes.json' }); // relative to the cwd (the temp dir here)
    file = path.join(t.tmpDir, 'remotes.json');
  });
  afterAll(() => t.close());

  const get = (url: string) => t.app.inject({ method: 'GET', url });

  test('served as is; its origins join script-src and connect-src; edits apply without restart', async () => {
    write(
      file,
      JSON.stringify({
        remote_mail: 'https://mail.cdn.example/remote-mail/mf-manifest.json',
        remote_admin: '/remotes/remote-admin/mf-manifest.json',
      }),
    );
    const first = await get('/remotes.json');
    expect(first.statusCode).toBe(200);
    expect(first.json().remote_mail).toBe('https://mail.cdn.example/remote-mail/mf-manifest.json');
    const csp = first.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self' https://mail.cdn.example;");
    expect(csp).toContain("connect-src 'self' https://mail.cdn.example;");

    // Replace the file (as a deploy would): the next request sees the new content.
    write(`${file}.new`, JSON.stringify({ remote_mail: 'https://other.example:8443/mf-manifest.json' }));
    renameSync(`${file}.new`, file);
    const second = await get('/remotes.json');
    expect(second.json()).toEqual({ remote_mail: 'https://other.example:8443/mf-manifest.json' });
    expect(second.headers['content-security-policy']).toContain("script-src 'self' https://other.example:8443;");
    expect(second.headers['content-security-policy']).not.toContain('mail.cdn.example');

    // Edited in place too.
    writeFileSync(file, JSON.stringify({ remote_haraka: '/remotes/remote-haraka/mf-manifest.json' }));
    expect((await get('/remotes.json')).json()).toEqual({ remote_haraka: '/remotes/remote-haraka/mf-manifest.json' });
  });

  test('an invalid file: 503 JSON error, and no foreign origin in the CSP', async () => {
    writeFileSync(file, JSON.stringify({ remote_mail: 'javascript:alert(1)' }));
    const res = await get('/remotes.json');
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('remotes_unavailable');
    expect(res.headers['content-security-policy']).toContain("script-src 'self';");
    writeFileSync(file, '{ not json');
    expect((await get('/remotes.json')).statusCode).toBe(503);
  });
});

describe('console not built', () => {
  test('a small page says so instead of crashing; the API still answers', async () => {
    const t = await createTestApp(); // QC_STATIC_DIR points at a directory that does not exist
    try {
      const res = await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } });
      expect(res.statusCode).toBe(503);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('not built');
      expect(
        (await t.app.inject({ method: 'GET', url: '/dashboard', headers: { accept: 'text/html' } })).body,
      ).toContain('not built');
      expect((await t.app.inject({ method: 'GET', url: '/api/health/' })).statusCode).toBe(200);
      expect((await t.app.inject({ method: 'GET', url: '/remotes.json' })).json()).toEqual({});
    } finally {
      await t.close();
    }
  });
});
