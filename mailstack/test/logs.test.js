'use strict';
// Haraka's log lines in the console, through the real stack: the real Haraka (haraka-plugin-qconsole's
// log hook and shipper) posts them to the real api (temp SQLite), read back as the admin with
// GET /api/haraka/logs/{uuid}/. Haraka's own stdout (stack.logs.haraka) is the reference: every line
// it printed for a connection must be in the console, in the same order, once.
//   1. a message's lines are in the console under its uuid within 5 s (measured, printed);
//   2. with the api stopped while a message goes through, none of its lines is lost: they wait in
//      the spool and arrive after the restart, in order, with no duplicate.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { freePort } = require('../lib/net');
const { startMailStack, startSink } = require('..');
const { TOKEN, message, send, startRealApi, sleep } = require('./helpers');

const n = crypto.randomBytes(3).toString('hex');
const to = ['bob@example.com'];

let api;
let sink;
let stack;
beforeAll(async () => {
  api = await startRealApi({ port: await freePort(), token: TOKEN });
  await api.addDomain('example.com');
  sink = await startSink();
  stack = await startMailStack({
    apiUrl: api.url,
    ingestToken: TOKEN,
    nextHop: `127.0.0.1:${sink.port}`,
    domainsRefresh: 1,
    maps: false,
    logsRetryMax: 1,
  });
  await api.login();
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  await sink?.close();
  await api?.close();
});

/** The lines Haraka printed for connection `conn` (stdout: `<ts> [LEVEL] [uuid] [origin] message`). */
function printed(conn) {
  const out = [];
  for (const line of fs.readFileSync(stack.logs.haraka, 'utf8').split('\n')) {
    const m = /^\S+Z \[([A-Z]+)\] \[([^\]]+)\] \[([^\]]*)\] (.*)$/.exec(line);
    if (m && m[2].split('.')[0] === conn) out.push({ uuid: m[2], origin: m[3], message: m[4] });
  }
  return out;
}

async function consoleLines(conn) {
  const res = await api.request('GET', `/api/haraka/logs/${conn}/`);
  if (res.status === 404) return [];
  if (res.status !== 200) throw new Error(`GET logs ${conn}: ${res.status} ${await res.text()}`);
  return (await res.json()).lines;
}

/** Polls until the console has every line Haraka printed for `conn`, its disconnect included. */
async function waitForAll(conn, ms) {
  const t0 = Date.now();
  let first = null;
  for (;;) {
    const want = printed(conn);
    const got = await consoleLines(conn);
    if (got.length && first === null) first = Date.now() - t0;
    const done = want.some((l) => l.message.startsWith('disconnect')) && got.length >= want.length;
    if (done || Date.now() - t0 > ms) return { want, got, firstMs: first, allMs: Date.now() - t0 };
    await sleep(100);
  }
}

const shape = (lines) => lines.map((l) => `${l.uuid} [${l.origin}] ${l.message}`);

async function sendOne(tag) {
  const raw = message({
    from: `logs-${n}@sender.example`,
    to,
    subject: `Logs ${tag} ${n}`,
    mid: `${tag}-${n}@logs.test`,
  });
  const r = await send(stack.smtpPort, { from: `logs-${n}@sender.example`, to, raw });
  expect(r.code).toBe(250);
  expect(r.uuid).toMatch(/^[0-9A-F-]{36}\.1$/);
  return r.uuid;
}

test('a message sent through Haraka has its lines in the console under its uuid within 5 s', async () => {
  const uuid = await sendOne('live');
  const conn = uuid.split('.')[0];
  const { want, got, firstMs, allMs } = await waitForAll(conn, 10_000);
  console.log(
    `Haraka log → console: first line of ${conn} after ${firstMs} ms, all ${got.length} lines (disconnect included) after ${allMs} ms`,
  );
  expect(allMs).toBeLessThan(5000);
  // Every line once (as a set), then in Haraka's order (the api orders lines of one ms by its id).
  expect([...shape(got)].sort()).toEqual([...shape(want)].sort());
  expect(shape(got)).toEqual(shape(want));
  expect(got.some((l) => l.uuid === uuid)).toBe(true); // the transaction's own lines
  expect(got.every((l) => l.hostname === 'mx.qconsole.test')).toBe(true);
  // The transaction alone, with what became of it.
  const txn = await api.json(`/api/haraka/logs/${uuid}/`);
  expect(txn.lines.length).toBeGreaterThan(0);
  expect(txn.lines.every((l) => l.uuid === uuid)).toBe(true);
  expect(txn.transactions).toEqual([expect.objectContaining({ uuid, outcome: 'queued' })]);
}, 30_000);

test('with the api stopped, no line is lost: they arrive after the restart, in order, once', async () => {
  const spool = path.join(stack.runDir, 'haraka', 'state', 'qconsole-logs');
  await api.stop();
  const uuid = await sendOne('outage');
  const conn = uuid.split('.')[0];
  // Haraka printed the whole connection while the api was down; the shipper spooled it.
  const t0 = Date.now();
  while (!printed(conn).some((l) => l.message.startsWith('disconnect')) && Date.now() - t0 < 5000) await sleep(100);
  await sleep(1500);
  const spooled = fs
    .readdirSync(spool)
    .filter((f) => f.endsWith('.ndjson'))
    .flatMap((f) => fs.readFileSync(path.join(spool, f), 'utf8').split('\n').filter(Boolean).map(JSON.parse));
  expect(spooled.filter((l) => l.uuid?.startsWith(conn)).length).toBe(printed(conn).length);
  await api.start();
  await api.login();
  const restarted = Date.now();
  const { want, got, allMs } = await waitForAll(conn, 15_000);
  console.log(
    `after the api restart, the ${got.length} spooled lines of ${conn} were in the console after ${allMs} ms`,
  );
  expect([...shape(got)].sort()).toEqual([...shape(want)].sort());
  expect(shape(got)).toEqual(shape(want));
  expect(new Set(got.map((l) => l.id)).size).toBe(got.length);
  await sleep(1000); // a late resend would show as a second copy
  expect(shape(await consoleLines(conn))).toEqual(shape(want));
  expect(Date.now() - restarted).toBeLessThan(20_000);
}, 40_000);
