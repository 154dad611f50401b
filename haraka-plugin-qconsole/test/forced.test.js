'use strict';
// The actions forced by the console's rules: the pure decision (lib/forced.js), the greylist
// (lib/greylist.js), and both hooks of the plugin loaded as Haraka loads it.

const fs = require('node:fs');
const { OK, DENY, DENYSOFT, CONT } = require('haraka-constants');
const fixtures = require('haraka-test-fixtures');
const { forcedAction, parseSymbol, queueDecision } = require('../lib/forced');
const { Greylist, clientNetwork, tripletKey } = require('../lib/greylist');
const { parseSettings } = require('../lib/settings');
const {
  callQueue,
  loadPlugin,
  makeMail,
  startReceiver,
  stopWatching,
  tempConfigDir,
  PLUGIN_DIR,
} = require('./helpers');

const TOKEN = 'test-ingest-token-0123456789';
const RAW = ['From: <a@sender.example>', 'To: <bob@example.com>', 'Subject: hi', '', 'Hello', ''].join('\r\n');
const sym = (name, options = []) => ({ name, score: 0, metric_score: 0, options });
const verdict = (action, symbols, extra = {}) => ({
  action,
  score: 0,
  required_score: 15,
  symbols: Object.fromEntries(symbols.map((s) => [s.name, s])),
  ...extra,
});

describe('forcedAction (pure)', () => {
  test('names: filters with family and kind, apanel and system rules; anything else is not ours', () => {
    expect(parseSymbol('QC_FILTER_DOMAINS_ADD_HEADER_EXACT')).toEqual({
      kind: 'filter',
      family: 'domains',
      action: 'add_header',
    });
    expect(parseSymbol('QC_SYSTEM_SOFT_REJECT')).toEqual({ kind: 'system', family: null, action: 'soft_reject' });
    expect(parseSymbol('QC_APANEL_DISCARD')).toEqual({ kind: 'apanel', family: null, action: 'discard' });
    for (const name of ['QC_RULES', 'QC_FILTER_DOMAINS_MAYBE', 'XQC_SYSTEM_REJECT', 'GTUBE', 'QC_SYSTEM_REJECT_X']) {
      expect(parseSymbol(name)).toBeNull();
    }
  });

  test("Rspamd's action names: a symbol counts only when its action is the verdict's", () => {
    const cases = [
      ['reject', 'QC_FILTER_USERS_REJECT_EXACT', 'reject'],
      ['no action', 'QC_FILTER_IPS_ACCEPT_RADIX', 'accept'],
      ['add header', 'QC_FILTER_SPECIAL_ADD_HEADER_REGEX', 'add_header'],
      ['quarantine', 'QC_FILTER_DOMAINS_QUARANTINE_REGEX', 'quarantine'],
      ['discard', 'QC_APANEL_DISCARD', 'discard'],
      ['greylist', 'QC_SYSTEM_GREYLIST', 'greylist'],
      ['soft reject', 'QC_SYSTEM_SOFT_REJECT', 'soft_reject'],
    ];
    for (const [action, name, ours] of cases) {
      const forced = forcedAction(verdict(action, [sym(name, ['x@y.example', 'filter:01ABC'])]));
      expect(forced).toMatchObject({ action: ours, tokens: ['filter:01ABC'], symbols: [name] });
    }
    // A rule whose forced action lost to another one (GTUBE, an earlier pre-result) decides nothing.
    expect(forcedAction(verdict('reject', [sym('QC_FILTER_USERS_ACCEPT_EXACT', ['filter:1'])]))).toBeNull();
    // A score-based verdict without our symbols: the score decides, as before.
    expect(forcedAction(verdict('reject', [sym('GTUBE')]))).toBeNull();
    expect(forcedAction({ action: 'greylist', score: 5, symbols: { QC_SYSTEM_GREYLIST: 0 } })).toMatchObject({
      action: 'greylist',
      tokens: [],
    });
    expect(forcedAction(undefined)).toBeNull();
  });

  test('tokens of every matching symbol, once each; the smtp message in either form', () => {
    const forced = forcedAction(
      verdict('reject', [sym('QC_APANEL_REJECT', ['apanel:A1']), sym('QC_SYSTEM_REJECT', ['system:S1', 'apanel:A1'])], {
        messages: 'smtp_message : Refused by local policy',
      }),
    );
    expect(forced).toMatchObject({ tokens: ['apanel:A1', 'system:S1'], message: 'Refused by local policy' });
    expect(
      forcedAction(verdict('reject', [sym('QC_SYSTEM_REJECT')], { messages: { smtp_message: 'No' } })).message,
    ).toBe('No');
  });

  test('queueDecision: quarantine, discard, deliver; nothing forced → null', () => {
    expect(queueDecision(null)).toBeNull();
    const f = (action) => ({ action, tokens: ['filter:X'], symbols: [], message: '' });
    expect(queueDecision(f('quarantine'))).toEqual({ kind: 'quarantine', reason: 'quarantine by filter:X' });
    expect(queueDecision(f('discard'))).toEqual({ kind: 'discard', reason: 'discard by filter:X' });
    for (const a of ['accept', 'add_header', 'greylist']) expect(queueDecision(f(a)).kind).toBe('pass');
    expect(queueDecision(f('reject'))).toBeNull();
  });
});

describe('greylist (pure, a fake clock)', () => {
  let now;
  const make = (over = {}) =>
    new Greylist({ windowMs: 300_000, lifetimeMs: 86_400_000, maxEntries: 100, now: () => now, ...over });
  const t1 = { ip: '192.0.2.10', sender: 'a@x.example', recipients: ['b@y.example', 'c@y.example'] };
  beforeEach(() => {
    now = 1_000_000;
  });

  test('deferred until the same triplet retries after the window, then let through', () => {
    const g = make();
    expect(g.check(t1)).toEqual({ pass: false, waitMs: 300_000 });
    now += 299_000;
    expect(g.check(t1)).toEqual({ pass: false, waitMs: 1000 });
    now += 1000;
    expect(g.check(t1).pass).toBe(true);
    now += 3600_000;
    expect(g.check(t1).pass).toBe(true); // known now: later mail of the triplet passes
  });

  test('the triplet: the client /24 or /64, the sender, the recipients in any order and case', () => {
    const g = make();
    g.check(t1);
    now += 300_000;
    expect(g.check({ ...t1, ip: '192.0.2.200', recipients: ['C@y.example', 'b@y.example'] }).pass).toBe(true);
    expect(g.check({ ...t1, ip: '192.0.3.10' }).pass).toBe(false);
    expect(g.check({ ...t1, sender: 'other@x.example' }).pass).toBe(false);
    expect(g.check({ ...t1, recipients: ['b@y.example'] }).pass).toBe(false);
    expect(clientNetwork('2001:db8:1:2:3:4:5:6')).toBe('2001:db8:1:2::/64');
    expect(clientNetwork('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientNetwork('::ffff:198.51.100.7')).toBe('198.51.100.0/24');
    expect(tripletKey({ ip: '2001:db8:0:0:ffff::1', sender: 'A@x', recipients: ['b'] })).toBe(
      tripletKey({ ip: '2001:db8::2', sender: 'a@x', recipients: ['B'] }),
    );
    // A fixed size whatever the number of recipients (the state stays bounded in bytes too).
    const many = Array.from({ length: 5000 }, (_, i) => `rcpt-${i}@example.com`);
    expect(tripletKey({ ip: '192.0.2.1', sender: 'a@x', recipients: many })).toHaveLength(43);
  });

  test('bounded: entries expire after their lifetime, the least recently seen go first', () => {
    const g = make({ lifetimeMs: 10_000, maxEntries: 3 });
    g.check(t1);
    now += 11_000; // not retried in time: starts over
    expect(g.check(t1)).toEqual({ pass: false, waitMs: 300_000 });
    for (let i = 0; i < 5; i++) g.check({ ...t1, sender: `s${i}@x.example` });
    expect(g.size).toBe(3);
    now += 20_000;
    g.check({ ...t1, sender: 'fresh@x.example' });
    expect(g.size).toBe(1);
  });

  test('[greylist] settings: defaults and bad values', () => {
    expect(parseSettings({}, {}).greylist).toEqual({ windowMs: 300_000, lifetimeMs: 86_400_000, maxEntries: 100_000 });
    expect(parseSettings({ greylist: { window: '2' } }, {}).greylist.windowMs).toBe(2000);
    expect(() => parseSettings({ greylist: { window: 'soon' } }, {})).toThrow(/\[greylist\] window/);
    expect(() => parseSettings({ greylist: { max_entries: '0' } }, {})).toThrow(/\[greylist\] max_entries/);
  });
});

describe('the hooks, the plugin loaded as Haraka loads it', () => {
  let receiver;
  let dir;
  let plugin;
  beforeEach(async () => {
    receiver = await startReceiver(201);
    dir = tempConfigDir(`[api]\nurl = ${receiver.url}\ntoken = ${TOKEN}\ntimeout = 2\n[greylist]\nwindow = 1\n`);
    plugin = loadPlugin(dir);
  });
  afterEach(async () => {
    stopWatching(plugin, dir);
    fs.rmSync(dir, { recursive: true, force: true });
    await receiver.close();
  });
  afterAll(() => plugin && stopWatching(plugin, PLUGIN_DIR));

  const dataPost = (connection) => fixtures.callHook(plugin, 'enforce_forced_action', connection);

  test('reject: 550 5.7.1 at the end of DATA, naming the rule; nothing is POSTed', async () => {
    const connection = await makeMail({
      raw: RAW,
      rspamd: verdict('reject', [sym('QC_FILTER_DOMAINS_REJECT_EXACT', ['sender.example', 'filter:01F'])], {
        messages: 'smtp_message : Refused by local policy',
      }),
    });
    const { rc, msg } = await dataPost(connection);
    expect(rc).toBe(DENY);
    expect(msg.code).toBe(550);
    expect(msg.reply).toMatch(/^5\.7\.1 Refused by local policy \(filter:01F\)$/);
    expect(receiver.requests).toHaveLength(0);
  });

  test('soft reject and a greylist not waited out: 451 4.7.1; the greylisted retry after the window passes', async () => {
    const soft = await makeMail({
      raw: RAW,
      rspamd: verdict('soft reject', [sym('QC_SYSTEM_SOFT_REJECT', ['system:S'])]),
    });
    const softAnswer = await dataPost(soft);
    expect(softAnswer.rc).toBe(DENYSOFT);
    expect(softAnswer.msg.code).toBe(451);
    expect(softAnswer.msg.reply).toMatch(/^4\.7\.1 .*\(system:S\)$/);

    const grey = verdict('greylist', [sym('QC_SYSTEM_GREYLIST', ['system:G'])]);
    const first = await dataPost(await makeMail({ raw: RAW, rspamd: grey }));
    expect(first.rc).toBe(DENYSOFT);
    expect(first.msg.code).toBe(451);
    expect(first.msg.reply).toMatch(/^4\.7\.1 Greylisted, try again later \(system:G\)$/);
    expect((await dataPost(await makeMail({ raw: RAW, rspamd: grey }))).rc).toBe(DENYSOFT); // too soon
    await new Promise((r) => setTimeout(r, 1100)); // [greylist] window = 1
    const retry = await makeMail({ raw: RAW, rspamd: grey });
    expect((await dataPost(retry)).rc ?? CONT).toBe(CONT);
    // ... and the queue hook delivers it, whatever the score.
    retry.transaction.results.add({ name: 'rspamd' }, { score: 12 });
    expect((await callQueue(plugin, retry)).rc ?? CONT).toBe(CONT);
    expect(receiver.requests).toHaveLength(0);
  });

  test('add header: X-Spam: Yes replaces any the sender wrote, and the mail is delivered', async () => {
    const connection = await makeMail({
      raw: `X-Spam: No\r\n${RAW}`,
      rspamd: verdict('add header', [sym('QC_FILTER_USERS_ADD_HEADER_REGEX', ['filter:H'])]),
    });
    expect((await dataPost(connection)).rc ?? CONT).toBe(CONT);
    expect(connection.transaction.header.get_all('X-Spam')).toEqual(['Yes']);
    expect((await callQueue(plugin, connection)).rc ?? CONT).toBe(CONT);
  });

  test('discard: 250 and dropped (not forwarded, not quarantined), the rule in the results', async () => {
    const connection = await makeMail({
      raw: RAW,
      rspamd: verdict('discard', [sym('QC_APANEL_DISCARD', ['apanel:D'])]),
    });
    expect((await dataPost(connection)).rc ?? CONT).toBe(CONT);
    const { rc, msg } = await callQueue(plugin, connection);
    expect(rc).toBe(OK);
    expect(msg).toBe('Message accepted');
    expect(receiver.requests).toHaveLength(0);
    expect(connection.transaction.results.get('qconsole').msg.join()).toMatch(/discard by apanel:D/);
  });

  test('accept: delivered though the score would quarantine; quarantine: held with the rule as reason', async () => {
    const accepted = await makeMail({
      raw: RAW,
      rspamd: verdict('no action', [sym('QC_FILTER_IPS_ACCEPT_RADIX', ['192.0.2.10', 'filter:A'])], { score: 40 }),
    });
    expect((await callQueue(plugin, accepted)).rc ?? CONT).toBe(CONT);
    expect(receiver.requests).toHaveLength(0);

    const held = await makeMail({
      raw: RAW,
      rspamd: verdict('quarantine', [sym('QC_FILTER_SPECIAL_QUARANTINE_REGEX', ['hi', 'filter:Q'])]),
    });
    expect((await dataPost(held)).rc ?? CONT).toBe(CONT);
    expect((await callQueue(plugin, held)).rc).toBe(OK);
    expect(receiver.requests).toHaveLength(1);
    expect(held.transaction.notes.qconsole.reason).toBe('quarantine by filter:Q');
  });

  test('a score-based reject without a rule of the console is quarantined as before', async () => {
    const connection = await makeMail({ raw: RAW, rspamd: verdict('reject', [sym('GTUBE')], { score: 15 }) });
    expect((await dataPost(connection)).rc ?? CONT).toBe(CONT);
    expect((await callQueue(plugin, connection)).rc).toBe(OK);
    expect(receiver.requests).toHaveLength(1);
  });

  test('an exception while enforcing answers 4xx, never lets the mail through', async () => {
    const connection = await makeMail({ raw: RAW, rspamd: verdict('greylist', [sym('QC_SYSTEM_GREYLIST')]) });
    plugin.greylist.check = () => {
      throw new Error('boom');
    };
    const { rc, msg } = await dataPost(connection);
    expect(rc).toBe(DENYSOFT);
    expect(msg.code).toBe(451);
  });
});
