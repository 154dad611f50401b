import type { RspamdListName } from '@qc/contracts';
import { loadConfig } from '../../config';
import { newId } from '../../lib/ids';
import { ensureDomain } from '../domains/domains.service';
import { createTestApp, createTestEnv, json, type TestApp } from '../../test/helpers';
import { headerLine, mapsOfList, RSPAMD_MAPS } from './map-builder';
import { FETCH_RECORD_INTERVAL_MS } from './maps.service';

/** The map routes on a real app and database (SQLite, or PostgreSQL with QC_TEST_DATABASE_URL). */
const TOKEN = 'mApS-Tok3n_0123456789abcdefXYZ';
const basic = (password = TOKEN, user = 'rspamd') => ({
  authorization: `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`,
});
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ QC_RSPAMD_MAPS_TOKEN: TOKEN, QC_RSPAMD_MAPS_EXPIRES: '7' });
});
afterAll(() => t.close());

type Method = 'GET' | 'HEAD';
const fetchMap = (map: string, headers: Record<string, string> = {}, method: Method = 'GET', remoteAddress?: string) =>
  t.app.inject({ method, url: `/api/rspamd/maps/${map}`, headers: { ...basic(), ...headers }, remoteAddress });

/** A change as the rules' services make it: the rows and the list's version in one transaction. */
async function bump(list: RspamdListName, at = Date.now()) {
  const row = await t.db
    .selectFrom('rspamd_lists')
    .select('version')
    .where('name', '=', list)
    .executeTakeFirstOrThrow();
  await t.db
    .updateTable('rspamd_lists')
    .set({ version: Number(row.version) + 1, changed_at: at })
    .where('name', '=', list)
    .execute();
}

async function addFilter(
  type: 'domains' | 'ips' | 'users' | 'special',
  value: string,
  pattern_type: 'exact' | 'wildcard' | 'regex' | 'cidr',
  action: 'reject' | 'accept' | 'add_header' | 'quarantine' = 'reject',
  enabled = 1,
) {
  const id = newId();
  const now = Date.now();
  await t.db
    .insertInto('rspamd_filters')
    .values({ id, type, value, pattern_type, action, description: 'test', enabled, created_at: now, updated_at: now })
    .execute();
  await bump(`filters-${type}`);
  return id;
}

const lines = (body: string) => body.split('\n').filter((l) => l !== '');

describe('who may fetch', () => {
  test('no secret → 401 asking for basic auth; a wrong one, a bearer token or no password → 401', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/rspamd/maps/system-rules.json' });
    expect(none.statusCode).toBe(401);
    expect(json(none).code).toBe('not_authenticated');
    expect(none.headers['www-authenticate']).toMatch(/^Basic realm="rspamd-maps"/);
    expect(none.headers.etag).toBeUndefined();
    for (const headers of [
      basic('wrong-secret-0123456789abcdef'),
      basic(TOKEN.slice(0, -1)),
      basic(`${TOKEN}x`),
      { authorization: `Basic ${Buffer.from(TOKEN).toString('base64')}` }, // no "user:"
    ]) {
      const res = await fetchMap('system-rules.json', headers);
      expect(res.statusCode).toBe(401);
      expect(json(res).code).toBe('token_invalid');
      expect(res.body).not.toContain('rules');
    }
    expect((await fetchMap('system-rules.json', { authorization: `Bearer ${TOKEN}` })).statusCode).toBe(401);
    const head = await t.app.inject({ method: 'HEAD', url: '/api/rspamd/maps/system-rules.json' });
    expect(head.statusCode).toBe(401);
    expect((await fetchMap('system-rules.json', {}, 'HEAD', '127.0.0.1')).statusCode).toBe(200);
    // Any user name: Rspamd sends the one of the URL.
    expect((await fetchMap('system-rules.json', basic(TOKEN, 'anyone'))).statusCode).toBe(200);
    // Authentication comes before the map name is looked at.
    const unknown = await t.app.inject({ method: 'GET', url: '/api/rspamd/maps/nope' });
    expect(unknown.statusCode).toBe(401);
    const unknownAuthed = await fetchMap('nope');
    expect(unknownAuthed.statusCode).toBe(404);
    expect(json(unknownAuthed).code).toBe('not_found');
  });

  test('only from the allowed socket addresses (loopback by default), whatever X-Forwarded-For says', async () => {
    for (const address of ['127.0.0.1', '::1', '::ffff:127.0.0.1']) {
      expect({ address, status: (await fetchMap('system-rules.json', {}, 'GET', address)).statusCode }).toEqual({
        address,
        status: 200,
      });
    }
    for (const address of ['192.0.2.7', '127.0.0.2', '::ffff:172.28.0.10', 'fe80::1']) {
      const res = await fetchMap('system-rules.json', { 'x-forwarded-for': '127.0.0.1' }, 'GET', address);
      expect({ address, status: res.statusCode, code: json(res).code }).toEqual({
        address,
        status: 403,
        code: 'forbidden',
      });
    }
  });

  test('the allow-list comes from QC_RSPAMD_MAPS_ALLOW and is read on the socket even behind a trusted proxy', async () => {
    const app = await createTestApp({
      QC_RSPAMD_MAPS_TOKEN: TOKEN,
      QC_RSPAMD_MAPS_ALLOW: '172.28.0.20/32, 10.1.0.0/16',
      QC_TRUSTED_PROXIES: '172.28.0.10',
    });
    try {
      const get = (remoteAddress: string, headers: Record<string, string> = {}) =>
        app.app.inject({
          method: 'GET',
          url: '/api/rspamd/maps/apanel-filters.json',
          headers: { ...basic(), ...headers },
          remoteAddress,
        });
      expect((await get('172.28.0.20')).statusCode).toBe(200);
      expect((await get('10.1.200.3')).statusCode).toBe(200);
      expect((await get('127.0.0.1')).statusCode).toBe(403);
      // The host proxy relays a request "from" the allowed address: still its own address that counts.
      expect((await get('172.28.0.10', { 'x-forwarded-for': '172.28.0.20' })).statusCode).toBe(403);
    } finally {
      await app.close();
    }
  });

  test('QC_RSPAMD_MAPS_TOKEN unset → 503 maps_disabled, whatever is sent', async () => {
    const off = await createTestApp();
    try {
      for (const headers of [{}, basic()]) {
        const res = await off.app.inject({ method: 'GET', url: '/api/rspamd/maps/system-rules.json', headers });
        expect(res.statusCode).toBe(503);
        expect(json(res).code).toBe('maps_disabled');
      }
    } finally {
      await off.close();
    }
  });

  test('the settings are checked: a short, placeholder or URL-unsafe secret, a bad allow-list', async () => {
    const env = await createTestEnv();
    try {
      const load = (extra: Record<string, string>) => () => loadConfig({ ...env.env, ...extra }, env.tmpDir);
      expect(load({ QC_RSPAMD_MAPS_TOKEN: 'short-0123456789' })).toThrow(/QC_RSPAMD_MAPS_TOKEN: must be at least 24/);
      expect(load({ QC_RSPAMD_MAPS_TOKEN: 'change-me-change-me-change-me' })).toThrow(/placeholder/);
      expect(load({ QC_RSPAMD_MAPS_TOKEN: 'abcdefghijkl:mnopqrstuvwxyz0123' })).toThrow(/goes into a URL/);
      expect(load({ QC_RSPAMD_MAPS_TOKEN: 'abcdefghijkl@mnopqrstuvwxyz0123' })).toThrow(/goes into a URL/);
      for (const allow of ['10.0.0.0/33', 'localhost', '1.2.3.4/8/1', '::1/129', ',']) {
        expect(load({ QC_RSPAMD_MAPS_ALLOW: allow })).toThrow(/QC_RSPAMD_MAPS_ALLOW: must be a comma-separated list/);
      }
      const config = load({ QC_RSPAMD_MAPS_TOKEN: TOKEN })();
      expect(config.rspamdMaps).toEqual({ token: TOKEN, allow: ['127.0.0.1/32', '::1/128'], expiresSeconds: 5 });
      expect(load({})().rspamdMaps.token).toBeNull();
    } finally {
      await env.cleanup();
    }
  });
});

describe('the maps', () => {
  test('every map answers with a body that is never empty: a version line, or a JSON object', async () => {
    expect(RSPAMD_MAPS).toHaveLength(31);
    const text = RSPAMD_MAPS.filter((m) => m.format === 'text').map((m) => m.name);
    const json = RSPAMD_MAPS.filter((m) => m.format === 'json').map((m) => m.name);
    expect(json).toEqual(['apanel-filters.json', 'system-rules.json', 'sender-lists.json']);
    for (const name of text) {
      const res = await fetchMap(name);
      expect({ name, status: res.statusCode, type: res.headers['content-type'] }).toEqual({
        name,
        status: 200,
        type: 'text/plain; charset=utf-8',
      });
      expect(res.body).toMatch(new RegExp(`^# qconsole ${name} version \\d+\\n`));
    }
    for (const name of json) {
      const res = await fetchMap(name);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(JSON.parse(res.body)).toMatchObject({ qconsole: name, version: expect.any(Number) });
    }
    expect(mapsOfList('filters-domains')).toHaveLength(8);
    expect(mapsOfList('filters-special')).toEqual([
      'filters-special-regex-reject',
      'filters-special-regex-accept',
      'filters-special-regex-add_header',
      'filters-special-regex-quarantine',
    ]);
  });

  test('HEAD: the same headers, no body; ETag, Last-Modified (the list change), Expires (now + QC_RSPAMD_MAPS_EXPIRES)', async () => {
    const changedAt = Date.UTC(2026, 10, 27, 10, 0, 0, 750);
    await bump('filters-users', changedAt);
    const get = await fetchMap('filters-users-exact-reject');
    const head = await fetchMap('filters-users-exact-reject', {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    for (const h of ['etag', 'last-modified', 'content-type']) expect(head.headers[h]).toBe(get.headers[h]);
    expect(get.headers.etag).toMatch(/^"[A-Za-z0-9_-]{43}"$/); // strong: sha-256 of the body
    expect(get.headers['last-modified']).toBe('Fri, 27 Nov 2026 10:00:00 GMT');
    const expires = Date.parse(String(get.headers.expires));
    expect(expires).toBeGreaterThan(Date.now() + 5000);
    expect(expires).toBeLessThanOrEqual(Date.now() + 7000);
  });

  test('304: If-None-Match with the ETag, or If-Modified-Since at or after the change (ETag first)', async () => {
    await bump('filters-ips', Date.UTC(2026, 10, 27, 11, 0, 0, 400));
    const first = await fetchMap('filters-ips-radix-reject');
    const etag = String(first.headers.etag);
    const lm = String(first.headers['last-modified']);
    for (const method of ['GET', 'HEAD'] as const) {
      const byEtag = await fetchMap('filters-ips-radix-reject', { 'if-none-match': etag }, method);
      expect(byEtag.statusCode).toBe(304);
      expect(byEtag.body).toBe('');
      expect(byEtag.headers.etag).toBe(etag);
      expect((await fetchMap('filters-ips-radix-reject', { 'if-none-match': `W/${etag}` }, method)).statusCode).toBe(
        304,
      );
    }
    expect((await fetchMap('filters-ips-radix-reject', { 'if-modified-since': lm })).statusCode).toBe(304);
    const later = 'Fri, 27 Nov 2026 11:00:05 GMT';
    expect((await fetchMap('filters-ips-radix-reject', { 'if-modified-since': later })).statusCode).toBe(304);
    const earlier = 'Fri, 27 Nov 2026 10:59:59 GMT';
    expect((await fetchMap('filters-ips-radix-reject', { 'if-modified-since': earlier })).statusCode).toBe(200);
    expect((await fetchMap('filters-ips-radix-reject', { 'if-modified-since': 'yesterday' })).statusCode).toBe(200);
    // A stale ETag wins over a current date: two changes within one second share a Last-Modified.
    const stale = await fetchMap('filters-ips-radix-reject', { 'if-none-match': '"old"', 'if-modified-since': lm });
    expect(stale.statusCode).toBe(200);
  });

  test('a change, a disable and a delete each give a new ETag and Last-Modified; two in one second a new ETag', async () => {
    const map = 'filters-domains-exact-quarantine';
    const before = await fetchMap(map);
    const id = await addFilter('domains', 'held.example', 'exact', 'quarantine');
    const added = await fetchMap(map, { 'if-none-match': String(before.headers.etag) });
    expect(added.statusCode).toBe(200);
    expect(lines(added.body)).toContain(`held.example filter:${id}`);
    // The other maps of the list tell their new version too (their version line).
    expect((await fetchMap('filters-domains-exact-reject')).body).toMatch(/version \d+\n$/);

    const t0 = Date.UTC(2026, 10, 27, 12, 0, 0, 100);
    await t.db.updateTable('rspamd_filters').set({ enabled: 0 }).where('id', '=', id).execute();
    await bump('filters-domains', t0);
    const disabled = await fetchMap(map, { 'if-none-match': String(added.headers.etag) });
    expect(disabled.statusCode).toBe(200);
    expect(disabled.body).not.toContain(id);
    expect(disabled.headers['last-modified']).toBe('Fri, 27 Nov 2026 12:00:00 GMT');

    await t.db.updateTable('rspamd_filters').set({ enabled: 1 }).where('id', '=', id).execute();
    await bump('filters-domains', t0 + 500); // the same second
    const again = await fetchMap(map, {
      'if-none-match': String(disabled.headers.etag),
      'if-modified-since': String(disabled.headers['last-modified']),
    });
    expect(again.statusCode).toBe(200);
    expect(again.body).toContain(id);

    await t.db.deleteFrom('rspamd_filters').where('id', '=', id).execute();
    await bump('filters-domains', t0 + 2000);
    const deleted = await fetchMap(map, { 'if-modified-since': String(again.headers['last-modified']) });
    expect(deleted.statusCode).toBe(200);
    expect(deleted.body).not.toContain(id);
    expect(deleted.headers['last-modified']).toBe('Fri, 27 Nov 2026 12:00:02 GMT');
    expect(lines(deleted.body)).toHaveLength(1);
  });

  test('each filter in the map of its family, kind and action; disabled ones left out', async () => {
    const ids = {
      domExact: await addFilter('domains', 'xn--bcher-kva.example', 'exact', 'reject'),
      domWild: await addFilter('domains', '*.spam.example', 'wildcard', 'reject'),
      domRegex: await addFilter('domains', '/^(mx|smtp)[0-9]+\\.bad\\.example$/i', 'regex', 'accept'),
      off: await addFilter('domains', 'off.example', 'exact', 'reject', 0),
      userExact: await addFilter('users', 'news@promo.example', 'exact', 'add_header'),
      userWild: await addFilter('users', 'news-?@promo.example', 'wildcard', 'add_header'),
      ip: await addFilter('ips', '192.0.2.77', 'exact', 'quarantine'),
      ip6: await addFilter('ips', '2001:db8::/32', 'cidr', 'quarantine'),
      ipRegex: await addFilter('ips', '/^198\\.51\\.100\\.[0-9]+$/', 'regex', 'quarantine'),
      subjExact: await addFilter('special', 'Your invoice #42 is due', 'exact', 'reject'),
      subjWild: await addFilter('special', 'Win a * now?', 'wildcard', 'reject'),
      subjRegex: await addFilter('special', '/invoice \\d+ [#]paid\\ now/i', 'regex', 'reject'),
      subjUnicode: await addFilter('special', 'Grüße aus Köln', 'exact', 'quarantine'),
    };
    const body = async (map: string) => lines((await fetchMap(map)).body).slice(1);
    // A map lists its entries by id; ids made in one millisecond are not in the order they were made.
    const idOf = (line: string) => line.split(' filter:')[1]!;
    const byId = (entries: string[]) => [...entries].sort((a, b) => (idOf(a) < idOf(b) ? -1 : 1));
    expect(await body('filters-domains-exact-reject')).toEqual([`xn--bcher-kva.example filter:${ids.domExact}`]);
    expect(await body('filters-domains-regex-reject')).toEqual([`/^.*\\.spam\\.example$/i filter:${ids.domWild}`]);
    expect(await body('filters-domains-regex-accept')).toEqual([
      `/^(mx|smtp)[0-9]+\\.bad\\.example$/i filter:${ids.domRegex}`,
    ]);
    expect(await body('filters-users-exact-add_header')).toEqual([`news@promo.example filter:${ids.userExact}`]);
    expect(await body('filters-users-regex-add_header')).toEqual([
      `/^news-.@promo\\.example$/i filter:${ids.userWild}`,
    ]);
    expect(await body('filters-ips-radix-quarantine')).toEqual(
      byId([`192.0.2.77 filter:${ids.ip}`, `2001:db8::/32 filter:${ids.ip6}`]),
    );
    expect(await body('filters-ips-regex-quarantine')).toEqual([`/^198\\.51\\.100\\.[0-9]+$/ filter:${ids.ipRegex}`]);
    // Spaces and # would end the key or start a comment in a map line: \x20 and \x23.
    expect(await body('filters-special-regex-reject')).toEqual(
      byId([
        `/^Your\\x20invoice\\x20\\x2342\\x20is\\x20due$/i filter:${ids.subjExact}`,
        `/^Win\\x20a\\x20.*\\x20now.$/i filter:${ids.subjWild}`,
        `/invoice\\x20\\d+\\x20[\\x23]paid\\x20now/i filter:${ids.subjRegex}`,
      ]),
    );
    expect(await body('filters-special-regex-quarantine')).toEqual([
      `/^Grüße\\x20aus\\x20Köln$/iu filter:${ids.subjUnicode}`,
    ]);
    const all = (await Promise.all(RSPAMD_MAPS.map((m) => fetchMap(m.name)))).map((r) => r.body).join('\n');
    expect(all).not.toContain(ids.off);
  });

  test('the JSON maps: compiled patterns for the Lua prefilter', async () => {
    const now = Date.now();
    const apanel = newId();
    await t.db
      .insertInto('apanel_filters')
      .values(
        [
          { id: apanel, owner_id: null, from_pattern: '*@spam.example', to_pattern: '*', action: 'discard' as const },
          {
            id: newId(),
            owner_id: null,
            from_pattern: 'x@off.example',
            to_pattern: '*',
            action: 'reject' as const,
            enabled: 0,
          },
        ].map((r) => ({ description: 'd', enabled: 1, created_at: now, updated_at: now, ...r })),
      )
      .execute();
    await bump('apanel-filters');
    const system = newId();
    await t.db
      .insertInto('system_rules')
      .values({
        id: system,
        name: 'rule',
        from_pattern: '/^bulk-[0-9]+@/',
        subject_pattern: 'Big sale*',
        to_pattern: 'bob@corp.example',
        ip_pattern: '203.0.113.0/24',
        action: 'greylist',
        enabled: 1,
        created_at: now,
        updated_at: now,
      })
      .execute();
    await bump('system-rules');
    expect(JSON.parse((await fetchMap('apanel-filters.json')).body)).toMatchObject({
      qconsole: 'apanel-filters.json',
      filters: [{ token: `apanel:${apanel}`, from: '/^.*@spam\\.example$/i', to: null, action: 'discard' }],
    });
    expect(JSON.parse((await fetchMap('system-rules.json')).body)).toMatchObject({
      rules: [
        {
          token: `system:${system}`,
          from: '/^bulk-[0-9]+@/',
          subject: '/^Big sale.*$/i',
          to: '/^bob@corp\\.example$/i',
          ip: '203.0.113.0/24',
          action: 'greylist',
        },
      ],
    });
    const body = JSON.parse((await fetchMap('apanel-filters.json')).body) as { filters: unknown[] };
    expect(body.filters).toHaveLength(1);
  });

  test('sender-lists.json: every entry with its owner by name (user e-mail, @domain, *), live with the version', async () => {
    const domain = await ensureDomain(t.db, 'lists-map.example');
    const user = await t.createUser({ email: 'Owner@Lists-Map.Example' });
    const before = await fetchMap('sender-lists.json');
    const now = Date.now();
    const entry = (
      id: string,
      kind: 'whitelist' | 'blacklist',
      scope: 'user' | 'domain' | 'global',
      address: string,
    ) => ({
      id,
      kind,
      scope,
      address,
      user_id: scope === 'user' ? user.id : null,
      domain_id: scope === 'domain' ? domain.id : null,
      owner_key: scope === 'user' ? `user:${user.id}` : scope === 'domain' ? `domain:${domain.id}` : 'global',
      created_at: now,
      created_by_id: null,
      created_by_email: 'admin@example.com',
    });
    const ids = [newId(), newId(), newId()];
    await t.db
      .insertInto('sender_lists')
      .values([
        entry(ids[0]!, 'blacklist', 'user', 'spam@bad.example'),
        entry(ids[1]!, 'whitelist', 'domain', '@partner.example'),
        entry(ids[2]!, 'whitelist', 'global', 'news@xn--bcher-kva.example'),
      ])
      .execute();
    await bump('sender-lists');
    const res = await fetchMap('sender-lists.json', { 'if-none-match': String(before.headers.etag) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    const body = JSON.parse(res.body) as { qconsole: string; version: number; entries: unknown[] };
    expect(body.version).toBe(Number(JSON.parse(before.body).version) + 1);
    expect(body.entries).toEqual(
      expect.arrayContaining([
        ['owner@lists-map.example', 'spam@bad.example', 'b', ids[0]],
        ['@lists-map.example', '@partner.example', 'w', ids[1]],
        ['*', 'news@xn--bcher-kva.example', 'w', ids[2]],
      ]),
    );
    // The user goes (ON DELETE CASCADE): so does their entry, with the next version.
    await t.db.deleteFrom('users').where('id', '=', user.id).execute();
    await bump('sender-lists');
    const after = JSON.parse((await fetchMap('sender-lists.json')).body) as { entries: unknown[][] };
    expect(after.entries.map((e) => e[3])).not.toContain(ids[0]);
    expect(after.entries.map((e) => e[3])).toEqual(expect.arrayContaining([ids[1], ids[2]]));
  });

  test('a database error is a 5xx, never an empty or stale map', async () => {
    const broken = await createTestApp({ QC_RSPAMD_MAPS_TOKEN: TOKEN });
    const ok = await broken.app.inject({
      method: 'GET',
      url: '/api/rspamd/maps/filters-users-exact-reject',
      headers: basic(),
    });
    expect(ok.statusCode).toBe(200); // built and kept: the next answer must still ask the database
    await broken.database.close();
    try {
      for (const map of ['filters-users-exact-reject', 'system-rules.json']) {
        for (const method of ['GET', 'HEAD'] as const) {
          const res = await broken.app.inject({ method, url: `/api/rspamd/maps/${map}`, headers: basic() });
          expect({ map, method, status: res.statusCode >= 500 }).toEqual({ map, method, status: true });
          expect(res.body).not.toContain('qconsole');
          expect(res.headers.etag).toBeUndefined();
        }
      }
    } finally {
      // Its database is closed already: closing the app fails, its schema and files still go.
      await broken.close().catch(() => {});
    }
  });
});

describe('the fetch record', () => {
  const record = (map: string) =>
    t.db.selectFrom('rspamd_map_fetches').selectAll().where('map', '=', map).executeTakeFirst();
  const waitFor = async <T>(read: () => Promise<T>, ok: (v: T) => boolean) => {
    const end = Date.now() + 5000;
    let v = await read();
    while (!ok(v) && Date.now() < end) {
      await new Promise((r) => setTimeout(r, 20));
      v = await read();
    }
    return v;
  };

  test('a GET or a 304 records the version Rspamd has; a HEAD that announces a change does not; throttled', async () => {
    const map = 'filters-special-regex-accept';
    const version = async () =>
      Number(
        (
          await t.db
            .selectFrom('rspamd_lists')
            .select('version')
            .where('name', '=', 'filters-special')
            .executeTakeFirstOrThrow()
        ).version,
      );
    const held = await version();
    await fetchMap(map);
    expect(
      Number(
        (
          await waitFor(
            () => record(map),
            (r) => Number(r?.version) === held,
          )
        )?.version,
      ),
    ).toBe(held);
    await bump('filters-special');
    const head = await fetchMap(map, {}, 'HEAD');
    expect(head.statusCode).toBe(200);
    await new Promise((r) => setTimeout(r, 50));
    expect(Number((await record(map))?.version)).toBe(held); // Rspamd has not got the new one yet

    const v1 = await version();
    const before = Date.now();
    const got = await fetchMap(map);
    const first = await waitFor(
      () => record(map),
      (r) => Number(r?.version) === v1,
    );
    expect(first).toMatchObject({ map, list: 'filters-special', version: v1 });
    expect(Number(first!.fetched_at)).toBeGreaterThanOrEqual(before);
    expect(got.body).toContain(headerLine(map, v1));

    // Polled again at once: not written again (within FETCH_RECORD_INTERVAL_MS) ...
    const notModified = await fetchMap(map, { 'if-none-match': String(got.headers.etag) });
    expect(notModified.statusCode).toBe(304);
    await new Promise((r) => setTimeout(r, 50));
    expect(Number((await record(map))!.fetched_at)).toBe(Number(first!.fetched_at));
    expect(FETCH_RECORD_INTERVAL_MS).toBeGreaterThanOrEqual(5000);

    // ... but a new version is, at once.
    await bump('filters-special');
    await fetchMap(map);
    const second = await waitFor(
      () => record(map),
      (r) => Number(r?.version) === v1 + 1,
    );
    expect(Number(second!.version)).toBe(v1 + 1);
  });
});

describe('the log', () => {
  test('a poll (200 or 304, GET or HEAD) is one debug line, never info; a refusal is a warning, without the secret', async () => {
    const lines: { level: number; msg: string; res?: { statusCode: number } }[] = [];
    const app = await createTestApp(
      { QC_RSPAMD_MAPS_TOKEN: TOKEN, QC_LOG_LEVEL: 'debug' },
      { logStream: { write: (line: string) => void lines.push(JSON.parse(line)) } },
    );
    try {
      const linesOf = async (headers: Record<string, string>, method: Method = 'GET') => {
        const from = lines.length;
        const res = await app.app.inject({ method, url: '/api/rspamd/maps/system-rules.json', headers });
        await new Promise((r) => setTimeout(r, 20)); // onResponse runs once the answer is sent
        return lines
          .slice(from)
          .map((l) => ({ level: l.level, msg: l.msg, status: l.res?.statusCode ?? res.statusCode }));
      };
      const polled = (status: number) => [{ level: 20, msg: 'Rspamd map answered', status }];
      const first = await app.app.inject({
        method: 'GET',
        url: '/api/rspamd/maps/system-rules.json',
        headers: basic(),
      });
      expect(await linesOf(basic())).toEqual(polled(200));
      expect(await linesOf({ ...basic(), 'if-none-match': String(first.headers.etag) })).toEqual(polled(304));
      expect(await linesOf({ ...basic(), 'if-none-match': String(first.headers.etag) }, 'HEAD')).toEqual(polled(304));
      expect(await linesOf(basic(), 'HEAD')).toEqual(polled(200));
      // A wrong secret is logged at warn (seen at the default level, info), and never the secret sent.
      const from = lines.length;
      expect(await linesOf(basic(`${TOKEN}x`))).toEqual([
        { level: 40, msg: 'Rspamd map request refused', status: 401 },
      ]);
      const logged = JSON.stringify(lines.slice(from));
      expect(logged).not.toContain(TOKEN);
      expect(logged).not.toContain(basic(`${TOKEN}x`).authorization.slice('Basic '.length));
    } finally {
      await app.close();
    }
  });
});
