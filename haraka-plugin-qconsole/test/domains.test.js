'use strict';
// The rcpt hook: the console's domains, polled from a real HTTP server standing in for
// GET /api/mailstack/domains/, with the plugin loaded as Haraka loads it.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const fixtures = require('haraka-test-fixtures');
const { OK, DENY, DENYSOFT, CONT } = require('haraka-constants');
const { closedPortUrl, loadPlugin, stopWatching, tempConfigDir } = require('./helpers');
const { startDomainsApi } = require('./domains-api');
const { parseSettings } = require('../lib/settings');
const { toALabel } = require('../lib/domains');
const { MISS_BURST } = require('../lib/domain-list');

const TOKEN = 'test-ingest-token-0123456789';
const HOST_LIST = 'example.com\nExample.ORG\nbücher.example\n';

let api;
let work;
let loaded = [];
beforeEach(async () => {
  api = await startDomainsApi({ token: TOKEN, domains: ['a.example', 'b.example'] });
  work = fs.mkdtempSync(path.join(os.tmpdir(), 'qconsole-domains-'));
});
afterEach(async () => {
  for (const { plugin, dir } of loaded) {
    plugin.shutdown();
    stopWatching(plugin, dir);
    plugin.config.module_config(dir).stop_watching('host_list');
    fs.rmSync(dir, { recursive: true, force: true });
  }
  loaded = [];
  await api.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

const stateFile = () => path.join(work, 'state', 'domains.json');

/** The plugin with qconsole.ini [api] url/token, [domains] (refresh 60 s unless given) and host_list. */
function setup({ url = api.url, domains = '', hostList = HOST_LIST } = {}) {
  const ini =
    `[api]\nurl = ${url}\ntoken = ${TOKEN}\n` +
    `[domains]\ntimeout = 0.5\nstate_file = ${stateFile()}\n${domains.includes('refresh') ? '' : 'refresh = 60\n'}${domains}`;
  const dir = tempConfigDir(ini);
  fs.writeFileSync(path.join(dir, 'config', 'host_list'), hostList);
  const plugin = loadPlugin(dir);
  loaded.push({ plugin, dir });
  return plugin;
}

/** Starts polling as Haraka does in a single process, and waits for the first answer (or failure). */
async function started(plugin) {
  await new Promise((resolve) => plugin.hook_init_master(resolve, { cluster: undefined }));
  await plugin.domain_list.inflight;
  return plugin;
}

function rcpt(plugin, address, { relaying = false } = {}) {
  const connection = fixtures.makeConnection({ mailFrom: 'sender@sender.example', silent: true });
  connection.relaying = relaying;
  return fixtures.callRcpt(plugin, connection, address);
}

const expectAccepted = async (plugin, address) => expect((await rcpt(plugin, address)).rc).toBe(OK);
async function expectRefused(plugin, address) {
  const { rc, msg } = await rcpt(plugin, address);
  expect(rc).toBe(DENY);
  expect(msg.code).toBe(550);
  expect(String(msg.reply ?? msg)).toMatch(/5\.1\.2 relaying denied: .* is not accepted here/);
}

/** Not in the last list while the api fails: 4xx (the sender retries), never a permanent refusal. */
async function expectUnconfirmed(plugin, address) {
  const { rc, msg } = await rcpt(plugin, address);
  expect(rc).toBe(DENYSOFT);
  expect(String(msg.reply ?? msg)).toMatch(/cannot check .* now, try again later/);
}

const errorLines = (plugin) => plugin.logs.filter((l) => /cannot get the list/.test(l));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

describe("the console's list", () => {
  test('a domain in the list is accepted (any case); another one, or a host_list one, gets 550 5.1.2', async () => {
    const plugin = await started(setup());
    await expectAccepted(plugin, 'bob@a.example');
    await expectAccepted(plugin, 'Carol@B.EXAMPLE');
    await expectRefused(plugin, 'bob@c.example');
    await expectRefused(plugin, 'bob@example.com'); // host_list is only the fallback
    await expectRefused(plugin, 'bob@sub.a.example'); // no subdomains
    await expectRefused(plugin, 'root@[192.0.2.1]');
    expect(api.requests[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(api.requests[0].url).toBe('/api/mailstack/domains/');
  });

  test('an IDN recipient (U-label) matches its A-label in the list', async () => {
    api.domains = ['xn--bcher-kva.example'];
    const plugin = await started(setup());
    await expectAccepted(plugin, 'anna@bücher.example');
    await expectAccepted(plugin, 'anna@BÜCHER.example');
    await expectAccepted(plugin, 'anna@xn--bcher-kva.example');
    await expectRefused(plugin, 'anna@bucher.example');
    // Accepted in the console's form: Rspamd, the lists, ingest and the next hop all see the A-label.
    const typed = fixtures.hooks.toAddress('Anna@BÜCHER.example');
    expect((await rcpt(plugin, typed)).rc).toBe(OK);
    expect(typed.address).toBe('Anna@xn--bcher-kva.example');
    expect(toALabel('Bücher.Example.')).toBe('xn--bcher-kva.example');
    expect(toALabel('[192.0.2.1]')).toBe('');
    expect(toALabel('bad name.example')).toBe('');
  });

  test('a client allowed to relay is left to the other plugins (CONT), as rcpt_to.in_host_list does', async () => {
    const plugin = await started(setup());
    expect((await rcpt(plugin, 'bob@elsewhere.example', { relaying: true })).rc ?? CONT).toBe(CONT);
  });

  test('polling picks up a created and a deleted domain; an unchanged list costs a 304', async () => {
    const plugin = await started(setup({ domains: 'refresh = 0.2\n' }));
    api.domains = ['a.example', 'new.example'];
    const deadline = Date.now() + 5000;
    while (!plugin.domain_list.domains.has('new.example') && Date.now() < deadline) await sleep(50);
    await expectAccepted(plugin, 'x@new.example');
    await expectRefused(plugin, 'x@b.example');
    await sleep(500);
    // After the change: If-None-Match with the ETag it got, answered 304, list kept.
    const last = api.requests[api.requests.length - 1];
    expect(last.headers['if-none-match']).toMatch(/^"[\w-]+"$/);
    expect(api.answers.slice(-2)).toEqual([304, 304]);
    expect([...plugin.domain_list.domains]).toEqual(['a.example', 'new.example']);
    expect(plugin.logs.filter((l) => /domains: 2 from the api/.test(l))).toHaveLength(2); // first + change
  });

  test('a domain created a moment ago is accepted at once: a miss asks the api again (rate limited)', async () => {
    const plugin = await started(setup()); // refresh 60 s: only a miss can bring it
    api.domains = ['a.example', 'b.example', 'fresh.example'];
    await expectAccepted(plugin, 'x@fresh.example');
    // A flood of misses asks at most MISS_BURST times, then waits for the refill (~1/s).
    const before = api.requests.length;
    for (let i = 0; i < MISS_BURST + 5; i++) await expectRefused(plugin, `x@nope${i}.example`);
    expect(api.requests.length - before).toBeLessThanOrEqual(MISS_BURST);
    expect(api.requests.length - before).toBeGreaterThanOrEqual(MISS_BURST - 1);
  });

  test('{"domains": []} is the console saying it has no domains: every recipient is refused', async () => {
    api.domains = [];
    const plugin = await started(setup());
    await expectRefused(plugin, 'bob@example.com');
    await expectRefused(plugin, 'bob@a.example');
    expect(plugin.logs.some((l) => /the console has no domains: every recipient is refused/.test(l))).toBe(true);
  });
});

describe('the api fails: the last list is kept (its domains accepted, others 4xx), and said once', () => {
  test.each([
    ['HTTP 500', 500, /HTTP 500/],
    ['HTTP 503', 503, /HTTP 503/],
    ['HTTP 401 (a wrong token)', 401, /HTTP 401/],
    ['a connection reset', 'reset', /socket hang up|ECONNRESET/],
    ['no answer within the timeout', 'hang', /no answer within 500 ms/],
    ['a body that is not JSON', 'garbage', /not JSON/],
    ['an empty body', 'empty', /not JSON \(empty\)/],
    ['a body cut short', 'truncated', /the answer was cut short/],
    ['an HTML page from a proxy', 'html', /content-type "text\/html"/],
    ['JSON of another shape', 'shape', /no "domains" array/],
    ['a name that is not an A-label', 'bad-entry', /not a lower-case A-label/],
  ])('%s', async (_what, mode, reason) => {
    const plugin = await started(setup());
    api.mode = mode;
    for (let i = 0; i < 3; i++) expect(await plugin.domain_list.refresh()).toBe(false);
    await expectAccepted(plugin, 'bob@a.example');
    await expectUnconfirmed(plugin, 'bob@example.com');
    const lines = errorLines(plugin);
    expect(lines).toHaveLength(1); // three failed polls, one line
    expect(lines[0]).toMatch(reason);
    expect(lines[0]).toMatch(/keeping the last list \(2 domains, from the api\)/);

    api.mode = 'ok';
    api.domains = ['c.example'];
    expect(await plugin.domain_list.refresh()).toBe(true);
    expect(plugin.logs.filter((l) => /the api answers again/.test(l))).toHaveLength(1);
    await expectAccepted(plugin, 'bob@c.example');
    await expectRefused(plugin, 'bob@a.example');
  });

  test('the api stopped (connection refused): its domains still accepted, the others 4xx', async () => {
    const plugin = await started(setup());
    await api.stop();
    expect(await plugin.domain_list.refresh()).toBe(false);
    expect(errorLines(plugin)[0]).toMatch(/ECONNREFUSED/);
    await expectUnconfirmed(plugin, 'bob@unknown.example');
    await expectAccepted(plugin, 'bob@b.example');
  });

  test('a miss while the api answers, whose own request then fails: 4xx, not a 5xx', async () => {
    const plugin = await started(setup());
    api.mode = 503;
    await expectUnconfirmed(plugin, 'bob@created-just-now.example');
    expect(api.answers[api.answers.length - 1]).toBe(503);
  });

  test('an answer without ETag is taken, and asked for in full next time', async () => {
    api.mode = 'no-etag';
    const plugin = await started(setup());
    await expectAccepted(plugin, 'bob@a.example');
    await plugin.domain_list.refresh();
    expect(api.requests[1].headers['if-none-match']).toBeUndefined();
  });
});

describe('before the first answer: host_list (QC_MAILSTACK_DOMAINS)', () => {
  test('the api unreachable at the first start: host_list decides until the api answers', async () => {
    const plugin = await started(setup({ url: await closedPortUrl() }));
    expect(plugin.domain_list.domains).toBeNull();
    await expectAccepted(plugin, 'bob@example.com');
    await expectAccepted(plugin, 'bob@example.org'); // host_list entries are lower-cased
    await expectAccepted(plugin, 'bob@bücher.example'); // ... and IDNA-converted
    await expectRefused(plugin, 'bob@a.example');
    expect(errorLines(plugin)[0]).toMatch(/using host_list until the api answers once/);
    expect(fs.existsSync(stateFile())).toBe(false);
  });

  test('then the first answer replaces it', async () => {
    await api.stop();
    const plugin = await started(setup());
    await expectAccepted(plugin, 'bob@example.com');
    await api.start();
    expect(await plugin.domain_list.refresh()).toBe(true);
    await expectAccepted(plugin, 'bob@a.example');
    await expectRefused(plugin, 'bob@example.com');
  });
});

describe('the saved list (a restart while the api is down)', () => {
  test('saved after an answer; read at the next start before the api answers; confirmed by a 304', async () => {
    const first = await started(setup());
    await first.domain_list.saving;
    const saved = JSON.parse(fs.readFileSync(stateFile(), 'utf8'));
    expect(saved).toEqual({
      domains: ['a.example', 'b.example'],
      etag: expect.any(String),
      saved_at: expect.any(String),
    });
    first.shutdown();

    // "Restart" with the api down: the saved list, not host_list.
    await api.stop();
    const second = setup();
    await expectAccepted(second, 'bob@a.example');
    await expectUnconfirmed(second, 'bob@example.com'); // the saved list, not host_list
    await started(second);
    await expectAccepted(second, 'bob@a.example');
    expect(errorLines(second)[0]).toMatch(/keeping the last list \(2 domains, from the saved file\)/);

    // The api is back with the same list: If-None-Match with the saved ETag → 304.
    await api.start();
    const before = api.requests.length;
    expect(await second.domain_list.refresh()).toBe(true);
    expect(api.requests[before].headers['if-none-match']).toBe(saved.etag);
    expect(api.answers[api.answers.length - 1]).toBe(304);
    expect(second.domain_list.source).toBe('api');
  });

  test('a changed list is saved again; a broken file is ignored (host_list until the api answers)', async () => {
    const plugin = await started(setup());
    api.domains = ['z.example'];
    await plugin.domain_list.refresh();
    await plugin.domain_list.saving;
    expect(JSON.parse(fs.readFileSync(stateFile(), 'utf8')).domains).toEqual(['z.example']);

    fs.writeFileSync(stateFile(), '{"domains": ["z.exam');
    await api.stop();
    const restarted = setup();
    expect(restarted.logs.some((l) => /ignoring .*domains\.json: .* is not JSON/.test(l))).toBe(true);
    await expectAccepted(restarted, 'bob@example.com');
  });

  test('a file that cannot be written is said once; the list in memory still works', async () => {
    fs.writeFileSync(path.join(work, 'state'), 'a file where the directory should be');
    const plugin = await started(setup());
    await plugin.domain_list.saving;
    api.domains = ['c.example'];
    await plugin.domain_list.refresh();
    await plugin.domain_list.saving;
    expect(plugin.logs.filter((l) => /cannot save the list/.test(l))).toHaveLength(1);
    await expectAccepted(plugin, 'bob@c.example');
  });
});

describe('never fail open', () => {
  test('an exception (thrown or rejected) while checking answers 4xx', async () => {
    const plugin = await started(setup());
    plugin.domain_list.check = () => Promise.reject(new Error('boom'));
    let res = await rcpt(plugin, 'bob@a.example');
    expect(res.rc).toBe(DENYSOFT);
    expect(res.msg.code).toBe(451);
    plugin.domain_list.check = () => {
      throw new TypeError('sync boom');
    };
    res = await rcpt(plugin, 'bob@a.example');
    expect(res.rc).toBe(DENYSOFT);
    const connection = fixtures.makeConnection({ mailFrom: 'sender@sender.example', silent: true });
    Object.defineProperty(connection, 'relaying', {
      get() {
        throw new Error('connection broken');
      },
    });
    expect((await fixtures.callRcpt(plugin, connection, 'bob@a.example')).rc).toBe(DENYSOFT);
  });
});

describe('settings and lifecycle', () => {
  test('defaults: on, every 10 s, 5 s timeout, <Haraka dir>/state/qconsole-domains.json', () => {
    const s = parseSettings({ api: { url: 'http://api:8080/console' } }, { HARAKA: '/haraka/app' });
    expect(s.domains).toEqual({
      enabled: true,
      url: new URL('http://api:8080/console/api/mailstack/domains/'),
      refreshMs: 10000,
      timeoutMs: 5000,
      stateFile: '/haraka/app/state/qconsole-domains.json',
    });
    expect(parseSettings({}, {}).domains.stateFile).toBeNull(); // no Haraka dir: not saved
    expect(parseSettings({ domains: { state_file: 'x.json', enabled: 'no' } }, { HARAKA: '/h' }).domains).toMatchObject(
      { stateFile: '/h/x.json', enabled: false },
    );
    expect(() => parseSettings({ domains: { refresh: 0 } }, {})).toThrow(/\[domains\] refresh must be/);
    expect(() => parseSettings({ domains: { timeout: 'soon' } }, {})).toThrow(/\[domains\] timeout must be/);
    expect(() => parseSettings({ domains: { enabled: 'maybe' } }, {})).toThrow(/\[domains\] enabled must be/);
  });

  test('enabled = false: host_list alone decides, the api is never asked', async () => {
    const plugin = await started(setup({ domains: 'enabled = false\n' }));
    await expectAccepted(plugin, 'bob@example.com');
    await expectRefused(plugin, 'bob@a.example');
    expect(api.requests).toHaveLength(0);
  });

  test('polls only where connections are handled: not in a cluster master; in a worker', async () => {
    const master = setup({ domains: 'refresh = 0.1\n' });
    await new Promise((resolve) => master.hook_init_master(resolve, { cluster: {} }));
    await sleep(300);
    expect(api.requests).toHaveLength(0);
    const worker = setup();
    await new Promise((resolve) => worker.hook_init_child(resolve, {}));
    await worker.domain_list.inflight;
    expect(api.requests).toHaveLength(1);
  });

  test('the poll timer never keeps Haraka running, and shutdown stops it', async () => {
    const plugin = await started(setup({ domains: 'refresh = 0.1\n' }));
    await sleep(50);
    expect(plugin.domain_list.timer.hasRef()).toBe(false);
    plugin.shutdown();
    const count = api.requests.length;
    await sleep(400);
    expect(api.requests.length).toBe(count);
  });
});
