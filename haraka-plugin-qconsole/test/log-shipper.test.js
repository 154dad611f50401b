'use strict';
// The log hook and shipper (lib/log-shipper.js), loaded as Haraka loads the plugin, against a real
// HTTP server standing in for POST /api/haraka/logs/ingest/ (test/log-api.js).

const fs = require('node:fs');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { loadPlugin, stopWatching, tempConfigDir, PLUGIN_DIR } = require('./helpers');
const { startLogApi, waitFor } = require('./log-api');
const { toLine } = require('../lib/log-line');
const { MARKER_FILE } = require('../lib/log-spool');

const TOKEN = 'test-ingest-token-logs-0123456789';
const UUID = '4E79AA5D-4AC5-4BAB-A624-B676B161DCFE';
const HOST = 'mx.logs.test';

let api;
let dirs = [];
let plugins = [];
let lastPlugin;
afterEach(async () => {
  for (const p of plugins) p.shutdown();
  await api?.stop().catch(() => {});
  for (const d of dirs) {
    if (lastPlugin) stopWatching(lastPlugin, d);
    fs.rmSync(d, { recursive: true, force: true });
  }
  dirs = [];
  plugins = [];
  api = null;
});
afterAll(() => {
  if (lastPlugin) stopWatching(lastPlugin, PLUGIN_DIR);
});

const DEFAULT_LOGS = { flush_interval: 0.05, retry_max: 0.2, timeout: 1 };

/** A plugin with the shipper running; `spool`: another test's spool directory. */
function setup({ url = api.url, logs = {}, spool, token = TOKEN } = {}) {
  const dir = tempConfigDir('');
  dirs.push(dir);
  const spoolDir = spool ?? path.join(dir, 'spool');
  const keys = { ...DEFAULT_LOGS, spool_dir: spoolDir, ...logs };
  const ini = `[api]\nurl = ${url}\ntoken = ${token}\n[logs]\n${Object.entries(keys)
    .map(([k, v]) => `${k} = ${v}\n`)
    .join('')}`;
  fs.writeFileSync(path.join(dir, 'config', 'qconsole.ini'), ini);
  fs.writeFileSync(path.join(dir, 'config', 'me'), `${HOST}\n`);
  const plugin = loadPlugin(dir, { logs: true });
  lastPlugin = plugin;
  plugins.push(plugin);
  return { plugin, shipper: plugin.log_shipper, spoolDir };
}

const item = (n, level = 'INFO', uuid = `${UUID}.1`) => ({
  level,
  data: `[${level}] [${uuid}] [qconsole] line ${n}`,
  obj: undefined,
});

/** Calls the hook as Haraka does; returns whether next() was called before it returned. */
function log(plugin, it) {
  let called = false;
  plugin.ship_log(() => (called = true), {}, it);
  return called;
}

const seqOf = (l) => Number(l.id.split(':')[1]);
const spoolFiles = (dir) => (fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.ndjson')) : []);
const spooledLines = (dir) =>
  spoolFiles(dir)
    .sort()
    .flatMap((f) => fs.readFileSync(path.join(dir, f), 'utf8').split('\n').filter(Boolean).map(JSON.parse));

describe('parsing what the hook gets', () => {
  const ctx = { hostname: HOST, now: new Date('2026-11-21T22:41:38.481Z') };
  test('default format: level, uuid, origin, message; its own timestamp and hostname', () => {
    expect(
      toLine({ level: 'INFO', data: `[INFO] [${UUID}.1] [quarantine_api] quarantined [x] -> HTTP 201` }, ctx),
    ).toEqual({
      ts: '2026-11-21T22:41:38.481Z',
      level: 'INFO',
      hostname: HOST,
      uuid: `${UUID}.1`,
      origin: 'quarantine_api',
      message: 'quarantined [x] -> HTTP 201',
    });
  });
  test('no uuid ("-") and raw lines of the logger have uuid null', () => {
    expect(toLine({ level: 'NOTICE', data: '[NOTICE] [-] [core] Listening on 127.0.0.1:25' }, ctx)).toMatchObject({
      uuid: null,
      origin: 'core',
      message: 'Listening on 127.0.0.1:25',
    });
    expect(toLine({ level: 'NOTICE', data: 'Starting up Haraka version 3.3.4' }, ctx)).toMatchObject({
      level: 'NOTICE',
      uuid: null,
      origin: null,
      message: 'Starting up Haraka version 3.3.4',
    });
  });
  test('json and logfmt formats keep their extra fields in the message', () => {
    const json = `{"level":"NOTICE","uuid":"${UUID}.1","origin":"core","message":"disconnect","ip":"127.0.0.1","txns":1,"lr":""}`;
    expect(toLine({ level: 'NOTICE', data: json }, ctx)).toMatchObject({
      uuid: `${UUID}.1`,
      origin: 'core',
      message: 'disconnect ip=127.0.0.1 txns=1 lr=""',
    });
    const logfmt = `level=NOTICE uuid=${UUID} origin=core message="hello \\"you\\"" ip=127.0.0.1`;
    expect(toLine({ level: 'NOTICE', data: logfmt }, ctx)).toMatchObject({
      uuid: UUID,
      origin: 'core',
      message: 'hello "you" ip=127.0.0.1',
    });
  });
  test('PROTOCOL and DATA are never shipped; a long message is cut to the api limit', () => {
    expect(toLine({ level: 'PROTOCOL', data: `[PROTOCOL] [${UUID}] [core] C: AUTH PLAIN secret` }, ctx)).toBeNull();
    expect(toLine({ level: 'DATA', data: `[DATA] [${UUID}] [core] body` }, ctx)).toBeNull();
    expect(toLine({ level: 'INFO', data: `[INFO] [-] [core] ${'x'.repeat(9000)}` }, ctx).message).toHaveLength(8192);
  });
});

describe('shipping', () => {
  test('the hook calls next() before it returns, also while the api hangs', async () => {
    api = await startLogApi({ token: TOKEN, mode: 'hang' });
    const { plugin } = setup();
    const timeCalls = (from, n) => {
      const times = [];
      for (let i = from; i < from + n; i++) {
        const it = item(i);
        const t0 = process.hrtime.bigint();
        const nextCalled = log(plugin, it);
        times.push(Number(process.hrtime.bigint() - t0) / 1e6);
        expect(nextCalled).toBe(true); // next() ran before the hook returned
      }
      return times.sort((x, y) => x - y);
    };
    const before = timeCalls(0, 2000);
    await waitFor(() => api.requests.length >= 1, 3000, 'a request to the hanging api');
    const hanging = timeCalls(2000, 2000);
    const ms = (v) => `${v.toFixed(3)} ms`;
    const show = (t) => `median ${ms(t[1000])}, p99 ${ms(t[1980])}, max ${ms(t[1999])}`;
    console.log(`log hook, 2000 calls: ${show(before)}; 2000 more with a request hanging: ${show(hanging)}`);
    expect(hanging[1000]).toBeLessThan(1);
    expect(hanging[1980]).toBeLessThan(5);
  });

  test('the hook never logs from inside itself: what the shipper reports comes later, from a timer', async () => {
    api = await startLogApi({ token: 'another-token' }); // 401 to every batch
    const { plugin, spoolDir } = setup({ logs: { flush_lines: 1, buffer: 5 } });
    // The spool broken under it (its directory now a file): past the in-memory bound the shipper
    // has a spool error to report and lines to drop, the paths most tempted to log at once.
    fs.rmSync(spoolDir, { recursive: true, force: true });
    fs.writeFileSync(spoolDir, '');
    // Every plugin log call recorded with whether it ran inside the hook (Haraka would call the log
    // hook again for it: a recursion, and a line printed in the middle of another).
    const reports = [];
    let inside = false;
    for (const level of ['debug', 'info', 'notice', 'warn', 'error', 'crit']) {
      const logged = plugin[`log${level}`];
      plugin[`log${level}`] = (...args) => {
        reports.push({ level, inside, msg: args.map(String).join(' ') });
        logged(...args);
      };
    }
    const hook = (it) => {
      inside = true;
      try {
        return log(plugin, it);
      } finally {
        inside = false;
      }
    };
    const burst = (from, n) => {
      for (let i = from; i < from + n; i++) {
        const before = reports.length;
        expect(hook(item(i))).toBe(true);
        expect(reports.length).toBe(before); // nothing logged by the call
      }
    };
    burst(0, 20); // past flush_lines and the in-memory bound: the shipper has work to do
    expect(reports).toEqual([]); // nothing logged synchronously, not even after the last call
    await new Promise((r) => setImmediate(r));
    await waitFor(() => reports.some((r) => /HTTP 401/.test(r.msg)), 3000, 'the 401 report');
    // The api unreachable: the shipper says it spools, later again.
    await api.stop();
    burst(20, 20);
    await waitFor(() => reports.some((r) => /does not take the lines/.test(r.msg)), 3000, 'the "down" report');
    expect(reports.filter((r) => r.inside)).toEqual([]);
    expect(reports.map((r) => r.level)).toEqual(expect.arrayContaining(['warn', 'error']));
    expect(reports.some((r) => /cannot write the spool/.test(r.msg))).toBe(true);
  });

  test('batches: flush_lines per request at most, every line once, in order, with the token', async () => {
    api = await startLogApi({ token: TOKEN });
    const { plugin, shipper } = setup({ logs: { flush_lines: 200, batch: 200, flush_interval: 0.5 } });
    const t0 = Date.now();
    log(plugin, item(0));
    await waitFor(() => api.stored.length === 1, 3000, 'the first line');
    const firstMs = Date.now() - t0;
    expect(firstMs).toBeGreaterThanOrEqual(400); // a lone line waits for the flush interval ...
    for (let i = 1; i <= 450; i++) log(plugin, item(i));
    await waitFor(() => api.stored.length === 451, 3000, '451 lines');
    expect(api.requests.every((r) => r.lines.length <= 200)).toBe(true);
    // ... 200 waiting lines go at once, not after the interval
    expect(api.requests.filter((r) => r.lines.length === 200).length).toBeGreaterThanOrEqual(2);
    expect(api.requests.length).toBeLessThanOrEqual(5);
    expect(api.stored.map((l) => l.message)).toEqual(Array.from({ length: 451 }, (_, i) => `line ${i}`));
    expect(api.stored.map(seqOf)).toEqual(Array.from({ length: 451 }, (_, i) => i + 1));
    expect(new Set(api.stored.map((l) => l.id.split(':')[0]))).toEqual(new Set([shipper.bootId]));
    expect(api.requests[0]).toMatchObject({ url: '/api/haraka/logs/ingest/', auth: `Bearer ${TOKEN}` });
    expect(api.stored[0]).toMatchObject({ hostname: HOST, uuid: `${UUID}.1`, origin: 'qconsole', level: 'INFO' });
    expect(api.duplicates).toBe(0);
  });

  test("levels: Haraka's own names are shipped (the api maps them), never PROTOCOL or DATA", async () => {
    api = await startLogApi({ token: TOKEN });
    const { plugin } = setup();
    const levels = ['DEBUG', 'PROTOCOL', 'INFO', 'DATA', 'NOTICE', 'WARN', 'ERROR', 'CRIT', 'ALERT', 'EMERG'];
    levels.forEach((level, i) => log(plugin, item(i, level)));
    await waitFor(() => api.stored.length === 8, 3000, '8 lines');
    await new Promise((r) => setTimeout(r, 200));
    expect(api.stored.map((l) => l.level)).toEqual([
      'DEBUG',
      'INFO',
      'NOTICE',
      'WARN',
      'ERROR',
      'CRIT',
      'ALERT',
      'EMERG',
    ]);
    expect(api.requests.flatMap((r) => r.lines).some((l) => /PROTOCOL|DATA/.test(l.level))).toBe(false);
  });

  test('api down: lines are spooled, then sent in order once it is back; nothing lost, nothing twice', async () => {
    api = await startLogApi({ token: TOKEN });
    const { plugin, spoolDir } = setup({ logs: { batch: 50 } });
    for (let i = 0; i < 10; i++) log(plugin, item(i));
    await waitFor(() => api.stored.length === 10, 3000, 'the first 10');
    await api.stop();
    for (let i = 10; i < 300; i++) {
      log(plugin, item(i));
      if (i % 50 === 0) await new Promise((r) => setTimeout(r, 60));
    }
    await waitFor(() => spooledLines(spoolDir).length === 290, 3000, '290 spooled lines');
    expect(spoolFiles(spoolDir).length).toBeGreaterThanOrEqual(6); // ~batch lines per segment
    await api.start();
    await waitFor(() => api.stored.length === 300, 5000, 'all 300 lines');
    await waitFor(() => spoolFiles(spoolDir).length === 0, 2000, 'an empty spool');
    expect(api.stored.map((l) => l.message)).toEqual(Array.from({ length: 300 }, (_, i) => `line ${i}`));
    expect(api.stored.map(seqOf)).toEqual(Array.from({ length: 300 }, (_, i) => i + 1));
  });

  test('a resend after a lost answer carries the same ids: the api stores each line once', async () => {
    api = await startLogApi({ token: TOKEN, mode: 'store-then-503' });
    const { plugin } = setup();
    for (let i = 0; i < 20; i++) log(plugin, item(i));
    await waitFor(() => api.requests.length >= 2, 3000, 'a resend');
    api.mode = 202;
    await waitFor(() => api.requests.at(-1).status === 202, 3000, 'a 202');
    expect(api.duplicates).toBeGreaterThanOrEqual(20);
    expect(api.stored.map((l) => l.message)).toEqual(Array.from({ length: 20 }, (_, i) => `line ${i}`));
    const sent = api.requests.map((r) => r.lines.map((l) => l.id).join());
    expect(sent[1]).toBe(sent[0]);
  });

  test('413: the batch is split until the api takes it', async () => {
    api = await startLogApi({ token: TOKEN, maxBatch: 30 });
    const { plugin } = setup({ logs: { flush_lines: 1000, batch: 200, flush_interval: 0.1 } });
    for (let i = 0; i < 200; i++) log(plugin, item(i));
    await waitFor(() => api.stored.length === 200, 3000, '200 lines');
    expect(api.requests.filter((r) => r.status === 413).length).toBeGreaterThan(0);
    expect(api.stored.map((l) => l.message)).toEqual(Array.from({ length: 200 }, (_, i) => `line ${i}`));
  });

  test('401 (bad token): the batch is dropped, not retried, and one marker says so once the api takes lines', async () => {
    api = await startLogApi({ token: 'another-token' });
    const { plugin } = setup();
    for (let i = 0; i < 15; i++) log(plugin, item(i));
    await waitFor(() => api.requests.length === 1, 3000, 'the first request');
    await new Promise((r) => setTimeout(r, 400));
    expect(api.requests).toHaveLength(1); // not retried
    api.token = TOKEN; // the console's token fixed
    for (let i = 15; i < 20; i++) log(plugin, item(i));
    await waitFor(() => api.stored.length === 6, 3000, 'the marker and 5 lines');
    expect(api.stored[0]).toMatchObject({
      level: 'WARN',
      origin: 'qconsole',
      uuid: null,
      message: '15 lines dropped (the api refused them: HTTP 401)',
    });
    expect(api.stored.slice(1).map((l) => l.message)).toEqual([15, 16, 17, 18, 19].map((i) => `line ${i}`));
  });

  test('spool size cap: the oldest lines go, ONE marker "N lines dropped" takes their place', async () => {
    api = await startLogApi({ token: TOKEN });
    await api.stop();
    const { plugin, spoolDir, shipper } = setup({ logs: { batch: 20, spool_max_mb: 0.01 } });
    for (let i = 0; i < 600; i++) {
      log(plugin, item(i));
      if (i % 20 === 0) await new Promise((r) => setTimeout(r, 15));
    }
    await waitFor(() => shipper.buffer.length === 0 && !shipper.inflight, 3000, 'everything spooled');
    const bytes = spoolFiles(spoolDir).reduce((n, f) => n + fs.statSync(path.join(spoolDir, f)).size, 0);
    expect(bytes).toBeLessThanOrEqual(0.01 * 1024 * 1024 + 20 * 300);
    const marker = JSON.parse(fs.readFileSync(path.join(spoolDir, MARKER_FILE), 'utf8'));
    expect(marker.count).toBeGreaterThan(0);
    await api.start();
    await waitFor(() => spoolFiles(spoolDir).length === 0 && shipper.buffer.length === 0, 5000, 'the spool sent');
    await waitFor(() => !fs.existsSync(path.join(spoolDir, MARKER_FILE)), 2000, 'the marker sent');
    const markers = api.stored.filter((l) => /lines dropped/.test(l.message));
    expect(markers).toHaveLength(1);
    expect(api.stored[0]).toBe(markers[0]);
    const n = Number(/^(\d+) lines dropped \(the log spool was full\)$/.exec(markers[0].message)[1]);
    const kept = api.stored.slice(1).map((l) => l.message);
    expect(n + kept.length).toBe(600);
    // the newest kept, in order, right after the dropped ones
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => `line ${n + i}`));
  });

  test('shutdown: what is in memory goes to the spool; the next start sends it with its old ids', async () => {
    api = await startLogApi({ token: TOKEN, mode: 'hang' });
    const first = setup({ logs: { flush_interval: 5 } });
    for (let i = 0; i < 50; i++) log(first.plugin, item(i));
    const bootId = first.shipper.bootId;
    first.plugin.shutdown();
    expect(spooledLines(first.spoolDir).map((l) => l.message)).toEqual(
      Array.from({ length: 50 }, (_, i) => `line ${i}`),
    );
    await api.stop();
    api = await startLogApi({ token: TOKEN });
    const second = setup({ url: api.url, spool: first.spoolDir });
    expect(second.shipper.bootId).not.toBe(bootId);
    log(second.plugin, item(50));
    await waitFor(() => api.stored.length === 51, 3000, '51 lines');
    expect(api.stored.map((l) => l.message)).toEqual(Array.from({ length: 51 }, (_, i) => `line ${i}`));
    expect(api.stored.slice(0, 50).every((l) => l.id.startsWith(`${bootId}:`))).toBe(true);
  });

  test.each([
    ['process.exit()', 'process.exit(0)'],
    ['SIGTERM', "process.kill(process.pid, 'SIGTERM'); setTimeout(() => {}, 5000)"],
  ])('a process ending by %s leaves its buffered lines in the spool', async (_, end) => {
    api = await startLogApi({ token: TOKEN, mode: 'hang' });
    const dir = tempConfigDir('');
    dirs.push(dir);
    const spoolDir = path.join(dir, 'spool');
    const script = `
      const { LogShipper } = require(${JSON.stringify(path.join(PLUGIN_DIR, 'lib', 'log-shipper.js'))});
      const { parseSettings } = require(${JSON.stringify(path.join(PLUGIN_DIR, 'lib', 'settings.js'))});
      const settings = parseSettings({ api: { url: '${api.url}', token: '${TOKEN}' },
        logs: { spool_dir: ${JSON.stringify(spoolDir)}, flush_interval: 60 } }, {});
      const s = new LogShipper({ settings: () => settings, hostname: 'child' }).start();
      for (let i = 0; i < 30; i++) s.push({ level: 'INFO', data: '[INFO] [-] [core] child ' + i });
      ${end};`;
    const r = spawnSync(process.execPath, ['-e', script], { timeout: 10000 });
    expect(r.signal ?? r.status).toBe(end.includes('SIGTERM') ? 'SIGTERM' : 0);
    expect(spooledLines(spoolDir).map((l) => l.message)).toEqual(Array.from({ length: 30 }, (_, i) => `child ${i}`));
  });
});
