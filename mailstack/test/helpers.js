'use strict';
// Helpers of the stack test: an SMTP client, test messages, an ingest stand-in (a real HTTP
// server on 127.0.0.1) and the real api started on a temp SQLite directory.

const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');
const nodemailer = require('nodemailer');
const { GTUBE } = require('..');

const TOKEN = `stack-test-${crypto.randomBytes(16).toString('hex')}`;

/** A message as a sender writes it: CRLF, a line starting with a dot, 8-bit UTF-8 text. */
function message({ from, to, subject, mid, spam = false }) {
  return [
    `From: Sender <${from}>`,
    `To: <${to[0]}>`,
    `Subject: ${subject}`,
    `Message-ID: <${mid}>`,
    'Date: Sat, 21 Nov 2026 22:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    '',
    'Hello Bob, are we still on for lunch on Friday? The usual place at noon works for me.',
    '.this line starts with a dot (dot-stuffed on the wire, not in the message)',
    'Grüße, Zoë',
    ...(spam ? [GTUBE] : []),
    '',
  ].join('\r\n');
}

/**
 * Sends over SMTP; resolves with the server's final answer ({code, response, uuid}). `localAddress`:
 * connect from another loopback address (127.0.0.2, ...) to meet IP rules. `socketTimeout`: ms the
 * client waits without a byte from the server (a large message: up to the 10 minutes RFC 5321 gives
 * the reply to the end of DATA).
 */
async function send(port, { from, to, raw, localAddress, socketTimeout = 30000 }) {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port,
    localAddress,
    secure: false,
    ignoreTLS: true,
    name: 'client.stack.test',
    connectionTimeout: 10000,
    greetingTimeout: 10000,
    socketTimeout,
  });
  try {
    const info = await transport.sendMail({ envelope: { from, to }, raw });
    return { code: Number(info.response.slice(0, 3)), response: info.response, uuid: uuidOf(info.response) };
  } catch (err) {
    return { code: err.responseCode ?? 0, response: String(err.response ?? err.message), uuid: uuidOf(err.response) };
  } finally {
    transport.close();
  }
}

const uuidOf = (response) => /\(([0-9A-F-]{36}\.\d+)\)\s*$/i.exec(String(response ?? ''))?.[1] ?? null;

/**
 * One short SMTP session up to RCPT TO (EHLO, MAIL FROM, RCPT TO, QUIT; no mail is sent): resolves
 * with RCPT's answer {code, response}, or with the code of the step that failed before it.
 */
function rcptTo(port, address, { from = 'probe@sender.example', smtputf8 = false } = {}) {
  const commands = [
    'EHLO client.stack.test',
    `MAIL FROM:<${from}>${smtputf8 ? ' SMTPUTF8' : ''}`,
    `RCPT TO:<${address}>`,
  ];
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    let buffer = '';
    let sent = 0;
    const end = (result) => {
      socket.end('QUIT\r\n');
      resolve(result);
    };
    socket.setTimeout(10000, () => {
      socket.destroy();
      reject(new Error(`no SMTP answer within 10 s (after ${commands[sent - 1] ?? 'connect'})`));
    });
    socket.on('error', reject);
    socket.on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      const reply = /(?:^|\r\n)(\d{3}) [^\r\n]*\r\n$/.exec(buffer); // the last line of a reply: "ddd text"
      if (!reply) return;
      const code = Number(reply[1]);
      const response = buffer.trim();
      buffer = '';
      if (sent === commands.length || code >= 400)
        return end({ code, response, step: commands[sent - 1] ?? 'greeting' });
      socket.write(`${commands[sent++]}\r\n`, 'utf8');
    });
  });
}

/** RCPT TO again every 250 ms until `done(code)` or the timeout; the last answer and when it came. */
async function waitForRcpt(port, address, done, { timeoutMs = 30000, ...opts } = {}) {
  const t0 = Date.now();
  for (;;) {
    const answer = await rcptTo(port, address, opts);
    if (done(answer.code) || Date.now() - t0 > timeoutMs) return { ...answer, ms: Date.now() - t0 };
    await sleep(250);
  }
}

/**
 * Splits what Haraka handed on: its leading Received: header, the X-Rspamd-* headers that the
 * rspamd plugin added, and the rest, which must be the sender's exact bytes.
 */
function splitHarakaHeaders(buf) {
  const text = buf.toString('latin1'); // 1 byte = 1 char: offsets stay byte offsets
  const eoh = text.indexOf('\r\n\r\n');
  const headerLines = text.slice(0, eoh + 2).match(/[^\r\n]*\r\n/g);
  const fields = [];
  for (const line of headerLines) {
    if (/^[ \t]/.test(line) && fields.length) fields[fields.length - 1] += line;
    else fields.push(line);
  }
  const received = /^Received:/i.test(fields[0]) ? fields.shift() : null;
  const rspamd = fields.filter((f) => /^X-Rspamd-/i.test(f));
  const kept = fields.filter((f) => !/^X-Rspamd-/i.test(f));
  return {
    received,
    rspamd,
    original: Buffer.from(kept.join('') + text.slice(eoh + 2), 'latin1'),
  };
}

/**
 * Stands in for POST /api/quarantine/ingest/: a real HTTP server on 127.0.0.1 that checks the
 * token, parses the multipart form with the platform's parser, answers 201 {id} (the same id for a
 * uuid it already has, as the api does), and can be stopped (connection refused) and started again on
 * the same port.
 */
async function startIngestStandIn(token) {
  const received = [];
  const ids = new Map();
  const sockets = new Set();
  let server = null;
  let port = 0;
  const handler = (req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const reply = (status, body) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      try {
        if (req.method !== 'POST' || req.url !== '/api/quarantine/ingest/') return reply(404, { detail: 'Not found.' });
        if (req.headers.authorization !== `Bearer ${token}`) return reply(401, { detail: 'bad token' });
        const form = await new Response(Buffer.concat(chunks), {
          headers: { 'content-type': req.headers['content-type'] },
        }).formData();
        const meta = JSON.parse(String(form.get('meta')));
        const file = form.get('message');
        const raw = Buffer.from(await file.arrayBuffer());
        received.push({ meta, raw, type: file.type, headers: req.headers });
        const known = ids.get(meta.uuid);
        if (known) return reply(201, { id: known });
        const id = `q${ids.size + 1}`;
        ids.set(meta.uuid, id);
        return reply(201, { id });
      } catch (err) {
        return reply(400, { detail: String(err) });
      }
    });
  };
  const listen = () =>
    new Promise((resolve, reject) => {
      server = http.createServer(handler);
      server.on('connection', (s) => {
        sockets.add(s);
        s.on('close', () => sockets.delete(s));
      });
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        port = server.address().port;
        resolve();
      });
    });
  const stop = () =>
    new Promise((resolve) => {
      if (!server) return resolve();
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
      server = null;
    });
  await listen();
  return { url: `http://127.0.0.1:${port}`, received, stop, start: listen, close: stop };
}

/**
 * The real api (api/src/server.ts: migrate, first admin, listen) on 127.0.0.1 with a temp SQLite
 * data directory; stop() and start() again keep the data. addDomain/deleteDomain change the
 * console's domains in its database directly (what the domain administration does). With
 * `mapsToken` it serves the Rspamd maps (QC_RSPAMD_MAPS_TOKEN, Expires `mapsExpires` s ahead); `db` is its
 * database, `request(method, url, body)` a call signed in as the admin (after login()). `env`: more
 * QC_* settings; `logStream`: where its log lines go (with a QC_LOG_LEVEL in `env`; silent by default).
 */
async function startRealApi({ port, token, mapsToken, mapsExpires = 1, env: extraEnv = {}, logStream }) {
  const { loadConfig } = require('../../api/src/config');
  const { startServer } = require('../../api/src/server');
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'qc-stack-api-'));
  const admin = { email: 'admin@example.com', password: `pw-${crypto.randomBytes(8).toString('hex')}` };
  // Only these variables: a developer's own QC_* settings must not leak into the test.
  const env = {
    QC_DATA_DIR: dataDir,
    QC_HOST: '127.0.0.1',
    QC_PORT: String(port),
    QC_LOG_LEVEL: 'silent',
    QC_INGEST_TOKEN: token,
    QC_ADMIN_EMAIL: admin.email,
    QC_ADMIN_PASSWORD: admin.password,
    QC_MFA_REQUIRED_ROLES: 'none', // login() signs in as the admin with the password only
    QC_ARGON2_MEMORY_KIB: '64',
    QC_ARGON2_TIME_COST: '1',
    QC_STATIC_DIR: path.join(dataDir, 'static'),
    QC_REMOTES_DIR: path.join(dataDir, 'remotes'),
    ...(mapsToken ? { QC_RSPAMD_MAPS_TOKEN: mapsToken, QC_RSPAMD_MAPS_EXPIRES: String(mapsExpires) } : {}),
    ...extraEnv,
  };
  let config = loadConfig(env, dataDir);
  let app = await startServer(config, () => {}, { logStream });
  // The console's database, as the domain administration changes it (a second handle: SQLite WAL).
  const { openMigratedDatabase } = require('../../api/src/db/database');
  const { ensureDomain } = require('../../api/src/modules/domains/domains.service');
  const database = await openMigratedDatabase(config.database);
  const base = `http://127.0.0.1:${port}`;
  let access = null;
  const call = async (method, url, body) => {
    const headers = { accept: 'application/json' };
    if (access) headers.authorization = `Bearer ${access}`;
    if (body) headers['content-type'] = 'application/json';
    const res = await fetch(base + url, { method, headers, body: body ? JSON.stringify(body) : undefined });
    return res;
  };
  return {
    url: base,
    db: database.db,
    request: call,
    async stop() {
      if (app) await app.close();
      app = null;
    },
    /** Starts again on the same data; `moreEnv` (e.g. QC_RSPAMD_CONTROLLER_URL) on top of the first settings. */
    async start(moreEnv) {
      if (moreEnv) config = loadConfig({ ...env, ...moreEnv }, dataDir);
      app = await startServer(config, () => {}, { logStream });
    },
    async login() {
      const res = await call('POST', '/api/auth/login/', admin);
      if (res.status !== 200) throw new Error(`login: ${res.status} ${await res.text()}`);
      access = (await res.json()).access;
    },
    async json(url) {
      const res = await call('GET', url);
      if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
      return res.json();
    },
    async bytes(url) {
      const res = await call('GET', url);
      if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
      return Buffer.from(await res.arrayBuffer());
    },
    addDomain: (name) => ensureDomain(database.db, name),
    async deleteDomain(name) {
      await database.db.deleteFrom('domains').where('name', '=', name).execute();
    },
    async close() {
      await this.stop();
      await database.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = {
  TOKEN,
  message,
  rcptTo,
  send,
  splitHarakaHeaders,
  startIngestStandIn,
  startRealApi,
  sleep,
  waitForRcpt,
};
