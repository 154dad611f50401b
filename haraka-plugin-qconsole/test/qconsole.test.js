'use strict';
// The plugin at Haraka's queue hook, loaded as Haraka loads it, against a real HTTP server.

const fs = require('node:fs');
const path = require('node:path');
const { OK, DENYSOFT, CONT } = require('haraka-constants');
const {
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
} = require('./helpers');

const TOKEN = 'test-ingest-token-0123456789';
const RAW = [
  'From: Spammer <spammer@example.net>',
  'To: Bob <bob@example.com>',
  'Subject: Cheap pills',
  'Message-ID: <gtube-unit@example.net>',
  'Date: Sat, 21 Nov 2026 22:00:00 +0000',
  'MIME-Version: 1.0',
  'Content-Type: text/plain; charset=utf-8',
  '',
  'Hello Bob,',
  '.a line that starts with a dot (dot-stuffed on the wire)',
  'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X',
  'Ünïcödé body line',
  '',
].join('\r\n');

const iniFor = (url, extra = '') =>
  `[api]\nurl = ${url}\ntoken = ${TOKEN}\ntimeout = 2\n[quarantine]\nactions = reject, quarantine\nscore_threshold = 10\n${extra}`;

let receiver;
let dirs = [];
beforeEach(async () => {
  receiver = await startReceiver(201);
});
let lastPlugin;
afterEach(async () => {
  await receiver.close();
  for (const d of dirs) {
    if (lastPlugin) stopWatching(lastPlugin, d);
    fs.rmSync(d, { recursive: true, force: true });
  }
  dirs = [];
});
afterAll(() => {
  if (lastPlugin) stopWatching(lastPlugin, PLUGIN_DIR);
});

function setup(ini) {
  const dir = tempConfigDir(ini);
  dirs.push(dir);
  lastPlugin = loadPlugin(dir);
  return { dir, plugin: lastPlugin };
}

describe('quarantine', () => {
  test('a reject verdict is POSTed (meta + exact raw bytes) and accepted with OK', async () => {
    const { plugin } = setup(iniFor(receiver.url));
    const verdict = {
      action: 'reject',
      is_skipped: false,
      required_score: 15,
      score: 16.5,
      symbols: {
        GTUBE: { name: 'GTUBE', score: 0, metric_score: 0, description: 'GTUBE pattern', options: [] },
        SPIKE_IP: {
          name: 'SPIKE_IP',
          score: 8,
          metric_score: 8,
          description: 'Client IP',
          options: ['192.0.2.10'],
          group: 'local',
        },
      },
    };
    const connection = await makeMail({ raw: RAW, rspamd: verdict, rcptTo: ['bob@example.com', 'carol@example.com'] });
    const before = Date.now();
    const { rc, msg } = await callQueue(plugin, connection);

    expect(rc).toBe(OK);
    expect(msg).toBe('Message accepted');
    expect(receiver.requests).toHaveLength(1);
    const [req] = receiver.requests;
    expect(req.method).toBe('POST');
    expect(req.url).toBe('/api/quarantine/ingest/');
    expect(req.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(req.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/);

    const { meta, message, messageType, messageName } = await parseMultipart(req);
    const uuid = connection.transaction.uuid;
    expect(meta).toEqual({
      uuid,
      mail_from: 'spammer@example.net',
      rcpt_to: ['bob@example.com', 'carol@example.com'],
      remote_ip: '192.0.2.10',
      helo: 'mx.sender.example',
      received_at: expect.any(String),
      rspamd: {
        action: 'reject',
        score: 16.5,
        required_score: 15,
        symbols: {
          GTUBE: { score: 0, description: 'GTUBE pattern', options: [] },
          SPIKE_IP: { score: 8, description: 'Client IP', options: ['192.0.2.10'], group: 'local' },
        },
      },
    });
    expect(Date.parse(meta.received_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(messageType).toBe('message/rfc822');
    expect(messageName).toBe(`${uuid}.eml`);
    expect(message.equals(Buffer.from(RAW, 'utf8'))).toBe(true);
    expect(connection.transaction.notes.qconsole).toEqual({ id: 'q-1', reason: 'action=reject' });
  });

  test('the quarantine action and the short symbol form ({NAME: score}) are handled', async () => {
    const { plugin } = setup(iniFor(receiver.url));
    const connection = await makeMail({
      raw: RAW,
      rspamd: { action: 'quarantine', score: 4, required_score: 15, symbols: { SOME_RULE: 4 } },
    });
    expect((await callQueue(plugin, connection)).rc).toBe(OK);
    const { meta } = await parseMultipart(receiver.requests[0]);
    expect(meta.rspamd).toEqual({
      action: 'quarantine',
      score: 4,
      required_score: 15,
      symbols: { SOME_RULE: { score: 4, options: [] } },
    });
  });

  test('what Rspamd may produce in any size is clamped to the ingest contract', async () => {
    const { plugin } = setup(iniFor(receiver.url));
    const symbols = {};
    for (let i = 0; i < 1200; i++) symbols[`SYM_${i}`] = { name: `SYM_${i}`, score: i / 100 };
    symbols.MANY_URLS = {
      name: 'MANY_URLS',
      score: 50,
      description: 'd'.repeat(5000),
      options: Array.from({ length: 300 }, (_, i) => `http://u${i}.example/${'p'.repeat(5000)}`),
      groups: ['url', 'other'],
    };
    const connection = await makeMail({ raw: RAW, rspamd: { action: 'reject', score: 60, symbols } });
    expect((await callQueue(plugin, connection)).rc).toBe(OK);
    const { meta } = await parseMultipart(receiver.requests[0]);
    const names = Object.keys(meta.rspamd.symbols);
    expect(names).toHaveLength(1000);
    expect(names).toContain('MANY_URLS');
    expect(names).toContain('SYM_1199');
    expect(names).not.toContain('SYM_0');
    const many = meta.rspamd.symbols.MANY_URLS;
    expect(many.description).toHaveLength(4096);
    expect(many.options).toHaveLength(100);
    expect(many.options.every((o) => o.length <= 4096)).toBe(true);
    expect(many.group).toBe('url');
  });

  test('the null sender <> is sent as an empty mail_from', async () => {
    const { plugin } = setup(iniFor(receiver.url));
    const connection = await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT, mailFrom: '<>' });
    expect((await callQueue(plugin, connection)).rc).toBe(OK);
    expect((await parseMultipart(receiver.requests[0])).meta.mail_from).toBe('');
  });

  test('a large message (3 MiB) is streamed whole', async () => {
    const { plugin } = setup(iniFor(receiver.url));
    const line = `${'x'.repeat(76)}\r\n`;
    const raw = `Subject: big\r\n\r\n${line.repeat(Math.ceil((3 * 1024 * 1024) / line.length))}`;
    const connection = await makeMail({ raw, rspamd: GTUBE_VERDICT });
    expect((await callQueue(plugin, connection)).rc).toBe(OK);
    const { message } = await parseMultipart(receiver.requests[0]);
    expect(message.length).toBe(Buffer.byteLength(raw));
    expect(message.equals(Buffer.from(raw))).toBe(true);
  });
});

describe('never fail open: DENYSOFT (4xx)', () => {
  const expectTempfail = ({ rc, msg }) => {
    expect(rc).toBe(DENYSOFT);
    expect(String(msg.reply ?? msg)).toMatch(/try again later/);
    expect(msg.code).toBe(451);
  };

  test('the api answers 500', async () => {
    receiver.mode = 500;
    const { plugin } = setup(iniFor(receiver.url));
    const connection = await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT });
    expectTempfail(await callQueue(plugin, connection));
    expect(receiver.requests).toHaveLength(1);
    expect(connection.transaction.results.get('qconsole').msg.join()).toMatch(/HTTP 500/);
  });

  test.each([401, 413, 302])('the api answers %i', async (status) => {
    receiver.mode = status;
    const { plugin } = setup(iniFor(receiver.url));
    expectTempfail(await callQueue(plugin, await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT })));
  });

  test.each([
    ['a 200 page from a proxy', { status: 200, type: 'text/html', body: '<html>Maintenance</html>' }],
    ['a 204', { status: 204, type: 'text/plain', body: '' }],
    ['a 200 of another app, JSON without id', { status: 200, type: 'application/json', body: '{"ok":true}' }],
    ['a 201 whose id is not a string', { status: 201, type: 'application/json', body: '{"id":42}' }],
  ])('the api url answers %s: not stored, so 4xx (the mail is not lost)', async (_what, mode) => {
    receiver.mode = mode;
    const { plugin } = setup(iniFor(receiver.url));
    const connection = await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT });
    expectTempfail(await callQueue(plugin, connection));
    expect(connection.transaction.results.get('qconsole').msg.join()).toMatch(new RegExp(`HTTP ${mode.status}`));
  });

  test('the api is unreachable (connection refused)', async () => {
    const { plugin } = setup(iniFor(await closedPortUrl()));
    const connection = await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT });
    expectTempfail(await callQueue(plugin, connection));
    expect(connection.transaction.results.get('qconsole').msg.join()).toMatch(/ECONNREFUSED/);
  });

  test('the api drops the connection without answering', async () => {
    receiver.mode = 'reset';
    const { plugin } = setup(iniFor(receiver.url));
    expectTempfail(await callQueue(plugin, await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT })));
  });

  test('the api does not answer within the timeout', async () => {
    receiver.mode = 'hang';
    const { plugin } = setup(iniFor(receiver.url).replace('timeout = 2', 'timeout = 0.3'));
    const connection = await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT });
    const t0 = Date.now();
    expectTempfail(await callQueue(plugin, connection));
    expect(Date.now() - t0).toBeGreaterThanOrEqual(250);
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(connection.transaction.results.get('qconsole').msg.join()).toMatch(/no progress for 300 ms/);
  });

  test('an exception while building the request (synchronous throw)', async () => {
    const { plugin } = setup(iniFor(receiver.url));
    const connection = await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT });
    Object.defineProperty(connection.transaction, 'rcpt_to', {
      get() {
        throw new Error('boom');
      },
    });
    expectTempfail(await callQueue(plugin, connection));
    expect(receiver.requests).toHaveLength(0);
  });

  test('an exception reading the verdict', async () => {
    const { plugin } = setup(iniFor(receiver.url));
    const connection = await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT });
    connection.transaction.results.get = () => {
      throw new TypeError('results broken');
    };
    expectTempfail(await callQueue(plugin, connection));
  });

  test('the message stream fails while it is sent', async () => {
    const { plugin } = setup(iniFor(receiver.url));
    const connection = await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT });
    const stream = connection.transaction.message_stream;
    stream.pipe = function () {
      setImmediate(() => this.emit('error', new Error('spool read failed')));
      return this;
    };
    const result = await callQueue(plugin, connection);
    expectTempfail(result);
    expect(connection.transaction.results.get('qconsole').msg.join()).toMatch(/spool read failed/);
  });

  test('no token configured', async () => {
    const saved = process.env.QC_INGEST_TOKEN;
    delete process.env.QC_INGEST_TOKEN;
    try {
      const { plugin } = setup(`[api]\nurl = ${receiver.url}\n`);
      expectTempfail(await callQueue(plugin, await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT })));
      expect(receiver.requests).toHaveLength(0);
    } finally {
      if (saved !== undefined) process.env.QC_INGEST_TOKEN = saved;
    }
  });

  test('no verdict at all (rspamd plugin missing or failed without deferring)', async () => {
    const { plugin } = setup(iniFor(receiver.url));
    expectTempfail(await callQueue(plugin, await makeMail({ raw: RAW })));
    const failed = await makeMail({ raw: RAW, rspamd: { err: ['connect ECONNREFUSED 127.0.0.1:11333'] } });
    expectTempfail(await callQueue(plugin, failed));
    expect(receiver.requests).toHaveLength(0);
  });
});

describe('not quarantined: CONT to the next queue plugin, no POST', () => {
  test('a clean verdict', async () => {
    const { plugin } = setup(iniFor(receiver.url));
    const connection = await makeMail({
      raw: RAW,
      rspamd: { action: 'no action', score: 1.2, required_score: 15, symbols: {} },
    });
    const { rc } = await callQueue(plugin, connection);
    expect(rc ?? CONT).toBe(CONT);
    expect(receiver.requests).toHaveLength(0);
  });

  test('a scan the rspamd plugin skipped on purpose', async () => {
    const { plugin } = setup(iniFor(receiver.url));
    const connection = await makeMail({ raw: RAW, rspamd: { skip: ['authed'] } });
    expect((await callQueue(plugin, connection)).rc ?? CONT).toBe(CONT);
    expect(receiver.requests).toHaveLength(0);
  });

  test('unscanned = pass lets mail without a verdict through', async () => {
    const { plugin } = setup(iniFor(receiver.url, 'unscanned = pass\n'));
    expect((await callQueue(plugin, await makeMail({ raw: RAW }))).rc ?? CONT).toBe(CONT);
  });
});

describe('score threshold', () => {
  const verdict = (score) => ({ action: 'add header', score, required_score: 15, symbols: {} });

  test('score >= threshold quarantines, below it passes', async () => {
    const { plugin } = setup(iniFor(receiver.url).replace('score_threshold = 10', 'score_threshold = 7.5'));
    expect((await callQueue(plugin, await makeMail({ raw: RAW, rspamd: verdict(7.4) }))).rc ?? CONT).toBe(CONT);
    expect(receiver.requests).toHaveLength(0);
    expect((await callQueue(plugin, await makeMail({ raw: RAW, rspamd: verdict(7.5) }))).rc).toBe(OK);
    expect(receiver.requests).toHaveLength(1);
    const { meta } = await parseMultipart(receiver.requests[0]);
    expect(meta.rspamd).toMatchObject({ action: 'add header', score: 7.5 });
  });

  test('threshold off: only the actions count', async () => {
    const { plugin } = setup(iniFor(receiver.url).replace('score_threshold = 10', 'score_threshold = off'));
    expect((await callQueue(plugin, await makeMail({ raw: RAW, rspamd: verdict(99) }))).rc ?? CONT).toBe(CONT);
  });

  test('the shipped defaults: reject, quarantine; threshold 10', async () => {
    const { plugin } = setup(`[api]\nurl = ${receiver.url}\ntoken = ${TOKEN}\n`);
    expect(plugin.settings.scoreThreshold).toBe(10);
    expect([...plugin.settings.actions]).toEqual(['reject', 'quarantine']);
    expect(plugin.settings.timeoutMs).toBe(20000);
    expect(plugin.settings.unscanned).toBe('defer');
    expect((await callQueue(plugin, await makeMail({ raw: RAW, rspamd: verdict(9.9) }))).rc ?? CONT).toBe(CONT);
    expect((await callQueue(plugin, await makeMail({ raw: RAW, rspamd: verdict(10) }))).rc).toBe(OK);
  });
});

describe('configuration', () => {
  test('url and token come from QC_API_URL / QC_INGEST_TOKEN when the file leaves them out', async () => {
    const saved = { url: process.env.QC_API_URL, token: process.env.QC_INGEST_TOKEN };
    process.env.QC_API_URL = `${receiver.url}/console`;
    process.env.QC_INGEST_TOKEN = 'from-env';
    try {
      const { plugin } = setup('[quarantine]\nactions = reject\n');
      expect(plugin.settings.url.href).toBe(`${receiver.url}/console/api/quarantine/ingest/`);
      expect((await callQueue(plugin, await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT }))).rc).toBe(OK);
      expect(receiver.requests[0].url).toBe('/console/api/quarantine/ingest/');
      expect(receiver.requests[0].headers.authorization).toBe('Bearer from-env');
    } finally {
      for (const [k, v] of [
        ['QC_API_URL', saved.url],
        ['QC_INGEST_TOKEN', saved.token],
      ]) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
  });

  test('a bad file at start-up stops the plugin from loading (fail closed)', () => {
    const dir = tempConfigDir('[quarantine]\nscore_threshold = lots\n');
    dirs.push(dir);
    expect(() => loadPlugin(dir)).toThrow(/score_threshold/);
  });

  test('edits to qconsole.ini are picked up without a restart', async () => {
    const { dir, plugin } = setup(iniFor(receiver.url));
    const mail = () => makeMail({ raw: RAW, rspamd: { action: 'add header', score: 8, symbols: {} } });
    expect((await callQueue(plugin, await mail())).rc ?? CONT).toBe(CONT);

    const file = path.join(dir, 'config', 'qconsole.ini');
    fs.writeFileSync(file, iniFor(receiver.url).replace('score_threshold = 10', 'score_threshold = 5'));
    const deadline = Date.now() + 12000;
    while (plugin.settings.scoreThreshold !== 5 && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(plugin.settings.scoreThreshold).toBe(5);
    expect((await callQueue(plugin, await mail())).rc).toBe(OK);

    // a broken edit: quarantined mail is deferred (not passed) until the file is fixed
    fs.writeFileSync(file, iniFor(receiver.url).replace('score_threshold = 10', 'score_threshold = lots'));
    const deadline2 = Date.now() + 12000;
    while (!plugin.settings_error && Date.now() < deadline2) await new Promise((r) => setTimeout(r, 100));
    expect(plugin.settings_error?.message).toMatch(/score_threshold/);
    expect((await callQueue(plugin, await makeMail({ raw: RAW, rspamd: GTUBE_VERDICT }))).rc).toBe(DENYSOFT);
  }, 30000);
});
