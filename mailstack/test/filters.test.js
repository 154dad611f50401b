'use strict';
// The console's Rspamd rules, live in the real mail stack: the real api (temp SQLite) serves them as
// maps, the real Rspamd fetches them (multimap.conf, rspamd.lua), the real Haraka with
// haraka-plugin-qconsole carries out what they force. One stack for the whole file.
//   1. a rule of each filter family, a control-panel filter and a system rule, saved together: each
//      is live within 15 s of its save (a /checkv2 shows its symbol with the rule's token), and a
//      matching message gets the rule's action; messages that match nothing are delivered;
//   2. disabled or deleted (together): within 15 s the same messages are delivered;
//   3. Rspamd loaded nothing from outside the machine;
//   4. the maps secret is in no log (Rspamd's, the maps proxy's, the api's), even while the api is
//      down, and an idle stack writes no line per map poll at the default levels.
// An accept filter is tried on a message whose score alone would have it quarantined
// (X-Loopback-Score: quarantine, mailstack/index.js): Rspamd forces "no action" and it is delivered.

const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');
const { freePort, request } = require('../lib/net');
const { startMailStack, startSink } = require('..');
const { TOKEN, message, send, startRealApi, sleep } = require('./helpers');
const { rulesClient } = require('./rules');

const LIVE_MS = 15_000;
const GREYLIST_MS = 3000; // the plugin's [greylist] window here
const MAPS_TOKEN = `maps-${crypto.randomBytes(16).toString('hex')}`;
const n = crypto.randomBytes(3).toString('hex');
const to = ['bob@example.com'];

let api;
let sink;
let stack;
let rules;
// The api's log lines, at debug: those at info and above are what it writes by default.
const apiLog = [];
beforeAll(async () => {
  api = await startRealApi({
    port: await freePort(),
    token: TOKEN,
    mapsToken: MAPS_TOKEN,
    env: { QC_LOG_LEVEL: 'debug' },
    logStream: { write: (line) => void apiLog.push(JSON.parse(line)) },
  });
  await api.addDomain('example.com');
  sink = await startSink();
  stack = await startMailStack({
    apiUrl: api.url,
    ingestToken: TOKEN,
    nextHop: `127.0.0.1:${sink.port}`,
    domainsRefresh: 1,
    maps: { token: MAPS_TOKEN },
    greylistWindow: GREYLIST_MS / 1000,
  });
  await api.login();
  rules = rulesClient(api);
}, 120_000);
afterAll(async () => {
  await stack?.stop();
  await sink?.close();
  await api?.close();
});

/** Polls `fn` every 250 ms until it returns something truthy or `ms` pass: {value, ms}. */
async function waitFor(fn, ms = LIVE_MS + 5000) {
  const t0 = Date.now();
  for (;;) {
    const value = await fn();
    if (value || Date.now() - t0 > ms) return { value, ms: Date.now() - t0 };
    await sleep(250);
  }
}

/** Rspamd's verdict (its normal worker, the one Haraka asks) for a probe message. */
async function checkv2({ ip = '127.0.0.1', from = 'probe@sender.example', rcpt = to[0], subject = 'Probe', score }) {
  const res = await request(`${stack.rspamd.url}/checkv2`, {
    method: 'POST',
    headers: { IP: ip, Hostname: 'localhost', Helo: 'probe.test', From: from, Rcpt: rcpt },
    body: `${score ? `X-Loopback-Score: ${score}\r\n` : ''}From: <${from}>\r\nTo: <${rcpt}>\r\nSubject: ${subject}\r\nMessage-ID: <p-${Date.now()}@t>\r\n\r\nhello there\r\n`,
  });
  return JSON.parse(res.body);
}

const delivered = (mid) => sink.messages.find((m) => m.raw.toString('utf8').includes(`<${mid}>`));
const mailTo = (spec, tag) => {
  const mid = `${tag}-${n}-${Date.now()}@filters.test`;
  const rcpts = spec.to ?? to;
  return {
    mid,
    from: spec.from,
    to: rcpts,
    localAddress: spec.ip,
    // `score`: the loopback stack's test score header (mailstack/index.js LOOPBACK_SCORES).
    raw: `${spec.score ? `X-Loopback-Score: ${spec.score}\r\n` : ''}${message({ from: spec.from, to: rcpts, subject: spec.subject, mid })}`,
  };
};
const findInConsole = async (subject) =>
  (await api.json(`/api/quarantine/?q=${encodeURIComponent(subject)}&page_size=10`)).results.filter(
    (m) => m.subject === subject,
  );

// One rule of each kind, a message that matches it, and the probe that tells it is live.
const CASES = [
  {
    key: 'domains',
    name: 'domains, exact: reject',
    kind: 'filter',
    type: 'domains',
    body: { value: `blocked-${n}.example`, pattern_type: 'exact', action: 'reject', description: 'test reject' },
    symbol: 'QC_FILTER_DOMAINS_REJECT_EXACT',
    mail: { from: `Boss@Blocked-${n}.Example`, subject: `Domain ${n}` }, // case does not matter
    probe: { from: `x@blocked-${n}.example` },
  },
  {
    key: 'users',
    name: 'users, wildcard: quarantine',
    kind: 'filter',
    type: 'users',
    body: { value: `promo-*@news-${n}.example`, pattern_type: 'wildcard', action: 'quarantine', description: 'test q' },
    symbol: 'QC_FILTER_USERS_QUARANTINE_REGEX',
    mail: { from: `PROMO-7@news-${n}.example`, subject: `Users ${n}` },
    probe: { from: `promo-1@news-${n}.example` },
  },
  {
    key: 'ips',
    name: 'ips, exact: add header',
    kind: 'filter',
    type: 'ips',
    body: { value: '127.0.0.2', pattern_type: 'exact', action: 'add_header', description: 'test header' },
    symbol: 'QC_FILTER_IPS_ADD_HEADER_RADIX',
    mail: { from: `alice@ips-${n}.example`, subject: `Ips ${n}`, ip: '127.0.0.2' },
    probe: { ip: '127.0.0.2' },
  },
  {
    key: 'accept',
    name: 'ips, exact: accept (a message its score alone would quarantine)',
    kind: 'filter',
    type: 'ips',
    body: { value: '127.0.0.6', pattern_type: 'exact', action: 'accept', description: 'test accept' },
    symbol: 'QC_FILTER_IPS_ACCEPT_RADIX',
    mail: { from: `carol@accept-${n}.example`, subject: `Accept ${n}`, ip: '127.0.0.6', score: 'quarantine' },
    probe: { ip: '127.0.0.6' },
    // The same message from another address: its score decides, it is quarantined.
    other: { from: `carol@accept-${n}.example`, subject: `Accept other ${n}`, score: 'quarantine' },
    // Once the rule is gone, its own message is quarantined too.
    afterDrop: 'held',
  },
  {
    key: 'special',
    name: 'special (Subject), regex with a blank and #: reject',
    kind: 'filter',
    type: 'special',
    body: { value: '/^invoice #\\d+ overdue$/i', pattern_type: 'regex', action: 'reject', description: 'test subj' },
    symbol: 'QC_FILTER_SPECIAL_REJECT_REGEX',
    mail: { from: `billing@special-${n}.example`, subject: 'Invoice #4242 OVERDUE' },
    probe: { subject: 'invoice #1 overdue' },
  },
  {
    key: 'apanel',
    name: 'control-panel filter: discard',
    kind: 'apanel',
    body: {
      owner_id: null,
      from: `*@discard-${n}.example`,
      to: 'bob@example.com',
      action: 'discard',
      description: 'test d',
    },
    symbol: 'QC_APANEL_DISCARD',
    mail: { from: `x@discard-${n}.example`, subject: `Apanel ${n}` },
    probe: { from: `y@discard-${n}.example` },
    // The same sender to another recipient does not match the filter's `to`.
    other: { from: `x@discard-${n}.example`, subject: `Apanel other ${n}`, to: ['carol@example.com'] },
  },
  {
    key: 'system',
    name: 'system rule (ip CIDR + subject wildcard): greylist',
    kind: 'system',
    body: { name: `greylist ${n}`, ip: '127.0.0.4/31', subject: 'Greylist me *', action: 'greylist' },
    symbol: 'QC_SYSTEM_GREYLIST',
    mail: { from: `bulk@system-${n}.example`, subject: 'Greylist me please', ip: '127.0.0.5' },
    probe: { ip: '127.0.0.5', subject: 'Greylist me now' },
    // Every pattern must match: the right network with another subject is not greylisted.
    other: { from: `bulk@system-${n}.example`, subject: `Hello ${n}`, ip: '127.0.0.5' },
  },
  {
    key: 'soft',
    name: 'system rule (sender wildcard): soft reject',
    kind: 'system',
    body: { name: `soft ${n}`, from: `*@soft-${n}.example`, action: 'soft_reject' },
    symbol: 'QC_SYSTEM_SOFT_REJECT',
    mail: { from: `x@soft-${n}.example`, subject: `Soft ${n}` },
    probe: { from: `y@soft-${n}.example` },
  },
];
const NEUTRAL = { from: 'alice@example.org', subject: `Lunch ${n}` };

const symbolOf = (verdict, name) => verdict?.symbols?.[name];

test("each rule is live within 15 s of its save and its message gets the rule's action; the rest is delivered", async () => {
  // Saved together (each with its save time), then each probed until its symbol shows.
  for (const c of CASES) {
    c.savedAt = Date.now();
    c.id = await rules.create(c.kind, c.type, c.body);
    c.token = `${c.kind}:${c.id}`;
  }
  await Promise.all(
    CASES.map(async (c) => {
      const { value } = await waitFor(async () => symbolOf(await checkv2(c.probe), c.symbol));
      c.liveMs = Date.now() - c.savedAt;
      expect({ rule: c.name, live: Boolean(value), options: value?.options ?? [] }).toEqual({
        rule: c.name,
        live: true,
        options: expect.arrayContaining([c.token]), // the verdict names the rule
      });
    }),
  );

  const byName = Object.fromEntries(CASES.map((c) => [c.key, c]));
  const results = {};
  for (const c of CASES) results[c.key] = { ...mailTo(c.mail, c.key) };
  for (const [key, r] of Object.entries(results)) {
    r.startedAt = Date.now();
    r.answer = await send(stack.smtpPort, r);
    // The same sender retrying at once (well within the window) is greylisted again.
    if (key === 'system') r.atOnce = await send(stack.smtpPort, r);
  }

  // reject → 550 5.7.1 naming the rule, not delivered
  for (const key of ['domains', 'special']) {
    expect(results[key].answer.code).toBe(550);
    expect(results[key].answer.response).toMatch(new RegExp(`5\\.7\\.1 .*${byName[key].token}`));
  }
  // quarantine → 250 and held by the console, its verdict naming the rule
  expect(results.users.answer.code).toBe(250);
  const held = (await waitFor(async () => (await findInConsole(byName.users.mail.subject))[0], 5000)).value;
  expect(held).toBeTruthy();
  const detail = await api.json(`/api/quarantine/${held.id}/`);
  const heldBy = detail.symbols.find((s) => s.symbol === 'QC_FILTER_USERS_QUARANTINE_REGEX');
  expect(heldBy?.options).toContain(byName.users.token);
  // add header → delivered with X-Spam: Yes
  expect(results.ips.answer.code).toBe(250);
  expect(delivered(results.ips.mid)?.raw.toString('utf8')).toMatch(/^X-Spam: Yes\r?$/m);
  // accept → Rspamd forces "no action" over a quarantine score: 250, delivered, never held; the same
  // message from an address no rule names is quarantined by its score.
  const accepted = await checkv2({ ...byName.accept.probe, score: 'quarantine' });
  expect({ action: accepted.action, symbol: Boolean(symbolOf(accepted, byName.accept.symbol)) }).toEqual({
    action: 'no action',
    symbol: true,
  });
  expect(results.accept.answer.code).toBe(250);
  const acceptOther = mailTo(byName.accept.other, 'acceptother');
  expect((await send(stack.smtpPort, acceptOther)).code).toBe(250);
  expect((await waitFor(async () => (await findInConsole(byName.accept.other.subject))[0], 5000)).value).toBeTruthy();
  // discard → 250, never delivered, logged with the rule
  expect(results.apanel.answer.code).toBe(250);
  expect(results.apanel.answer.response).toMatch(/Message accepted/);
  // greylist → 451 4.7.1, again 451 for a retry at once, then delivered when the same sender retries
  // after the window (3 s here)
  for (const answer of [results.system.answer, results.system.atOnce]) {
    expect(answer.code).toBe(451);
    expect(answer.response).toMatch(new RegExp(`4\\.7\\.1 Greylisted.*${byName.system.token}`));
  }
  // soft reject → 451 4.7.1 (answered by haraka-plugin-rspamd with the message rspamd.lua wrote)
  expect(results.soft.answer.code).toBe(451);
  expect(results.soft.answer.response).toMatch(new RegExp(`4\\.7\\.1 Deferred by local policy.*${byName.soft.token}`));
  const retried = await waitFor(async () => {
    const r = await send(stack.smtpPort, results.system);
    return r.code === 250 ? r : null;
  }, 10_000);
  expect(retried.value?.code).toBe(250);
  // From the first attempt's start to the accepted retry's answer: the plugin's clock for the window
  // starts inside the first attempt and stops inside the retry, so no slack is needed.
  const waited = Date.now() - results.system.startedAt;
  expect(waited).toBeGreaterThanOrEqual(GREYLIST_MS);

  // What matches nothing is delivered: a plain message, and near misses of the apanel filter
  // (another recipient) and of the system rule (another subject).
  // Also: the apanel filter's sender to bob AND carol (its `to` must match every recipient: bob's
  // filter never drops carol's copy), and a null envelope sender whose From header names the
  // rejected domain (the filters read the envelope only, never a header the sender writes).
  const others = [
    NEUTRAL,
    byName.apanel.other,
    byName.system.other,
    { ...byName.apanel.mail, to: ['bob@example.com', 'carol@example.com'] },
  ].map((spec, i) => mailTo(spec, `other${i}`));
  others.push({ ...mailTo(byName.domains.mail, 'nullsender'), from: '' });
  for (const o of others)
    expect({ mid: o.mid, code: (await send(stack.smtpPort, o)).code }).toEqual({ mid: o.mid, code: 250 });

  await sleep(500); // nothing held back may reach the sink late
  for (const key of ['domains', 'special', 'users', 'apanel', 'soft'])
    expect(delivered(results[key].mid)).toBeUndefined();
  for (const o of [...others, results.system, results.ips, results.accept]) expect(delivered(o.mid)).toBeTruthy();
  expect(delivered(acceptOther.mid)).toBeUndefined();
  expect(await findInConsole(NEUTRAL.subject)).toHaveLength(0);
  expect(await findInConsole(byName.accept.mail.subject)).toHaveLength(0);
  const haraka = fs.readFileSync(stack.logs.haraka, 'utf8');
  expect(haraka).toMatch(new RegExp(`discarded \\(discard by ${byName.apanel.token}\\): accepted, not delivered`));

  for (const c of CASES)
    expect({ rule: c.name, within15s: c.liveMs < LIVE_MS }).toEqual({ rule: c.name, within15s: true });
  console.log(`filters.test: live after ${CASES.map((c) => `${c.symbol} ${c.liveMs} ms`).join(', ')}`);
}, 90_000);

test('disabled or deleted, each rule stops within 15 s: the same messages are delivered', async () => {
  const drop = ['disable', 'delete'];
  CASES.forEach((c, i) => (c.drop = drop[i % 2]));
  for (const c of CASES) {
    c.savedAt = Date.now();
    if (c.drop === 'disable') await rules.setEnabled(c.kind, c.type, c.id, false);
    else await rules.remove(c.kind, c.type, c.id);
  }
  await Promise.all(
    CASES.map(async (c) => {
      const { value } = await waitFor(async () => !symbolOf(await checkv2(c.probe), c.symbol));
      c.goneMs = Date.now() - c.savedAt;
      expect({ rule: c.name, gone: Boolean(value) }).toEqual({ rule: c.name, gone: true });
    }),
  );
  for (const c of CASES) {
    const m = mailTo({ ...c.mail, subject: `${c.mail.subject} again` }, `again-${c.key}`);
    const answer = await send(stack.smtpPort, m);
    expect({ rule: c.name, code: answer.code }).toEqual({ rule: c.name, code: 250 });
    // The accept rule's own message: its score decides again, it is quarantined, not delivered.
    const held = c.afterDrop === 'held';
    const outcome = { rule: c.name, delivered: Boolean(delivered(m.mid)) };
    if (held)
      outcome.held = Boolean(
        (await waitFor(async () => (await findInConsole(`${c.mail.subject} again`))[0], 5000)).value,
      );
    expect(outcome).toEqual(held ? { rule: c.name, delivered: false, held: true } : { rule: c.name, delivered: true });
    expect({ rule: c.name, within15s: Date.now() - c.savedAt < LIVE_MS }).toEqual({ rule: c.name, within15s: true });
  }
  console.log(`filters.test: gone after ${CASES.map((c) => `${c.symbol} (${c.drop}) ${c.goneMs} ms`).join(', ')}`);
}, 60_000);

test('Rspamd loaded nothing from outside the machine; its map cache stays in the run directory', () => {
  const log = fs.readFileSync(stack.logs.rspamd, 'utf8');
  expect(log).not.toMatch(/https:\/\//);
  expect(log).not.toMatch(/maps\.rspamd\.com/);
  expect(log).not.toMatch(/cannot load map/);
  const added = [...log.matchAll(/rspamd_map_add: added map (\S+)/g)].map((m) => m[1]);
  expect(added.length).toBeGreaterThan(31);
  for (const url of added) expect(url).toMatch(/^(\/|file:\/\/|http:\/\/127\.0\.0\.1:\d+\/api\/rspamd\/maps\/)/);
  // The console's maps were fetched over HTTP, and Rspamd's copies of them are in this run's DBDIR.
  expect(added.filter((u) => u.includes('/api/rspamd/maps/'))).toHaveLength(31);
  const db = path.join(stack.runDir, 'rspamd', 'db');
  expect(fs.readdirSync(db).filter((f) => f.endsWith('.map')).length).toBeGreaterThanOrEqual(30);
});

test('the maps secret is in no log, even while the api is down; an idle stack logs no line per map poll', async () => {
  const IDLE_MS = 8000;
  const linesSince = (file, from) => fs.readFileSync(file).subarray(from).toString('utf8').split('\n').filter(Boolean);
  // The api's lines about the maps: requests to /api/rspamd/maps/, and the lines of the same requests.
  const mapLines = (lines) => {
    const ids = new Set(lines.filter((l) => l.req?.url?.startsWith('/api/rspamd/maps/')).map((l) => l.reqId));
    return lines.filter((l) => ids.has(l.reqId));
  };

  // Idle (no mail, no change), Rspamd polls every map through the proxy about every 1-6 s.
  const rspamdFrom = fs.statSync(stack.logs.rspamd).size;
  const apiFrom = apiLog.length;
  await sleep(IDLE_MS);
  const polls = mapLines(apiLog.slice(apiFrom));
  expect(polls.filter((l) => l.msg === 'Rspamd map answered').length).toBeGreaterThan(31); // it did poll
  expect(polls.filter((l) => l.level >= 30)).toEqual([]); // none of them at info or above
  const rspamdIdle = linesSince(stack.logs.rspamd, rspamdFrom);
  expect(rspamdIdle.filter((l) => /; map;|\/api\/rspamd\/maps\//.test(l))).toEqual([]);
  expect(rspamdIdle.length).toBeLessThanOrEqual(2);

  // The proxy answers Rspamd (Host 127.0.0.1), not a browser led to this loopback by a name of
  // its own (DNS rebinding): the maps are secret.
  const mapUrl = `${stack.maps.proxyUrl}/sender-lists.json`;
  expect((await request(mapUrl)).status).toBe(200);
  expect((await request(mapUrl, { headers: { Host: 'rebind.example' } })).status).toBe(403);

  // The api goes away: Rspamd's polls fail; the proxy says so (without the secret), Rspamd keeps its maps.
  const proxyFrom = fs.statSync(stack.logs.mapsProxy).size;
  await api.stop();
  try {
    const refused = /connect\(\) failed .* upstream: "http:\/\/127\.0\.0\.1:\d+\/api\/rspamd\/maps\/[\w.-]+"/;
    const seen = await waitFor(() => linesSince(stack.logs.mapsProxy, proxyFrom).some((l) => refused.test(l)), 10_000);
    expect(seen.value).toBe(true);
    await sleep(1000); // Rspamd's own lines about its failed fetches
  } finally {
    await api.start();
  }
  const secrets = [MAPS_TOKEN, Buffer.from(`rspamd:${MAPS_TOKEN}`).toString('base64')];
  const leaks = (text) => secrets.filter((secret) => text.includes(secret));
  for (const file of Object.values(stack.logs).filter((f) => fs.existsSync(f)))
    expect({ file: path.basename(file), leaks: leaks(fs.readFileSync(file, 'utf8')) }).toEqual({
      file: path.basename(file),
      leaks: [],
    });
  expect(leaks(JSON.stringify(apiLog))).toEqual([]);
  // Rspamd never holds it: not on its command line, not in its environment (the proxy's config has it).
  for (const what of ['cmdline', 'environ'])
    expect(leaks(fs.readFileSync(`/proc/${stack.pids.rspamd}/${what}`, 'utf8'))).toEqual([]);
}, 40_000);
