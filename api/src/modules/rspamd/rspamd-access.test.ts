import { createTestApp, type TestApp } from '../../test/helpers'; // first: it makes jest able to load kysely
import { RSPAMD_LISTS, type HeldByRule, type RspamdStatus } from '@qc/contracts';
import { INGEST_TOKEN, ingestOk, meta } from '../../test/quarantine';
import { mapsOfList } from '../rspamd-maps/map-builder';
import { caller, listVersion, ruleHistory, signIn, type Method } from './rspamd-test-helpers';

let t: TestApp;
let call: ReturnType<typeof caller>;
let tokens: Record<string, string>;
const ADMIN = 'root@admin.example';
const BOSS = 'boss@a.example';
const ANN = 'ann@a.example';
const R = '/api/rspamd';

beforeAll(async () => {
  t = await createTestApp({ QC_TRUSTED_PROXIES: '127.0.0.1', QC_INGEST_TOKEN: INGEST_TOKEN });
  tokens = await signIn(t, [
    [ADMIN, 'admin'],
    [BOSS, 'domain_admin', 'a.example'],
    [ANN, 'user', 'a.example'],
  ]);
  call = caller({ t, tokens });
});
afterAll(() => t.close());

async function created(url: string, body: object): Promise<string> {
  const res = await call('POST', url, ADMIN, body);
  if (res.statusCode !== 201) throw new Error(`create: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

const newFilter = (value: string) =>
  created(`${R}/filters/domains/`, { value, pattern_type: 'exact', action: 'reject', description: 'Permissions' });
const newApanel = (from: string) =>
  created(`${R}/apanel-filters/`, { from, to: '*', action: 'reject', description: 'Permissions' });
const newRule = (name: string) => created(`${R}/system-rules/`, { name, from: `*@${name}.example`, action: 'reject' });

/** Every route of the module, with a body that an admin would get a 2xx for. */
function routes(ids: { filter: string; apanel: string; rule: string }): [Method, string, object?][] {
  return [
    ...['domains', 'ips', 'users', 'special'].map((type): [Method, string] => ['GET', `${R}/filters/${type}/`]),
    [
      'POST',
      `${R}/filters/domains/`,
      { value: 'perm-new.example', pattern_type: 'exact', action: 'reject', description: 'New one' },
    ],
    [
      'POST',
      `${R}/filters/domains/?dry_run=true`,
      { value: 'perm-dry.example', pattern_type: 'exact', action: 'reject', description: 'Dry one' },
    ],
    ['GET', `${R}/filters/domains/${ids.filter}/`],
    ['PATCH', `${R}/filters/domains/${ids.filter}/`, { description: 'Changed' }],
    ['POST', `${R}/filters/domains/bulk/`, { action: 'disable', ids: [ids.filter] }],
    ['DELETE', `${R}/filters/domains/${ids.filter}/`],
    ['GET', `${R}/apanel-filters/`],
    [
      'POST',
      `${R}/apanel-filters/`,
      { from: '*@perm-new.example', to: '*', action: 'discard', description: 'New one' },
    ],
    ['GET', `${R}/apanel-filters/${ids.apanel}/`],
    ['PATCH', `${R}/apanel-filters/${ids.apanel}/`, { enabled: false }],
    ['POST', `${R}/apanel-filters/bulk/`, { action: 'enable', ids: [ids.apanel] }],
    ['DELETE', `${R}/apanel-filters/${ids.apanel}/`],
    ['GET', `${R}/system-rules/`],
    ['POST', `${R}/system-rules/`, { name: 'New rule', ip: '192.0.2.0/24', action: 'greylist' }],
    ['GET', `${R}/system-rules/${ids.rule}/`],
    ['PATCH', `${R}/system-rules/${ids.rule}/`, { name: 'Changed rule' }],
    ['POST', `${R}/system-rules/bulk/`, { action: 'delete', ids: [ids.rule] }],
    ['DELETE', `${R}/system-rules/${ids.rule}/`],
    ['GET', `${R}/status/`],
  ];
}

async function snapshot() {
  const counts = await Promise.all(
    (['rspamd_filters', 'apanel_filters', 'system_rules'] as const).map((table) =>
      t.db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ),
  );
  return {
    counts: counts.map((c) => Number(c.n)),
    versions: await Promise.all(RSPAMD_LISTS.map((l) => listVersion(t, l))),
  };
}

describe('permissions: admin only', () => {
  test('a domain_admin and a user get 403 on every route, anonymous 401, and nothing changes', async () => {
    const ids = {
      filter: await newFilter('perm.example'),
      apanel: await newApanel('*@perm.example'),
      rule: await newRule('perm'),
    };
    const before = await snapshot();
    for (const [method, url, payload] of routes(ids)) {
      for (const who of [BOSS, ANN]) {
        const res = await call(method, url, who, payload);
        expect([method, url, who, res.statusCode, res.json().code]).toEqual([method, url, who, 403, 'forbidden']);
      }
      const anonymous = await call(method, url, null, payload);
      expect([method, url, anonymous.statusCode]).toEqual([method, url, 401]);
    }
    // Refused before the body, the family or the id is looked at.
    expect((await call('POST', `${R}/filters/nope/`, BOSS, { bogus: 1 })).statusCode).toBe(403);
    expect((await call('GET', `${R}/system-rules/unknown/`, ANN)).statusCode).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  test('an admin may use every route', async () => {
    const ids = {
      filter: await newFilter('perm2.example'),
      apanel: await newApanel('*@perm2.example'),
      rule: await newRule('perm2'),
    };
    const codes: number[] = [];
    for (const [method, url, payload] of routes(ids)) codes.push((await call(method, url, ADMIN, payload)).statusCode);
    // Deletes after a bulk delete find nothing; the rest succeed.
    expect(codes).toEqual([
      200, 200, 200, 200, 201, 200, 200, 200, 200, 204, 200, 201, 200, 200, 200, 204, 200, 201, 200, 200, 200, 404, 200,
    ]);
  });
});

describe('history: rule changes are for admins', () => {
  test('the administration history shows them to an admin with the actor, not to a domain_admin', async () => {
    const id = await newFilter('history.example');
    const admin = await ruleHistory(t, tokens[ADMIN]!);
    expect(admin.find((r) => r.target?.id === id)).toMatchObject({
      action: 'filter_create',
      user: { email: ADMIN, role: 'admin' },
      target: { kind: 'filter', id, label: 'history.example' },
      ip_address: '198.51.100.7',
    });
    expect(await ruleHistory(t, tokens[BOSS]!)).toEqual([]);
    expect(await ruleHistory(t, tokens[ANN]!)).toEqual([]);
  });
});

describe('status', () => {
  const status = async () => {
    const res = await call('GET', `${R}/status/`, ADMIN);
    expect(res.statusCode).toBe(200);
    const body: RspamdStatus = res.json();
    return Object.fromEntries(body.lists.map((l) => [l.list, l]));
  };
  const fetched = async (map: string, list: string, version: number, at: number) => {
    await t.db.deleteFrom('rspamd_map_fetches').where('map', '=', map).execute();
    await t.db.insertInto('rspamd_map_fetches').values({ map, list, version, fetched_at: at }).execute();
  };

  test('entries, changed_at, fetched_at and live per list', async () => {
    const first = await status();
    expect(Object.keys(first)).toEqual([...RSPAMD_LISTS]);
    expect(first['filters-special']).toMatchObject({ entries: 0, fetched_at: null, live: false });
    expect(Date.parse(first['filters-special']!.changed_at!)).toBeGreaterThan(0);

    const id = await created(`${R}/filters/special/`, {
      value: 'status one',
      pattern_type: 'exact',
      action: 'reject',
      description: 'Status',
    });
    await created(`${R}/filters/special/`, {
      value: 'status two',
      pattern_type: 'exact',
      action: 'reject',
      description: 'Status',
      enabled: false,
    });
    const v = await listVersion(t, 'filters-special');
    const [last, ...others] = mapsOfList('filters-special');
    for (const map of others) await fetched(map, 'filters-special', v, Date.parse('2026-11-27T10:00:00Z'));
    let now = await status();
    // Only enabled rules count; one map of the list never fetched: not live.
    expect(now['filters-special']).toMatchObject({ entries: 1, fetched_at: '2026-11-27T10:00:00.000Z', live: false });
    await fetched(last!, 'filters-special', v - 1, Date.parse('2026-11-27T10:00:05Z'));
    now = await status();
    // …then fetched at an older version: still not live.
    expect(now['filters-special']).toMatchObject({ entries: 1, fetched_at: '2026-11-27T10:00:05.000Z', live: false });
    await fetched(last!, 'filters-special', v, Date.parse('2026-11-27T10:00:06Z'));
    now = await status();
    expect(now['filters-special']).toMatchObject({ entries: 1, fetched_at: '2026-11-27T10:00:06.000Z', live: true });
    // A change (a disable too) is not live until fetched again.
    await call('PATCH', `${R}/filters/special/${id}/`, ADMIN, { enabled: false });
    now = await status();
    expect(now['filters-special']).toMatchObject({ entries: 0, live: false });
    expect(Date.parse(now['filters-special']!.changed_at!)).toBeGreaterThanOrEqual(
      Date.parse(first['filters-special']!.changed_at!),
    );
    expect(now['filters-domains']!.entries).toBeGreaterThan(0);
  });
});

describe('"held by filter X" in the e-mail detail', () => {
  test('symbols naming a rule carry it: label and action for an admin, the token only for a user; deleted ones say so', async () => {
    const filter = await newFilter('held.example');
    const apanel = await newApanel('*@held.example');
    const gone = await newRule('held-gone');
    expect((await call('DELETE', `${R}/system-rules/${gone}/`, ADMIN)).statusCode).toBe(204);
    const id = await ingestOk(
      t,
      meta({
        rcpt_to: [ANN],
        rspamd: {
          action: 'reject',
          score: 20,
          required_score: 15,
          symbols: {
            QC_FILTER_DOMAINS_REJECT: { name: 'QC_FILTER_DOMAINS_REJECT', score: 10, options: [`filter:${filter}`] },
            QC_APANEL_REJECT: { name: 'QC_APANEL_REJECT', score: 5, options: [`apanel:${apanel}`, `system:${gone}`] },
            R_SPF_SOFTFAIL: { name: 'R_SPF_SOFTFAIL', score: 0.5, options: ['filter:nope'] },
            // A symbol whose options the sender writes (a HELO) naming a real rule is not "held by" it.
            HFILTER_HELO_NOT_FQDN: { name: 'HFILTER_HELO_NOT_FQDN', score: 1, options: [`filter:${filter}`] },
          },
        },
      }),
    );
    const symbols = async (as: string) => {
      const res = await call('GET', `/api/quarantine/${id}/`, as);
      expect(res.statusCode).toBe(200);
      return Object.fromEntries(
        (res.json().symbols as { symbol: string; rules?: HeldByRule[] }[]).map((s) => [s.symbol, s.rules]),
      );
    };
    const admin = await symbols(ADMIN);
    expect(admin.QC_FILTER_DOMAINS_REJECT).toEqual([
      { token: `filter:${filter}`, kind: 'filter', id: filter, exists: true, label: 'held.example', action: 'reject' },
    ]);
    expect(admin.QC_APANEL_REJECT).toEqual([
      {
        token: `apanel:${apanel}`,
        kind: 'apanel',
        id: apanel,
        exists: true,
        label: '*@held.example → *',
        action: 'reject',
      },
      { token: `system:${gone}`, kind: 'system', id: gone, exists: false, label: null, action: null },
    ]);
    expect(admin.R_SPF_SOFTFAIL).toBeUndefined(); // not a rule id
    expect(admin.HFILTER_HELO_NOT_FQDN).toBeUndefined(); // not one of the console's symbols
    const user = await symbols(ANN);
    expect(user.QC_FILTER_DOMAINS_REJECT).toEqual([
      { token: `filter:${filter}`, kind: 'filter', id: filter, exists: true, label: null, action: null },
    ]);
  });
});

describe('OpenAPI', () => {
  test('the filter list and create routes say what each family matches (special: the Subject header)', async () => {
    const spec = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const path = spec.paths['/api/rspamd/filters/{type}/'];
    for (const op of [path.get, path.post]) {
      expect(op.description).toContain('`special` = the Subject header');
      expect(op.description).toContain("`domains` = the envelope sender's domain");
    }
  });
});
