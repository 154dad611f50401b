'use strict';
// Whitelists and blacklists per recipient: the pure plan (lib/lists.js) and the queue hook of the
// plugin loaded as Haraka loads it, against a real HTTP receiver standing in for the api.

const fs = require('node:fs');
const { OK, DENYSOFT, CONT } = require('haraka-constants');
const { hitFor, listHits, guardSymbols, parseLists, recipientPlan } = require('../lib/lists');
const { parseSettings } = require('../lib/settings');
const {
  callQueue,
  loadPlugin,
  makeMail,
  parseMultipart,
  startReceiver,
  stopWatching,
  tempConfigDir,
  PLUGIN_DIR,
} = require('./helpers');

const TOKEN = 'test-ingest-token-0123456789';
const RAW = ['From: <a@sender.example>', 'To: <bob@example.com>', 'Subject: hi', '', 'Hello', ''].join('\r\n');
const sym = (name, options = [], extra = {}) => ({ name, score: 0, metric_score: 0, options, ...extra });
const verdict = (action, score, symbols) => ({
  action,
  score,
  required_score: 15,
  symbols: Object.fromEntries(symbols.map((s) => [s.name, s])),
});
const WHITE = (...opts) => sym('QC_LIST_WHITELIST', opts);
const BLACK = (...opts) => sym('QC_LIST_BLACKLIST', opts);
// Rspamd's own options: SPF's mechanism; DKIM's `<d>:s=<selector>`; DMARC's policy domain and policy.
const SPF_ALLOW = sym('R_SPF_ALLOW', ['+ip4:192.0.2.0/24']);
const DKIM_ALLOW = (...domains) =>
  sym(
    'R_DKIM_ALLOW',
    domains.map((d) => `${d}:s=mail`),
  );
const DMARC_ALLOW = (domain) => sym('DMARC_POLICY_ALLOW', [domain, 'reject']);
const lists = parseLists({});

describe('the plan (pure)', () => {
  test('options per owner key, any case; malformed options ignored; on both lists: blacklisted', () => {
    const hits = listHits(
      verdict('no action', 0, [
        WHITE(
          'Bob@Example.com=list:W1:env',
          'bob@example.com=list:W3:from:Trusted.example',
          'carol@example.com=list:W2',
          'junk',
          'x@y=list:bad id',
        ),
        BLACK('carol@example.com=list:B2'),
      ]),
    );
    expect(Object.fromEntries(hits)).toEqual({
      'bob@example.com': {
        kind: 'whitelist',
        id: 'W1',
        matches: [
          { id: 'W1', env: true, from: null },
          { id: 'W3', env: false, from: 'trusted.example' },
        ],
      },
      'carol@example.com': { kind: 'blacklist', id: 'B2' },
    });
    expect(hits.truncated).toBe(false);
  });

  test('a recipient resolves by its address, else its @domain, else *; a cut blacklist holds the unresolved', () => {
    const hits = listHits(
      verdict('no action', 0, [BLACK('@corp.example=list:D', '*=list:G'), WHITE('boss@corp.example=list:U')]),
    );
    expect(hitFor(hits, 'Boss@Corp.example')).toMatchObject({ kind: 'whitelist', id: 'U' });
    expect(hitFor(hits, 'ann@corp.example')).toEqual({ kind: 'blacklist', id: 'D' });
    expect(hitFor(hits, 'joe@else.example')).toEqual({ kind: 'blacklist', id: 'G' });
    // A domain's blacklist on 300 recipients of the domain is one option: every copy held.
    const many = Array.from({ length: 300 }, (_, i) => `u${i}@corp.example`);
    const v = verdict('no action', 0, [BLACK('@corp.example=list:D')]);
    const held = recipientPlan({
      verdict: v,
      forced: null,
      base: { kind: 'pass', reason: 'score' },
      recipients: many,
      lists,
    });
    expect(held.every((p) => p.kind === 'quarantine')).toBe(true);
    // Rspamd cut the options ("..."): a recipient with no entry found may have been cut: held.
    const cut = verdict('no action', 0, [BLACK('a@x.example=list:B', '...')]);
    const plan = recipientPlan({
      verdict: cut,
      forced: null,
      base: { kind: 'pass', reason: 'score' },
      recipients: ['a@x.example', 'b@x.example'],
      lists,
    });
    expect(plan.map((p) => p.kind)).toEqual(['quarantine', 'quarantine']);
    expect(plan[1].reason).toMatch(/cut/);
  });

  test('guards: the named symbols and any symbol of the groups (antivirus); settings override', () => {
    const v = verdict('reject', 20, [sym('R_SPF_FAIL'), sym('MY_AV', [], { group: 'AntiVirus' }), sym('OTHER')]);
    expect(guardSymbols(v, lists)).toEqual(['R_SPF_FAIL', 'MY_AV']);
    expect(guardSymbols(v, parseLists({ guard_symbols: 'other', guard_groups: '' }))).toEqual(['OTHER']);
    expect([...lists.guardSymbols]).toEqual(
      expect.arrayContaining([
        'R_SPF_FAIL',
        'R_SPF_SOFTFAIL',
        'DMARC_POLICY_REJECT',
        'DMARC_POLICY_QUARANTINE',
        'DMARC_POLICY_SOFTFAIL',
        'CLAM_VIRUS',
      ]),
    );
    // Rspamd skipped its checks (GTUBE): nothing says the sender is genuine.
    expect(guardSymbols({ ...verdict('reject', 15, [sym('GTUBE')]), is_skipped: true }, lists)).toEqual([
      'is_skipped',
      'GTUBE',
    ]);
    expect(parseSettings({}, {}).lists.guardGroups).toEqual(new Set(['antivirus']));
  });

  const rcpts = ['black@example.com', 'white@example.com', 'other@example.com'];
  // The whitelist matched the envelope sender, which passes SPF.
  const marks = [BLACK('black@example.com=list:B'), WHITE('white@example.com=list:W:env'), SPF_ALLOW];
  const plan = (v, base, forced = null) =>
    Object.fromEntries(
      recipientPlan({ verdict: v, forced, base, recipients: rcpts, lists }).map((p) => [p.address, p.kind]),
    );

  test('a score under the quarantine: the blacklisted one held, the others delivered', () => {
    const v = verdict('add header', 7, marks);
    expect(plan(v, { kind: 'pass', reason: 'score' })).toEqual({
      'black@example.com': 'quarantine',
      'white@example.com': 'pass',
      'other@example.com': 'pass',
    });
  });

  test('a quarantine verdict: the whitelisted one delivered, the others held; with GTUBE all held', () => {
    const base = { kind: 'quarantine', reason: 'action=reject' };
    const v = verdict('reject', 16, marks);
    const all = recipientPlan({ verdict: v, forced: null, base, recipients: rcpts, lists });
    expect(all.map((p) => [p.kind, p.reason])).toEqual([
      ['quarantine', 'blacklist list:B'],
      ['pass', 'whitelist list:W (SPF) over action=reject'],
      ['quarantine', 'action=reject'],
    ]);
    const gtube = recipientPlan({
      verdict: { ...verdict('reject', 15, [sym('GTUBE'), ...marks]), is_skipped: true },
      forced: null,
      base,
      recipients: rcpts,
      lists,
    });
    expect(gtube[1]).toMatchObject({
      kind: 'quarantine',
      reason: 'action=reject; whitelist list:W not applied (is_skipped, GTUBE)',
    });
  });

  test('a guard symbol or a forced quarantine: the whitelist is not applied; a forced accept does not free the blacklisted', () => {
    const base = { kind: 'quarantine', reason: 'action=reject' };
    const spf = recipientPlan({
      verdict: verdict('reject', 16, [sym('R_SPF_FAIL', ['-all']), ...marks]),
      forced: null,
      base,
      recipients: rcpts,
      lists,
    });
    expect(spf[1]).toMatchObject({
      kind: 'quarantine',
      reason: 'action=reject; whitelist list:W not applied (R_SPF_FAIL)',
    });
    const v = verdict('quarantine', 0, [sym('QC_FILTER_USERS_QUARANTINE_EXACT', ['filter:Q']), ...marks]);
    expect(plan(v, { kind: 'quarantine', reason: 'quarantine by filter:Q' }, { action: 'quarantine' })).toEqual({
      'black@example.com': 'quarantine',
      'white@example.com': 'quarantine',
      'other@example.com': 'quarantine',
    });
    const accepted = verdict('no action', 30, [sym('QC_APANEL_ACCEPT', ['apanel:A']), ...marks]);
    expect(plan(accepted, { kind: 'pass', reason: 'accept by apanel:A' }, { action: 'accept' })).toEqual({
      'black@example.com': 'quarantine',
      'white@example.com': 'pass',
      'other@example.com': 'pass',
    });
  });
});

describe('a whitelist lifts a quarantine only for an authenticated sender (issue 29)', () => {
  const base = { kind: 'quarantine', reason: 'score=16>=10' };
  const CAROL = 'carol@example.com';
  const planFor = (symbols, recipients = [CAROL]) =>
    recipientPlan({ verdict: verdict('reject', 16, symbols), forced: null, base, recipients, lists }).map((p) => [
      p.kind,
      p.reason,
    ]);
  const heldUnauthenticated = (id = 'W') => [
    'quarantine',
    `score=16>=10; whitelist list:${id} not applied (sender not authenticated)`,
  ];

  test('envelope bad@evil.example, header From x@trusted.example: the From is not authenticated, held', () => {
    // Carol's @trusted.example matched the header From; evil.example's own SPF pass proves nothing about it.
    const fromOnly = WHITE(`${CAROL}=list:W:from:trusted.example`);
    expect(planFor([fromOnly, SPF_ALLOW])).toEqual([heldUnauthenticated()]);
    expect(planFor([fromOnly, SPF_ALLOW, DKIM_ALLOW('evil.example')])).toEqual([heldUnauthenticated()]);
    expect(planFor([fromOnly, DMARC_ALLOW('evil.example')])).toEqual([heldUnauthenticated()]);
  });

  test('envelope x@trusted.example failing or without SPF, header From bad@evil.example: held', () => {
    const envOnly = WHITE(`${CAROL}=list:W:env`);
    expect(planFor([envOnly])).toEqual([heldUnauthenticated()]);
    expect(planFor([envOnly, sym('R_SPF_NEUTRAL', ['?all'])])).toEqual([heldUnauthenticated()]);
    // The From's DKIM and DMARC pass authenticate evil.example, not the envelope the entry matched.
    expect(planFor([envOnly, DKIM_ALLOW('evil.example'), DMARC_ALLOW('evil.example')])).toEqual([
      heldUnauthenticated(),
    ]);
    expect(planFor([envOnly, SPF_ALLOW])).toEqual([['pass', 'whitelist list:W (SPF) over score=16>=10']]);
  });

  test('the header From: DMARC pass, or a DKIM signature aligned with its organisational domain', () => {
    const fromOnly = WHITE(`${CAROL}=list:W:from:trusted.example`);
    const passes = (by) => [['pass', `whitelist list:W (${by}) over score=16>=10`]];
    expect(planFor([fromOnly, DMARC_ALLOW('trusted.example')])).toEqual(passes('DMARC'));
    expect(planFor([fromOnly, DMARC_ALLOW('news.trusted.example')])).toEqual(passes('DMARC'));
    expect(planFor([fromOnly, DKIM_ALLOW('evil.example', 'trusted.example')])).toEqual(
      passes('DKIM d=trusted.example'),
    );
    expect(planFor([fromOnly, DKIM_ALLOW('mail.trusted.example')])).toEqual(passes('DKIM d=mail.trusted.example'));
    // Before Rspamd 2 the option was the domain alone.
    expect(planFor([fromOnly, sym('R_DKIM_ALLOW', ['trusted.example'])])).toEqual(passes('DKIM d=trusted.example'));
    // Not aligned: another domain that merely ends the same way, or one under the attacker's.
    for (const d of ['nottrusted.example', 'trusted.example.evil.example', 'example']) {
      expect({ d, plan: planFor([fromOnly, DKIM_ALLOW(d)]) }).toEqual({ d, plan: [heldUnauthenticated()] });
    }
    // An entry that matched the envelope only is not authenticated by the From's DKIM.
    expect(planFor([WHITE(`${CAROL}=list:W:env`), DKIM_ALLOW('trusted.example')])).toEqual([heldUnauthenticated()]);
  });

  test('several entries of one owner: the authenticated one applies; an option without identities never does', () => {
    const two = WHITE(`${CAROL}=list:W1:env`, `${CAROL}=list:W2:from:partner.example`);
    expect(planFor([two, DKIM_ALLOW('partner.example')])).toEqual([
      ['pass', 'whitelist list:W2 (DKIM d=partner.example) over score=16>=10'],
    ]);
    expect(planFor([two])).toEqual([heldUnauthenticated('W1')]);
    // Options of an older rspamd.lua say nothing of what matched: held, whatever passed (fail safe).
    const old = WHITE(`${CAROL}=list:W`);
    expect(planFor([old, SPF_ALLOW, DKIM_ALLOW('example.com'), DMARC_ALLOW('example.com')])).toEqual([
      heldUnauthenticated(),
    ]);
    // A guard still wins over an authenticated sender; its reason is the guard.
    expect(planFor([WHITE(`${CAROL}=list:W:env`), SPF_ALLOW, sym('DMARC_POLICY_REJECT')])).toEqual([
      ['quarantine', 'score=16>=10; whitelist list:W not applied (DMARC_POLICY_REJECT)'],
    ]);
    // A verdict that does not quarantine: the copy is delivered, authenticated or not (the log says
    // when the whitelist was not what let it through).
    const clean = recipientPlan({
      verdict: verdict('no action', 1, [old]),
      forced: null,
      base: { kind: 'pass', reason: 'score' },
      recipients: [CAROL],
      lists,
    });
    expect(clean.map((p) => [p.kind, p.reason])).toEqual([
      ['pass', 'score; whitelist list:W not applied (sender not authenticated)'],
    ]);
  });

  test('a whitelist not applied passes the decision on: a broader blacklist still holds the copy', () => {
    // Carol whitelists the envelope sender's domain, the global list blacklists the From's: the
    // options of both owners come (rspamd.lua sends the broader owners' entries after a whitelist).
    const options = [WHITE(`${CAROL}=list:W:env`), BLACK('*=list:G')];
    const plan = (extra, kind = 'no action', score = 1) =>
      recipientPlan({
        verdict: verdict(kind, score, [...options, ...extra]),
        forced: null,
        base: kind === 'no action' ? { kind: 'pass', reason: 'score' } : { kind: 'quarantine', reason: 'score' },
        recipients: [CAROL, 'dan@example.org'],
        lists,
      }).map((p) => [p.address, p.kind, p.reason]);
    // Not authenticated (no SPF pass): the global blacklist decides, for a clean mail too.
    expect(plan([])).toEqual([
      [CAROL, 'quarantine', 'blacklist list:G; whitelist list:W not applied (sender not authenticated)'],
      ['dan@example.org', 'quarantine', 'blacklist list:G'],
    ]);
    // Authenticated: Carol's own whitelist wins over the global blacklist, as the most specific owner.
    expect(plan([SPF_ALLOW], 'quarantine', 16)).toEqual([
      [CAROL, 'pass', 'whitelist list:W (SPF) over score'],
      ['dan@example.org', 'quarantine', 'blacklist list:G'],
    ]);
  });

  test('a blacklist matches either address, authenticated or not', () => {
    const all = [SPF_ALLOW, DKIM_ALLOW('evil.example'), DMARC_ALLOW('evil.example')];
    const plan = recipientPlan({
      verdict: verdict('no action', 1, [BLACK(`${CAROL}=list:B`, '@example.org=list:D'), ...all]),
      forced: null,
      base: { kind: 'pass', reason: 'score' },
      recipients: [CAROL, 'ann@example.org', 'zed@example.net'],
      lists,
    });
    expect(plan.map((p) => [p.address, p.kind, p.reason])).toEqual([
      [CAROL, 'quarantine', 'blacklist list:B'],
      ['ann@example.org', 'quarantine', 'blacklist list:D'],
      ['zed@example.net', 'pass', 'score'],
    ]);
  });
});

describe('the queue hook', () => {
  let receiver;
  let dir;
  let plugin;
  beforeEach(async () => {
    receiver = await startReceiver(201);
    dir = tempConfigDir(`[api]\nurl = ${receiver.url}\ntoken = ${TOKEN}\ntimeout = 2\n`);
    plugin = loadPlugin(dir);
  });
  afterEach(async () => {
    stopWatching(plugin, dir);
    fs.rmSync(dir, { recursive: true, force: true });
    await receiver.close();
  });
  afterAll(() => plugin && stopWatching(plugin, PLUGIN_DIR));

  const rcptTo = ['Black@example.com', 'white@example.com', 'other@example.com'];
  const marked = (action, score, extra = []) =>
    verdict(action, score, [
      BLACK('black@example.com=list:B'),
      WHITE('white@example.com=list:W:env'),
      SPF_ALLOW,
      ...extra,
    ]);
  const addresses = (connection) => connection.transaction.rcpt_to.map((a) => a.address);

  test('a reject by score: the blacklisted and the unlisted copies are ingested (only them), the whitelisted delivered', async () => {
    const connection = await makeMail({ raw: RAW, rcptTo, rspamd: marked('reject', 16) });
    const logged = [];
    connection.loginfo = (_plugin, line) => logged.push(line);
    const { rc } = await callQueue(plugin, connection);
    expect(rc ?? CONT).toBe(CONT); // on to smtp_forward, for the delivered recipient
    expect(receiver.requests).toHaveLength(1);
    const { meta } = await parseMultipart(receiver.requests[0]);
    expect(meta.rcpt_to).toEqual(['Black@example.com', 'other@example.com']);
    expect(addresses(connection)).toEqual(['white@example.com']);
    expect(connection.transaction.notes.qconsole).toMatchObject({ id: 'q-1' });
    // What was decided, per recipient, in the log.
    expect(logged).toEqual(
      expect.arrayContaining([
        'Black@example.com: quarantine (blacklist list:B)',
        'white@example.com: pass (whitelist list:W (SPF) over action=reject)',
        'other@example.com: quarantine (action=reject)',
      ]),
    );
  });

  test('a score under the quarantine: only the blacklisted copy is ingested; the others delivered', async () => {
    const connection = await makeMail({ raw: RAW, rcptTo, rspamd: marked('add header', 7) });
    expect((await callQueue(plugin, connection)).rc ?? CONT).toBe(CONT);
    const { meta } = await parseMultipart(receiver.requests[0]);
    expect(meta.rcpt_to).toEqual(['Black@example.com']);
    expect(addresses(connection)).toEqual(['white@example.com', 'other@example.com']);
  });

  test('every recipient held: OK once stored; the whitelist under R_SPF_FAIL is not applied', async () => {
    const connection = await makeMail({
      raw: RAW,
      rcptTo: ['black@example.com', 'white@example.com'],
      rspamd: marked('quarantine', 12, [sym('R_SPF_FAIL', ['-all'])]),
    });
    const { rc, msg } = await callQueue(plugin, connection);
    expect(rc).toBe(OK);
    expect(msg).toBe('Message accepted');
    const { meta } = await parseMultipart(receiver.requests[0]);
    expect(meta.rcpt_to).toEqual(['black@example.com', 'white@example.com']);
  });

  test('a whitelisted sender that is not authenticated: its copy is ingested, the log says why', async () => {
    const forged = verdict('reject', 16, [WHITE('white@example.com=list:W:from:trusted.example'), SPF_ALLOW]);
    const connection = await makeMail({ raw: RAW, rcptTo: ['white@example.com'], rspamd: forged });
    const logged = [];
    connection.loginfo = (_plugin, line) => logged.push(line);
    const { rc } = await callQueue(plugin, connection);
    expect(rc).toBe(OK);
    const { meta } = await parseMultipart(receiver.requests[0]);
    expect(meta.rcpt_to).toEqual(['white@example.com']);
    const why = 'action=reject; whitelist list:W not applied (sender not authenticated)';
    expect(logged).toContain(`white@example.com: quarantine (${why})`);
    expect(connection.transaction.notes.qconsole).toMatchObject({ reason: why });
  });

  test('nobody held: nothing is POSTed and the recipients stay', async () => {
    const connection = await makeMail({
      raw: RAW,
      rcptTo: ['white@example.com', 'other@example.com'],
      rspamd: marked('reject', 15),
    });
    // Only whitelisted recipients: nothing to hold. (With an unlisted one too, that one is held.)
    const clean = await makeMail({ raw: RAW, rcptTo: ['white@example.com'], rspamd: marked('reject', 15) });
    expect((await callQueue(plugin, clean)).rc ?? CONT).toBe(CONT);
    expect(receiver.requests).toHaveLength(0);
    expect(addresses(clean)).toEqual(['white@example.com']);
    expect((await callQueue(plugin, connection)).rc ?? CONT).toBe(CONT);
    expect(receiver.requests).toHaveLength(1);
  });

  test('the api fails: 4xx for the whole message, the recipients unchanged (never fail open)', async () => {
    receiver.mode = 500;
    const connection = await makeMail({ raw: RAW, rcptTo, rspamd: marked('reject', 15) });
    const { rc } = await callQueue(plugin, connection);
    expect(rc).toBe(DENYSOFT);
    expect(addresses(connection)).toEqual(rcptTo);
  });
});
