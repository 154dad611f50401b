'use strict';
// The hand-off's limits (issue 21, item 13) and its log lines (item 12), against real HTTP servers:
//   - [api] timeout is an idle timeout: an api that reads a large message slowly but steadily gets it
//     all (the exchange lasts several times the timeout); one that stops reading is given up on
//     after about the timeout, whatever the size;
//   - a deferral is logged once, as a warning (the sender keeps the mail and retries), not twice
//     at error level.

const fs = require('node:fs');
const http = require('node:http');
const { OK, DENYSOFT } = require('haraka-constants');
const {
  GTUBE_VERDICT,
  callQueue,
  loadPlugin,
  makeMail,
  stopWatching,
  tempConfigDir,
  PLUGIN_DIR,
} = require('./helpers');

const TOKEN = 'test-ingest-token-0123456789';
const IDLE_S = 1;
const iniFor = (url) => `[api]\nurl = ${url}\ntoken = ${TOKEN}\ntimeout = ${IDLE_S}\n`;
const line = `${'x'.repeat(76)}\r\n`;
const bigRaw = (mib) => `Subject: big\r\n\r\n${line.repeat(Math.ceil((mib * 1024 * 1024) / line.length))}`;

/**
 * A stand-in for the api that reads the body at 64 KiB per `pauseMs` (it pauses after each 64 KiB); past `stopAfter` bytes it stops reading for good (a
 * stalled api). Answers 201 {id} once it has read the whole body.
 */
async function startSlowApi({ pauseMs = 15, stopAfter = Infinity } = {}) {
  const api = { received: 0, done: false, url: '' };
  const sockets = new Set();
  const server = http.createServer((req, res) => {
    let paidUpTo = 0; // bytes whose reading time has been waited out
    req.on('data', (c) => {
      api.received += c.length;
      if (api.received >= stopAfter) return req.pause(); // for good
      if (api.received - paidUpTo < 65536) return;
      const slices = Math.floor((api.received - paidUpTo) / 65536);
      paidUpTo += slices * 65536;
      req.pause();
      setTimeout(() => req.resume(), pauseMs * slices);
    });
    req.on('end', () => {
      api.done = true;
      res.writeHead(201, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: 'slow-1' }));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  api.url = `http://127.0.0.1:${server.address().port}`;
  api.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return api;
}

let dirs = [];
let lastPlugin;
let apis = [];
afterEach(async () => {
  for (const a of apis) await a.close();
  apis = [];
  for (const d of dirs) {
    if (lastPlugin) stopWatching(lastPlugin, d);
    fs.rmSync(d, { recursive: true, force: true });
  }
  dirs = [];
});
afterAll(() => {
  if (lastPlugin) stopWatching(lastPlugin, PLUGIN_DIR);
});

function setup(url) {
  const dir = tempConfigDir(iniFor(url));
  dirs.push(dir);
  lastPlugin = loadPlugin(dir);
  return lastPlugin;
}

/** Every line logged on the connection (the plugin's own and the results store's), with its level. */
function recordLogs(connection) {
  const logs = [];
  for (const level of ['debug', 'info', 'notice', 'warn', 'error', 'crit']) {
    connection[`log${level}`] = (_plugin, msg) => logs.push({ level, msg: String(msg) });
  }
  return logs;
}

describe('[api] timeout is an idle timeout', () => {
  test('a slow api that keeps reading gets a 16 MiB message whole, long after the idle timeout', async () => {
    const api = await startSlowApi({ pauseMs: 15 });
    apis.push(api);
    const plugin = setup(api.url);
    const raw = bigRaw(16);
    const connection = await makeMail({ raw, rspamd: GTUBE_VERDICT });
    const t0 = Date.now();
    const { rc } = await callQueue(plugin, connection);
    const ms = Date.now() - t0;
    // At most 64 KiB every 15 ms: at least 3 s for 16 MiB, three times the idle timeout, while no
    // gap comes near it.
    expect(ms).toBeGreaterThan(3 * IDLE_S * 1000);
    expect(connection.transaction.results.get('qconsole').msg?.join() ?? '').not.toMatch(/deferred/);
    expect(rc).toBe(OK);
    expect(api.done).toBe(true);
    expect(api.received).toBeGreaterThan(Buffer.byteLength(raw));
  }, 60_000);

  test('an api that stops reading mid-message is given up on after the idle timeout: 4xx', async () => {
    const api = await startSlowApi({ stopAfter: 1024 * 1024 });
    apis.push(api);
    const plugin = setup(api.url);
    const connection = await makeMail({ raw: bigRaw(24), rspamd: GTUBE_VERDICT });
    const t0 = Date.now();
    const { rc, msg } = await callQueue(plugin, connection);
    const ms = Date.now() - t0;
    expect(rc).toBe(DENYSOFT);
    expect(msg.code).toBe(451);
    expect(api.done).toBe(false);
    const why = connection.transaction.results.get('qconsole').msg.join();
    expect(why).toMatch(
      new RegExp(`deferred: ingest failed: no progress for ${IDLE_S * 1000} ms \\(\\d+ bytes of the message sent\\)`),
    );
    expect(ms).toBeGreaterThanOrEqual(IDLE_S * 1000);
    expect(ms).toBeLessThan(15_000); // not held until some size-based deadline
  }, 60_000);
});

describe('a deferral is logged once, as a warning', () => {
  test('the api answers 500: one WARN line "deferred: …", nothing at ERROR', async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end('{"detail":"boom","code":"internal_error"}');
      });
    });
    await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
    apis.push({ close: () => new Promise((resolve) => server.close(() => resolve())) });
    const plugin = setup(`http://127.0.0.1:${server.address().port}`);
    const connection = await makeMail({ raw: bigRaw(0.01), rspamd: GTUBE_VERDICT });
    const logs = recordLogs(connection);
    expect((await callQueue(plugin, connection)).rc).toBe(DENYSOFT);
    // Every line about it (Haraka's results store would log a second one at error level).
    const about = logs.filter((l) => /HTTP 500/.test(l.msg));
    expect(about).toEqual([{ level: 'warn', msg: expect.stringMatching(/^deferred: api answered HTTP 500/) }]);
    expect(logs.filter((l) => l.level === 'error' || l.level === 'crit')).toEqual([]);
  });

  test('an exception of ours is still an error, logged once', async () => {
    const plugin = setup('http://127.0.0.1:9');
    const connection = await makeMail({ raw: bigRaw(0.01), rspamd: GTUBE_VERDICT });
    connection.transaction.results.get = () => {
      throw new TypeError('results broken');
    };
    const logs = recordLogs(connection);
    expect((await callQueue(plugin, connection)).rc).toBe(DENYSOFT);
    expect(logs.filter((l) => /results broken/.test(l.msg))).toEqual([
      { level: 'error', msg: expect.stringMatching(/^deferred: exception: TypeError: results broken/) },
    ]);
  });
});
