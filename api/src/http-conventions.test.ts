import { bearer, json, type TestApp } from './test/helpers';
import { ingestOk, meta, mime, startQuarantineSuite, type QuarantineSuite } from './test/quarantine';

/** What holds for every route alike: caching, authentication order, query parsing, downloads, OpenAPI. */
let suite: QuarantineSuite;
let t: TestApp;
let token: string;
const ANN = 'ann@a.example';

beforeAll(async () => {
  suite = await startQuarantineSuite([[ANN, 'user', 'a.example']]);
  ({ t } = suite);
  token = suite.tokens[ANN]!;
});
afterAll(() => suite.close());

const get = (url: string, headers: Record<string, string> = bearer(token)) =>
  t.app.inject({ method: 'GET', url, headers });

describe('caching', () => {
  it('no api answer comes from a shared cache or is reused unchecked: tokens, the user, lists and errors', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login/',
      payload: { email: ANN, password: 'correct horse battery' },
    });
    expect(login.statusCode).toBe(200);
    for (const res of [login, await get('/api/users/me/'), await get('/api/quarantine/'), await get('/api/nope/')]) {
      expect(res.headers['cache-control']).toBe('private, no-cache');
    }
  });
});

describe('authentication comes before validation', () => {
  it.each([
    ['GET', '/api/history/?page_size=abc'],
    ['GET', '/api/quarantine/?score_min=x'],
    ['GET', '/api/statistics/?days=3'],
    ['POST', '/api/quarantine/x/release/'],
    ['POST', '/api/quarantine/bulk/'],
  ])('%s %s without a token: 401 naming the Bearer scheme, not a 400 describing the schema', async (method, url) => {
    const res = await t.app.inject({
      method: method as 'GET' | 'POST',
      url,
      payload: method === 'POST' ? { confirm_resend: 1 } : undefined,
    });
    expect(res.statusCode).toBe(401);
    expect(res.headers['www-authenticate']).toBe('Bearer');
    expect(json(res).errors).toBeUndefined();
  });
});

describe('query and body parsing', () => {
  it.each([
    ['page_size=0x10', 'page_size'],
    ['page_size=1e1', 'page_size'],
    ['score_min=0x10', 'score_min'],
    ['score_min=%20', 'score_min'],
    ['score_max=Infinity', 'score_max'],
  ])('%s is refused: numbers are plain decimal', async (query, field) => {
    const res = await get(`/api/quarantine/?${query}`);
    expect(res.statusCode).toBe(400);
    expect(Object.keys(json<{ errors: object }>(res).errors)).toEqual([field]);
  });

  it('plain decimals are read as written; an empty parameter is absent', async () => {
    expect((await get('/api/quarantine/?page_size=07&score_min=-1.5&score_max=.5')).statusCode).toBe(200);
    expect((await get('/api/quarantine/?page_size=&status=&score_min=')).statusCode).toBe(200);
  });

  it('a parameter given twice is a 400 saying so', async () => {
    const res = await get('/api/quarantine/?status=pending&status=released');
    expect(res.statusCode).toBe(400);
    expect(json(res)).toMatchObject({ code: 'validation_error', errors: { status: 'Given more than once.' } });
    expect(json(await get('/api/history/?page_size=1&page_size=2')).errors).toEqual({
      page_size: 'Given more than once.',
    });
  });

  it('a page of the console may repeat a parameter: only the api refuses it', async () => {
    const page = await t.app.inject({
      method: 'GET',
      url: '/mail?status=a&status=b',
      headers: { accept: 'text/html' },
    });
    expect(page.statusCode).not.toBe(400);
  });

  it('a text/plain body is an unsupported media type, like any body that is not JSON', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/quarantine/bulk/',
      headers: { ...bearer(token), 'content-type': 'text/plain' },
      payload: 'release everything',
    });
    expect(res.statusCode).toBe(415);
    expect(json(res).code).toBe('unsupported_media_type');
  });
});

describe('downloads', () => {
  const history = async () => json<{ results: { action: string }[] }>(await get('/api/history/')).results;

  it('names the file after its subject as written (filename*), with an ASCII name beside it', async () => {
    // U+202E (right-to-left override) would make the name read backwards: it is dropped.
    const subject = 'Счёт №5 \u202eexe.pdf "quoted"';
    const id = await ingestOk(
      t,
      meta({ rcpt_to: [ANN] }),
      mime({ subject: `=?UTF-8?B?${Buffer.from(subject).toString('base64')}?=` }),
    );
    const res = await get(`/api/quarantine/${id}/raw/`);
    expect(res.statusCode).toBe(200);
    const disposition = res.headers['content-disposition'] as string;
    const written = decodeURIComponent(/filename\*=UTF-8''([^;\s]+)/.exec(disposition)![1]!);
    expect(written).toBe(`Счёт №5 _exe.pdf _quoted-${id}.eml`);
    expect(/filename="([^"]+)"/.exec(disposition)![1]).toBe(`No5_exe.pdf_quoted-${id}.eml`);
    expect(disposition).not.toMatch(/[^\x20-\x7e]/);
    expect(res.headers['cache-control']).toBe('private, no-store');
  });

  it('a HEAD on the raw message is not a download: no file, no history row', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: [ANN] }), mime());
    const before = (await history()).length;
    const res = await t.app.inject({ method: 'HEAD', url: `/api/quarantine/${id}/raw/`, headers: bearer(token) });
    expect(res.statusCode).toBe(404);
    expect((await history()).length).toBe(before);
    expect((await get(`/api/quarantine/${id}/raw/`)).statusCode).toBe(200);
    expect((await history()).length).toBe(before + 1);
  });
});

describe('the OpenAPI document', () => {
  it('describes downloads as files of their type, and the ingest with its own token', async () => {
    const doc = json<{
      paths: Record<string, Record<string, { security?: object[]; responses: Record<string, { content?: object }> }>>;
      components: { securitySchemes: Record<string, object> };
    }>(await t.app.inject({ method: 'GET', url: '/api/openapi.json' }));
    const raw = doc.paths['/api/quarantine/{id}/raw/']!.get!.responses['200']!;
    expect(Object.keys(raw.content!)).toEqual(['message/rfc822']);
    const image = doc.paths['/api/feedback/{id}/images/{imageId}/']!.get!.responses['200']!;
    expect(Object.keys(image.content!)).toEqual(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);
    expect(doc.paths['/api/quarantine/ingest/']!.post!.security).toEqual([{ ingest: [] }]);
    // Every operation has a name of its own, for generated clients.
    const ids = Object.values(doc.paths).flatMap((ops) =>
      Object.values(ops).map((op) => (op as { operationId?: string }).operationId),
    );
    expect(ids.length).toBeGreaterThan(20);
    expect(ids.every((id) => typeof id === 'string')).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/quarantine/{id}/raw/']!.get).toMatchObject({ operationId: 'getQuarantineIdRaw' });
    // Numbers in query strings are documented as numbers, with their bounds.
    const list = doc.paths['/api/quarantine/']!.get as unknown as { parameters: { name: string; schema: object }[] };
    expect(list.parameters.find((p) => p.name === 'page_size')!.schema).toMatchObject({
      type: 'integer',
      minimum: 1,
      maximum: 200,
    });
    expect(list.parameters.find((p) => p.name === 'score_min')!.schema).toMatchObject({ type: 'number' });
    expect(doc.components.securitySchemes.ingest).toBeDefined();
  });
});

describe('request bodies', () => {
  it.each([
    ['PATCH', '/api/users/me/', { first_name: 'Ann', role: 'admin' }, 'role'],
    ['PUT', '/api/users/me/preferences/', { theme_mode: 'dark', default_page_size: 50, is_admin: true }, 'is_admin'],
    ['POST', '/api/quarantine/bulk/', { ids: ['x'], action: 'delete', force: true }, 'force'],
    ['POST', '/api/quarantine/x/release/', { confirm_resend: true, to: 'me@evil.example' }, 'to'],
    ['POST', '/api/users/me/password/', { current_password: 'a', new_password: 'bbbbbbbb', user_id: 'u' }, 'user_id'],
  ])(
    '%s %s: a field the route does not take is a 400 naming it, and nothing changes',
    async (method, url, payload, field) => {
      const before = json(await get('/api/users/me/'));
      const res = await t.app.inject({ method: method as 'POST', url, headers: bearer(token), payload });
      expect(res.statusCode).toBe(400);
      expect(json(res)).toMatchObject({
        code: 'validation_error',
        errors: { [field]: 'Not a field of this request.' },
      });
      expect(json(await get('/api/users/me/'))).toEqual(before);
    },
  );
});

describe('a URL that cannot be decoded', () => {
  it('sends a browser to the not-found page, and gives an api client the error shape', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/mail/%E0%A4%A', headers: { accept: 'text/html' } });
    expect(page.statusCode).toBe(302);
    expect(page.headers.location).toBe('/not-found');
    const api = await get('/api/quarantine/%E0%A4%A/', { ...bearer(token), accept: 'text/html' });
    expect(api.statusCode).toBe(400);
    expect(api.headers['x-content-type-options']).toBe('nosniff');
    expect(json(api)).toEqual({ detail: 'The URL is not valid.', code: 'bad_request' });
  });
});
