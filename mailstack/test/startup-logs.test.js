'use strict';
// Log noise that hid real errors (issue 21, item 12), on the real stack: a start and a stop of
// Haraka and Rspamd log no error about things this stack does not use.
//   - Haraka: no "tls key/cert ... could not be loaded" (no TLS here: config/tls.ini names none);
//   - Rspamd 3.4: no "symcache; load_items: cannot open file .../symbols.cache" at start nor
//     "save_items: cannot create file .../symbols.cache.new" at stop (it cannot save the cache:
//     rspamd/rspamd#4337; the stack runs without one, cache_file = null).
// And no ERROR line at all from Haraka's core while nothing is wrong.

const fs = require('node:fs');
const { startMailStack, startSink } = require('..');
const { TOKEN, startIngestStandIn } = require('./helpers');

let ingest;
let sink;
let stack;
let logs;
beforeAll(async () => {
  ingest = await startIngestStandIn(TOKEN);
  sink = await startSink();
  stack = await startMailStack({
    apiUrl: ingest.url,
    ingestToken: TOKEN,
    nextHop: `127.0.0.1:${sink.port}`,
    maps: false,
    keepRunDir: true,
  });
  await stack.stop(); // Rspamd writes its cache (or fails to) when it stops
  logs = {
    haraka: fs.readFileSync(stack.logs.haraka, 'utf8'),
    rspamd: fs.readFileSync(stack.logs.rspamd, 'utf8'),
  };
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  await sink?.close();
  await ingest?.close();
  if (stack) fs.rmSync(stack.runDir, { recursive: true, force: true });
});

test('Haraka starts without an ERROR about TLS keys (no TLS configured), nor any from its core', () => {
  expect(logs.haraka).toMatch(/\[NOTICE\] .*\[server\] Listening on/);
  expect(logs.haraka.split('\n').filter((l) => /tls (key|cert)/i.test(l))).toEqual([]);
  expect(logs.haraka.split('\n').filter((l) => /\[(ERROR|CRIT)\] \[[^\]]*\] \[core\]/.test(l))).toEqual([]);
});

test('Rspamd neither fails to load nor fails to save its symbols cache', () => {
  expect(logs.rspamd).toMatch(/main: terminating/); // the whole stop is in the log
  expect(logs.rspamd.split('\n').filter((l) => /symbols\.cache/.test(l))).toEqual([]);
});
