import { z } from 'zod';
import { duplicateKey, strictBody } from './lib/strict-json';
import { bearer, createMfaUser, createTestApp, PASSWORD, type TestApp } from './test/helpers';
import { INGEST_TOKEN } from './test/quarantine';

// Issue 21 items 6 (strict bodies: unknown fields, duplicate keys) and 7 (an encoded /api prefix).

let t: TestApp;
let token: string;
let adminToken: string;
beforeAll(async () => {
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
  await t.createUser({ email: 'ann@example.com' });
  token = (await t.login('ann@example.com')).access;
  await t.createUser({ email: 'root@example.com', role: 'admin' });
  adminToken = (await t.login('root@example.com')).access;
});
afterAll(() => t.close());

const post = (url: string, payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, payload, headers: { 'content-type': 'application/json', ...headers } });

describe('duplicate keys (item 6)', () => {
  test('a login with two password keys is refused with 400, whichever comes first', async () => {
    for (const body of [
      `{"email":"ann@example.com","password":"wrong","password":"${PASSWORD}"}`,
      `{"email":"ann@example.com","password":"${PASSWORD}","password":"wrong"}`,
      `{"email":"ann@example.com","password":"wrong","pass\\u0077ord":"${PASSWORD}"}`,
    ]) {
      const res = await post('/api/auth/login/', body);
      expect([body, res.statusCode]).toEqual([body, 400]);
      expect(res.json()).toEqual({
        detail: expect.any(String),
        code: 'validation_error',
        errors: { password: 'Given more than once.' },
      });
    }
    // The same body without the duplicate signs in.
    expect((await post('/api/auth/login/', `{"email":"ann@example.com","password":"${PASSWORD}"}`)).statusCode).toBe(
      200,
    );
  });

  test('a duplicate inside a nested object is refused too; equal keys in sibling objects are not duplicates', async () => {
    expect(duplicateKey('{"a":{"b":1,"b":2}}')).toBe('b');
    expect(duplicateKey('[{"a":1},{"a":2}]')).toBeNull();
    expect(duplicateKey('{"a":{"x":1},"b":{"x":1}}')).toBeNull();
    expect(duplicateKey('{"a":"\\"a\\":","b":["a","a"]}')).toBeNull(); // keys inside strings and arrays
    expect(duplicateKey('{"a" : 1, "a"\n: 2}')).toBe('a');
    const res = t.app.inject({
      method: 'PATCH',
      url: '/api/users/me/',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '{"first_name":"Ann","first_name":"Eve"}',
    });
    expect((await res).statusCode).toBe(400);
  });

  test('the check costs little: a 900 KB body is scanned in well under the parse budget', () => {
    const big = JSON.stringify({
      items: Array.from({ length: 20_000 }, (_, i) => ({ id: `x${i}`, v: 'y'.repeat(20) })),
    });
    expect(big.length).toBeGreaterThan(800_000);
    const start = process.hrtime.bigint();
    expect(duplicateKey(big)).toBeNull();
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    expect(ms).toBeLessThan(500); // ~10 ms on an idle machine; generous for a busy one
  });
});

describe('unknown fields (item 6)', () => {
  test('sign-in with an unknown field → 400 naming it', async () => {
    const res = await post(
      '/api/auth/login/',
      JSON.stringify({ email: 'ann@example.com', password: PASSWORD, role: 'admin' }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error', errors: { role: 'Not a field of this request.' } });
  });

  test('verify-totp with an unknown field → 400, and the challenge is still usable', async () => {
    const mfa = await createMfaUser(t, 'mfa-strict@example.com');
    const challenge = (await t.login(mfa.email)) as unknown as { partial_token: string };
    const res = await post(
      '/api/auth/verify-totp/',
      JSON.stringify({ partial_token: challenge.partial_token, backup_code: mfa.backupCodes[0], remember: true }),
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_error');
    const ok = await post(
      '/api/auth/verify-totp/',
      JSON.stringify({ partial_token: challenge.partial_token, backup_code: mfa.backupCodes[0] }),
    );
    expect(ok.statusCode).toBe(200);
  });

  test('refresh and logout with an unknown field → 400', async () => {
    const { refresh } = await t.login('ann@example.com');
    for (const url of ['/api/auth/refresh/', '/api/auth/logout/']) {
      const res = await post(url, JSON.stringify({ refresh, extra: 1 }));
      expect([url, res.statusCode]).toEqual([url, 400]);
    }
  });
});

// The JSON Schema of the OpenAPI document, as far as these tests read it.
interface JsonSchema {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  additionalProperties?: unknown;
  items?: JsonSchema;
  prefixItems?: JsonSchema[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  enum?: unknown[];
}
interface JsonBodyRoute {
  method: string;
  path: string;
  auth: 'bearer' | 'ingest' | null;
  params: { name: string; schema: JsonSchema }[];
  schema: JsonSchema;
}

/** Every route of the OpenAPI document whose body may be JSON, with its body's schema. */
function jsonBodyRoutes(): { routes: JsonBodyRoute[]; resolve: (s: JsonSchema) => JsonSchema } {
  interface Operation {
    requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
    security?: Record<string, unknown>[];
    parameters?: { in: string; name: string; schema: JsonSchema }[];
  }
  const doc = t.app.swagger() as unknown as {
    paths: Record<string, Record<string, Operation>>;
    components?: { schemas?: Record<string, JsonSchema> };
  };
  const resolve = (s: JsonSchema): JsonSchema =>
    s.$ref ? resolve(doc.components!.schemas![s.$ref.replace('#/components/schemas/', '')]!) : s;
  const routes: JsonBodyRoute[] = [];
  for (const [path, operations] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(operations)) {
      const schema = op.requestBody?.content?.['application/json']?.schema;
      if (!schema) continue;
      const security = op.security ?? [];
      const auth = security.some((s) => 'ingest' in s)
        ? 'ingest'
        : security.some((s) => 'bearer' in s)
          ? 'bearer'
          : null;
      const params = (op.parameters ?? []).filter((p) => p.in === 'path');
      routes.push({ method: method.toUpperCase(), path, auth, params, schema });
    }
  }
  return { routes, resolve };
}

/** Each schema that may validate an object, with its place (`lines[]`), through refs, unions and arrays. */
function objectSchemas(
  schema: JsonSchema,
  resolve: (s: JsonSchema) => JsonSchema,
  at = '',
  seen = new Set<JsonSchema>(),
): { at: string; schema: JsonSchema }[] {
  const s = resolve(schema);
  if (seen.has(s)) return [];
  seen.add(s);
  const found: { at: string; schema: JsonSchema }[] = [];
  const types = ([] as (string | undefined)[]).concat(s.type);
  if (types.includes('object') || s.properties) found.push({ at: at || '(body)', schema: s });
  for (const [key, sub] of Object.entries(s.properties ?? {}))
    found.push(...objectSchemas(sub, resolve, `${at}.${key}`, seen));
  for (const sub of [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])])
    found.push(...objectSchemas(sub, resolve, at, seen));
  for (const sub of [s.items, ...(s.prefixItems ?? [])])
    if (sub) found.push(...objectSchemas(sub, resolve, `${at}[]`, seen));
  return found;
}

/**
 * A body that has `zz` in every object the schema certainly reads as an object: the top level, and
 * each field (or array's first element) that is an object or null, not inside a union of objects
 * (zod reports a union's failure as one issue). Returns the body and the error keys expected.
 */
function probe(schema: JsonSchema, resolve: (s: JsonSchema) => JsonSchema, at = ''): { body: unknown; keys: string[] } {
  let s = resolve(schema);
  const branches = (s.anyOf ?? s.oneOf ?? []).map(resolve).filter((b) => b.type !== 'null');
  if (branches.length === 1) s = branches[0]!;
  else if (branches.length > 1) return { body: { zz: 1 }, keys: [] }; // refused, but as invalid_union
  if (s.type === 'array' && s.items) {
    const item = probe(s.items, resolve, `${at}.0`);
    return { body: [item.body], keys: item.keys };
  }
  if (s.type !== 'object' && !s.properties) return { body: 'x', keys: [] };
  const body: Record<string, unknown> = { zz: 1 };
  const keys = [`${at}.zz`.slice(1)];
  for (const [key, sub] of Object.entries(s.properties ?? {})) {
    const r = resolve(sub);
    const inner = (r.anyOf ?? [r]).map(resolve).filter((b) => b.type !== 'null');
    const nested = inner.length === 1 && (inner[0]!.type === 'object' || inner[0]!.type === 'array');
    const arrayOfScalars = nested && inner[0]!.type === 'array' && !objectSchemas(inner[0]!, resolve).length;
    if (!nested || arrayOfScalars) continue;
    const p = probe(inner[0]!, resolve, `${at}.${key}`);
    body[key] = p.body;
    keys.push(...p.keys);
  }
  return { body, keys };
}

describe('strictBody (item 6)', () => {
  const refused = (schema: z.ZodType, value: unknown) =>
    strictBody(schema)
      .safeParse(value)
      .error?.issues.filter((i) => i.code === 'unrecognized_keys' || i.code === 'invalid_union')
      .map((i) => [i.path.join('.'), i.code]);

  test('objects inside arrays, records, wrappers, pipes and unions are strict too', () => {
    const item = z.object({ a: z.number() });
    expect(refused(z.object({ list: z.array(item) }), { list: [{ a: 1, zz: 1 }] })).toEqual([
      ['list.0', 'unrecognized_keys'],
    ]);
    expect(refused(z.object({ o: item.optional().nullable() }), { o: { a: 1, zz: 1 } })).toEqual([
      ['o', 'unrecognized_keys'],
    ]);
    expect(refused(z.object({ o: item.default({ a: 0 }) }), { o: { a: 1, zz: 1 } })).toEqual([
      ['o', 'unrecognized_keys'],
    ]);
    expect(refused(z.record(z.string(), item), { k: { a: 1, zz: 1 } })).toEqual([['k', 'unrecognized_keys']]);
    expect(
      refused(
        item.transform((v) => v.a),
        { a: 1, zz: 1 },
      ),
    ).toEqual([['', 'unrecognized_keys']]);
    const tagged = z.discriminatedUnion('kind', [
      z.object({ kind: z.literal('a'), inner: item }),
      z.object({ kind: z.literal('b') }),
    ]);
    expect(refused(tagged, { kind: 'a', inner: { a: 1, zz: 1 } })).toEqual([['inner', 'unrecognized_keys']]);
    expect(strictBody(tagged).safeParse({ kind: 'b' }).success).toBe(true);
  });

  test('refinements are kept; intersections, passthrough and unchanged schemas are left as they are', () => {
    const refined = z.object({ a: z.number() }).refine((v) => v.a > 0, 'positive');
    expect(strictBody(refined).safeParse({ a: -1 }).error?.issues[0]?.message).toBe('positive');
    expect(refused(refined, { a: 1, zz: 1 })).toEqual([['', 'unrecognized_keys']]);
    const both = z.intersection(z.object({ a: z.number() }), z.object({ b: z.number() }));
    expect(strictBody(both)).toBe(both);
    const open = z.object({ a: z.number() }).passthrough();
    expect(strictBody(open)).toBe(open);
    expect(strictBody(z.array(z.string()))).toBeInstanceOf(z.ZodArray);
    const described = z.object({ a: z.number() }).describe('the body');
    expect(strictBody(described)).not.toBe(described);
    expect(strictBody(described).description).toBe('the body');
  });

  test('a recursive schema (a getter in its shape) is made strict without looping', () => {
    const node = z.object({
      name: z.string(),
      get children(): z.ZodArray<typeof node> {
        return z.array(node);
      },
    });
    expect(refused(node, { name: 'a', children: [], zz: 1 })).toEqual([['', 'unrecognized_keys']]);
  });
});

describe('unknown fields on every route with a JSON body (item 6)', () => {
  test('the document lists the JSON bodies, the Haraka log ingest among them', () => {
    const { routes } = jsonBodyRoutes();
    expect(routes.length).toBeGreaterThan(25);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toContain('POST /api/haraka/logs/ingest/');
  });

  // What the validation uses (the same strictBody) is what the document shows: every object in
  // every body, nested ones included (the log lines under `lines`), has additionalProperties false.
  test('every object schema in every body is strict', () => {
    const { routes, resolve } = jsonBodyRoutes();
    const loose = routes.flatMap((r) =>
      objectSchemas(r.schema, resolve)
        .filter((o) => o.schema.additionalProperties !== false)
        .map((o) => `${r.method} ${r.path} ${o.at}`),
    );
    expect(loose).toEqual([]);
  });

  // The requests themselves: each route refuses an unknown field at the top and in each nested
  // object with 400 naming it, before any handler (ids and tokens in the path are placeholders).
  test('each route answers 400 naming the unknown fields, top level and nested', async () => {
    const { routes, resolve } = jsonBodyRoutes();
    const answers: string[] = [];
    for (const route of routes) {
      let url = route.path;
      for (const p of route.params) {
        const value = p.schema.enum ? String(p.schema.enum[0]) : 'x';
        url = url.replace(`{${p.name}}`, encodeURIComponent(value));
      }
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (route.auth === 'bearer') headers.authorization = `Bearer ${adminToken}`;
      if (route.auth === 'ingest') headers.authorization = `Bearer ${INGEST_TOKEN}`;
      const { body, keys } = probe(route.schema, resolve);
      const res = await t.app.inject({ method: route.method, url, headers, payload: JSON.stringify(body) });
      const errors = res.statusCode === 400 ? ((res.json().errors ?? {}) as Record<string, string>) : {};
      const unnamed = keys.filter((k) => errors[k] !== 'Not a field of this request.');
      answers.push(`${route.method} ${route.path} ${res.statusCode} ${unnamed.join(' ')}`.trim());
    }
    expect(answers).toEqual(routes.map((r) => `${r.method} ${r.path} 400`));
  });
});

describe('a percent-encoded /api prefix (item 7)', () => {
  test.each(['/%61pi/users/me/', '/%61%70%69/users/me/', '/api/%75sers/me/'])(
    '%s gets the api headers, as /api/users/me/ does',
    async (url) => {
      const plain = await t.app.inject({ method: 'GET', url: '/api/users/me/', headers: bearer(token) });
      const encoded = await t.app.inject({ method: 'GET', url, headers: bearer(token) });
      expect(encoded.statusCode).toBe(200);
      expect(encoded.json()).toEqual(plain.json());
      for (const header of ['cache-control', 'content-security-policy', 'x-content-type-options', 'x-frame-options']) {
        expect([header, encoded.headers[header]]).toEqual([header, plain.headers[header]]);
      }
      expect(encoded.headers['cache-control']).toMatch(/private/);
    },
  );

  test('the repeated-parameter guard holds on an encoded prefix', async () => {
    const res = await t.app.inject({
      method: 'GET',
      url: '/%61pi/quarantine/?status=held&status=released',
      headers: bearer(token),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_error', errors: { status: 'Given more than once.' } });
  });

  test('an unknown encoded api path is the api 404, not the console page', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/%61pi/nope/', headers: { accept: 'text/html' } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not found.', code: 'not_found' });
    expect(res.headers['cache-control']).toBe('private, no-cache');
  });
});
