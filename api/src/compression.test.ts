import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync } from 'node:zlib';
import { chooseEncoding, COMPRESS_THRESHOLD } from './lib/compression';
import { bearer, type TestApp } from './test/helpers';
import { ingestOk, meta, mime, startQuarantineSuite, type QuarantineSuite } from './test/quarantine';

/** br or gzip for the api's JSON answers (issue 22); static files and downloads as they were. */
let suite: QuarantineSuite;
let t: TestApp;
let token: string;
const ANN = 'ann@a.example';
const LIST = '/api/quarantine/?page_size=50';

beforeAll(async () => {
  suite = await startQuarantineSuite([[ANN, 'user', 'a.example']]);
  ({ t } = suite);
  token = suite.tokens[ANN]!;
  for (let i = 0; i < 8; i++) await ingestOk(t, meta({ rcpt_to: [ANN] }), mime({ subject: `Offer ${i}` }));
});
afterAll(() => suite.close());

const get = (url: string, acceptEncoding?: string) =>
  t.app.inject({
    method: 'GET',
    url,
    headers: { ...bearer(token), ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) },
  });

describe('api JSON answers', () => {
  let plain: string;
  beforeAll(async () => {
    const res = await get(LIST);
    expect(res.statusCode).toBe(200);
    plain = res.body;
  });

  it('are plain when the client does not ask, and say they vary with Accept-Encoding', async () => {
    const res = await get(LIST);
    expect(Buffer.byteLength(plain)).toBeGreaterThan(COMPRESS_THRESHOLD); // else the next tests prove nothing
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toMatch(/\bAccept-Encoding\b/);
    expect(JSON.parse(res.body).results).toHaveLength(8);
  });

  it('come as br when br is accepted (preferred over gzip), decoding to the same JSON', async () => {
    const res = await get(LIST, 'gzip, deflate, br, zstd');
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers.vary).toMatch(/\bAccept-Encoding\b/);
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(Buffer.byteLength(plain) / 2);
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(plain);
  });

  it('come as gzip when only gzip is accepted', async () => {
    const res = await get(LIST, 'gzip');
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(plain);
  });

  it('stay plain below the threshold, and when every offer is refused', async () => {
    const small = await get('/api/users/me/', 'br, gzip');
    expect(small.body.length).toBeLessThan(COMPRESS_THRESHOLD);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers.vary).toMatch(/\bAccept-Encoding\b/);
    expect(small.json()).toMatchObject({ email: ANN });
    const refused = await get(LIST, 'br;q=0, gzip;q=0, identity');
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(refused.body).toBe(plain);
  });

  it('the OpenAPI document too (a generated JSON answer)', async () => {
    const doc = await get('/api/openapi.json', 'br');
    expect(doc.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(doc.rawPayload).toString()).openapi).toBe('3.1.0');
  });

  it('are decoded by a real client over a socket: Content-Length is the compressed one', async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = t.app.server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}${LIST}`, {
      headers: { ...bearer(token), 'accept-encoding': 'br' },
    });
    expect(res.headers.get('content-encoding')).toBe('br');
    expect(await res.text()).toBe(plain); // fetch decodes; a wrong length would cut or hang the body
  });
});

describe('what is not compressed here', () => {
  it('a static file comes pre-compressed once, never encoded again', async () => {
    const { staticDir } = t.config;
    const text = `console.log(${JSON.stringify('x'.repeat(4000))});`;
    mkdirSync(staticDir, { recursive: true });
    writeFileSync(path.join(staticDir, 'big.0123abcd4567ef89.js'), text);
    writeFileSync(path.join(staticDir, 'big.0123abcd4567ef89.js.br'), brotliCompressSync(text));
    const res = await t.app.inject({
      method: 'GET',
      url: '/big.0123abcd4567ef89.js',
      headers: { 'accept-encoding': 'br, gzip' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(text);
    // Without a sibling for gzip: served as it is, not compressed on the fly.
    const gz = await t.app.inject({
      method: 'GET',
      url: '/big.0123abcd4567ef89.js',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gz.headers['content-encoding']).toBeUndefined();
    expect(gz.body).toBe(text);
  });

  it('the raw e-mail download: the stored bytes, exact Content-Length, no Content-Encoding', async () => {
    const raw = mime({ subject: 'Raw', body: 'y'.repeat(5000) });
    const id = await ingestOk(t, meta({ rcpt_to: [ANN] }), raw);
    const res = await get(`/api/quarantine/${id}/raw/`, 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers['content-length']).toBe(String(raw.length));
    expect(res.rawPayload.equals(raw)).toBe(true);
  });
});

describe('chooseEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br', 'br'],
    ['gzip, br', 'br'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['*;q=0.5, br;q=0', 'gzip'],
    ['deflate', null],
    ['BR', 'br'],
  ])('%p → %p', (header, expected) => {
    expect(chooseEncoding(header)).toBe(expected);
  });
});
