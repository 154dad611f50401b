'use strict';
// Test helpers: the plugin loaded the way Haraka loads a packaged plugin (haraka-test-fixtures),
// a real HTTP receiver on 127.0.0.1:0 standing in for the api, and SMTP-like transactions.

const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');
const fixtures = require('haraka-test-fixtures');

const PLUGIN_DIR = path.resolve(__dirname, '..');

function tempConfigDir(ini) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'qconsole-test-'));
  fs.mkdirSync(path.join(dir, 'config'));
  fs.writeFileSync(path.join(dir, 'config', 'qconsole.ini'), ini);
  return dir;
}

/**
 * Loads the packaged plugin like Haraka does (its package.json, its config/ defaults), with
 * `overridesDir`/config/qconsole.ini as the Haraka config directory's override.
 * (An absolute name makes haraka-test-fixtures find the package wherever pnpm put the fixtures.)
 * `logs`: keep the log shipper running (closed otherwise).
 */
function loadPlugin(overridesDir, { logs = false } = {}) {
  const plugin = new fixtures.plugin(PLUGIN_DIR);
  plugin.name = 'qconsole';
  plugin.config = plugin.config.module_config(PLUGIN_DIR, overridesDir);
  plugin.logs = [];
  for (const level of ['debug', 'info', 'notice', 'warn', 'error', 'crit']) {
    plugin[`log${level}`] = (...args) => plugin.logs.push(`${level}: ${args.map(String).join(' ')}`);
  }
  plugin.register();
  // The log shipper is for the tests about it (log-shipper.test.js): elsewhere it would only hold
  // process listeners.
  if (!logs) plugin.log_shipper?.close();
  return plugin;
}

/** Stops haraka-config's watchers (and their pending reload timers) on `dir`/config. */
function stopWatching(plugin, dir) {
  plugin.config.module_config(dir).stop_watching('qconsole.ini');
}

/** A real HTTP server on 127.0.0.1:0. `mode`: a status code, 'hang' (never answers), 'reset'. */
async function startReceiver(mode = 201) {
  const requests = [];
  const sockets = new Set();
  const receiver = { mode, requests, url: '' };
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      const m = receiver.mode;
      if (m === 'hang') return;
      if (m === 'reset') return req.socket.destroy();
      if (typeof m === 'object') {
        res.writeHead(m.status, { 'content-type': m.type });
        return res.end(m.body);
      }
      res.writeHead(m, { 'content-type': 'application/json' });
      res.end(JSON.stringify(m >= 200 && m < 300 ? { id: `q-${requests.length}` } : { detail: 'nope', code: 'x' }));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${server.address().port}`;
  receiver.close = () =>
    new Promise((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return receiver;
}

/** Parses a recorded multipart request with the platform's own parser (undici's FormData). */
async function parseMultipart(request) {
  const form = await new Response(request.body, {
    headers: { 'content-type': request.headers['content-type'] },
  }).formData();
  const message = form.get('message');
  return {
    meta: JSON.parse(String(form.get('meta'))),
    message: Buffer.from(await message.arrayBuffer()),
    messageType: message.type,
    messageName: message.name,
  };
}

/** An address that can never accept a connection: a port that was free a moment ago. */
async function closedPortUrl() {
  const server = http.createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return `http://127.0.0.1:${port}`;
}

/**
 * A connection + transaction holding `raw` as Haraka stores it after DATA (lines as received on
 * the wire, i.e. dot-stuffed), with an rspamd verdict in transaction.results.
 */
async function makeMail({ raw, rspamd, mailFrom = 'spammer@example.net', rcptTo = ['bob@example.com'] }) {
  const connection = fixtures.makeConnection({
    ip: '192.0.2.10',
    helo: 'mx.sender.example',
    mailFrom,
    rcptTo,
    silent: true,
  });
  const txn = connection.transaction;
  for (const line of raw.split(/(?<=\r\n)/)) {
    txn.add_data(Buffer.from(line.startsWith('.') ? `.${line}` : line, 'utf8'));
  }
  await new Promise((resolve) => txn.end_data(resolve));
  if (rspamd) txn.results.add({ name: 'rspamd' }, rspamd);
  return connection;
}

function callQueue(plugin, connection) {
  return fixtures.callHook(plugin, 'quarantine_or_pass', connection);
}

const GTUBE_VERDICT = {
  action: 'reject',
  is_skipped: true,
  required_score: 15,
  score: 15,
  symbols: { GTUBE: { name: 'GTUBE', score: 0, metric_score: 0 } },
};

module.exports = {
  GTUBE_VERDICT,
  callQueue,
  closedPortUrl,
  loadPlugin,
  makeMail,
  parseMultipart,
  startReceiver,
  stopWatching,
  tempConfigDir,
  PLUGIN_DIR,
};
