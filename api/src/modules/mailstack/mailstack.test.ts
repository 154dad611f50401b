import { randomBytes } from 'node:crypto';
import { bearer, createTestApp, json, type TestApp } from '../../test/helpers';
import { INGEST_TOKEN } from '../../test/quarantine';
import { ensureDomain } from '../domains/domains.service';
import { mailstackDomains, noneMatch } from './mailstack.routes';

const URL_ = '/api/mailstack/domains/';
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
});
afterAll(() => t.close());

const get = (headers: Record<string, string> = bearer(INGEST_TOKEN), method: 'GET' | 'HEAD' = 'GET') =>
  t.app.inject({ method, url: URL_, headers });

describe('service authentication (as the ingest)', () => {
  test('no token → 401 not_authenticated; a wrong token or a user session → 401 token_invalid', async () => {
    const none = await get({});
    expect(none.statusCode).toBe(401);
    expect(json(none).code).toBe('not_authenticated');
    expect(none.headers['www-authenticate']).toBe('Bearer');
    expect(none.headers.etag).toBeUndefined();

    await t.createUser({ email: 'root@admin.example', role: 'admin' });
    const session = (await t.login('root@admin.example')).access;
    for (const token of ['wrong', INGEST_TOKEN.slice(0, -1), `${INGEST_TOKEN}x`, session]) {
      const res = await get(bearer(token));
      expect(res.statusCode).toBe(401);
      expect(json(res).code).toBe('token_invalid');
      expect(res.body).not.toContain('domains');
    }
    expect((await get({ authorization: `Basic ${INGEST_TOKEN}` })).statusCode).toBe(401);
    expect((await get({}, 'HEAD')).statusCode).toBe(401);
    expect((await get()).statusCode).toBe(200);
  });

  test('no QC_INGEST_TOKEN configured → 503 ingest_disabled, whatever is sent', async () => {
    const off = await createTestApp();
    try {
      for (const headers of [{}, bearer(INGEST_TOKEN), bearer('')]) {
        const res = await off.app.inject({ method: 'GET', url: URL_, headers });
        expect(res.statusCode).toBe(503);
        expect(json(res).code).toBe('ingest_disabled');
      }
    } finally {
      await off.close();
    }
  });
});

describe('the list', () => {
  test("the console's domains: A-label, lower case, sorted, each once; not cached unchecked", async () => {
    await ensureDomain(t.db, 'Zeta.Example');
    await ensureDomain(t.db, 'alpha.example');
    await t.createUser({ email: 'ann@mid-dle.example', domain: 'mid-dle.example' });
    await t.createUser({ email: 'bob@mid-dle.example', domain: 'mid-dle.example' });
    const now = Date.now();
    // As the domain administration stores an IDN name: its A-label.
    await t.db
      .insertInto('domains')
      .values({
        id: `idn-${randomBytes(4).toString('hex')}`,
        name: 'xn--bcher-kva.example',
        description: '',
        created_at: now,
        updated_at: now,
      })
      .execute();

    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toMatch(/(^|[ ,])no-cache($|,)/);
    // root@admin.example (above) has no domain: admin.example is not one.
    expect(JSON.parse(res.body)).toEqual({
      domains: ['alpha.example', 'mid-dle.example', 'xn--bcher-kva.example', 'zeta.example'],
    });
  });

  test('a strong ETag of the body; If-None-Match with it → 304 without a body, until the list changes', async () => {
    const first = await get();
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/); // strong: no W/
    expect((await get()).headers.etag).toBe(etag); // stable for the same list

    for (const inm of [etag, `"other", ${etag}`, `W/${etag}`, '*']) {
      const res = await get({ ...bearer(INGEST_TOKEN), 'if-none-match': inm });
      expect(res.statusCode).toBe(304);
      expect(res.body).toBe('');
      expect(res.headers.etag).toBe(etag);
    }
    expect((await get({ ...bearer(INGEST_TOKEN), 'if-none-match': '"other"' })).statusCode).toBe(200);

    // A domain created: the old ETag no longer matches, the new list comes with a new one.
    await ensureDomain(t.db, 'new.example');
    const changed = await get({ ...bearer(INGEST_TOKEN), 'if-none-match': etag });
    expect(changed.statusCode).toBe(200);
    expect(json<{ domains: string[] }>(changed).domains).toContain('new.example');
    expect(changed.headers.etag).not.toBe(etag);

    // ... and deleted: gone from the list, and the ETag is the one of the list before it.
    await t.db.deleteFrom('domains').where('name', '=', 'new.example').execute();
    const back = await get({ ...bearer(INGEST_TOKEN), 'if-none-match': changed.headers.etag as string });
    expect(back.statusCode).toBe(200);
    expect(json<{ domains: string[] }>(back).domains).not.toContain('new.example');
    expect(back.headers.etag).toBe(etag);
  });

  test('HEAD answers the same headers without the body', async () => {
    const full = await get();
    const head = await get(bearer(INGEST_TOKEN), 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers.etag).toBe(full.headers.etag);
    const cached = await get({ ...bearer(INGEST_TOKEN), 'if-none-match': full.headers.etag as string }, 'HEAD');
    expect(cached.statusCode).toBe(304);
  });

  test('described in the OpenAPI document with the ingest token', async () => {
    const doc = json<{ paths: Record<string, Record<string, { security?: object[] }>> }>(
      await t.app.inject({ method: 'GET', url: '/api/openapi.json' }),
    );
    expect(doc.paths[URL_]!.get!.security).toEqual([{ ingest: [] }]);
  });

  test('a database error is a 5xx, never an empty list', async () => {
    await t.db.schema.alterTable('domains').renameTo('domains_offline').execute();
    try {
      const res = await get();
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      expect(res.headers.etag).toBeUndefined();
      expect(res.body).not.toContain('"domains"');
    } finally {
      await t.db.schema.alterTable('domains_offline').renameTo('domains').execute();
    }
    expect((await get()).statusCode).toBe(200);
  });
});

describe('helpers', () => {
  test('mailstackDomains: IDNA A-labels, lower case, no trailing dot, no duplicates, code-point order', () => {
    expect(
      mailstackDomains(['Bücher.Example.', 'b.example', 'xn--bcher-kva.example', 'a-b.example', 'a.example']),
    ).toEqual(['a-b.example', 'a.example', 'b.example', 'xn--bcher-kva.example']);
    expect(mailstackDomains(['bad name.example', ''])).toEqual([]);
  });

  test('noneMatch: weak comparison, lists and *', () => {
    expect(noneMatch(undefined, '"x"')).toBe(false);
    expect(noneMatch('"x"', '"x"')).toBe(true);
    expect(noneMatch('W/"x"', '"x"')).toBe(true);
    expect(noneMatch('"a" , "x"', '"x"')).toBe(true);
    expect(noneMatch('"xy"', '"x"')).toBe(false);
    expect(noneMatch('*', '"x"')).toBe(true);
  });
});
