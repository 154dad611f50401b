import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { bearer, createTestApp, insertCounter, type TestApp } from '../../test/helpers';
import {
  globalCounters,
  ingest,
  ingestForm,
  ingestOk,
  INGEST_TOKEN,
  meta,
  mime,
  recount,
  uniqueUuid,
} from '../../test/quarantine';
import { dedupKeyOf, retryStableBytes } from './ingest.service';
import { DuplicateMessageError, insertQuarantinedMessages } from './ingest.repository';

/** The fields of a row for insertQuarantinedMessages that these tests do not vary. */
const storedRow = () => ({
  receivedAt: Date.now(),
  sender: 'x@spam.example',
  subject: 's',
  score: 3,
  action: 'reject',
  size: 1,
});

let t: TestApp;
let admin: string;

beforeAll(async () => {
  t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
  await t.createUser({ email: 'root@admin.example', role: 'admin' });
  admin = (await t.login('root@admin.example')).access;
});
afterAll(() => t.close());

const detail = async (id: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/quarantine/${id}/`, headers: bearer(admin) });
  expect(res.statusCode).toBe(200);
  return res.json();
};
const rawOf = async (id: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/quarantine/${id}/raw/`, headers: bearer(admin) });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
};

describe('service authentication', () => {
  test('no token → 401 not_authenticated; wrong token → 401 token_invalid; nothing stored', async () => {
    const before = await recount(t);
    const none = await ingest(t, meta(), mime(), null);
    expect(none.statusCode).toBe(401);
    expect(none.json().code).toBe('not_authenticated');
    for (const token of ['wrong', INGEST_TOKEN.slice(0, -1), `${INGEST_TOKEN}x`]) {
      const res = await ingest(t, meta(), mime(), token);
      expect(res.statusCode).toBe(401);
      expect(res.json().code).toBe('token_invalid');
    }
    // A user's session token is not the service token.
    const session = await ingest(t, meta(), mime(), admin);
    expect(session.statusCode).toBe(401);
    expect(await recount(t)).toEqual(before);
  });

  test('QC_INGEST_TOKEN unset → 503 ingest_disabled, whatever is sent', async () => {
    const off = await createTestApp();
    try {
      const res = await ingest(off, meta(), mime(), INGEST_TOKEN);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ code: 'ingest_disabled' });
    } finally {
      await off.close();
    }
  });
});

describe('validation', () => {
  test('missing parts, bad JSON, bad meta → 400 validation_error with errors', async () => {
    const noMessage = await ingest(t, meta(), null);
    expect(noMessage.statusCode).toBe(400);
    expect(noMessage.json().errors).toHaveProperty('message');

    const form = ingestForm(meta(), mime(), { omitMeta: true });
    const noMeta = await t.app.inject({
      method: 'POST',
      url: '/api/quarantine/ingest/',
      headers: { ...form.headers, authorization: `Bearer ${INGEST_TOKEN}` },
      payload: form.payload,
    });
    expect(noMeta.statusCode).toBe(400);
    expect(noMeta.json().errors).toHaveProperty('meta');

    const badJson = await ingest(t, '{"uuid": ', mime());
    expect(badJson.statusCode).toBe(400);
    expect(badJson.json().errors).toEqual({ meta: 'Not valid JSON.' });

    const empty = await ingest(t, meta(), Buffer.alloc(0));
    expect(empty.statusCode).toBe(400);
    expect(empty.json().errors).toHaveProperty('message');

    const noRcpt = await ingest(t, meta({ rcpt_to: [] }), mime());
    expect(noRcpt.statusCode).toBe(400);
    expect(noRcpt.json().errors).toHaveProperty(['meta.rcpt_to']);
  });

  test('CR, LF or NUL (or <>, spaces outside quotes) in an envelope address → 400, nothing stored', async () => {
    const before = await recount(t);
    const cases = [
      { rcpt_to: ['ann@a.example\r\nRCPT TO:<evil@x.example>'] },
      { rcpt_to: ['ann@a.example\n'] },
      { rcpt_to: ['ann@a.example\u0000'] },
      { rcpt_to: ['ann@a.example> NOTIFY=SUCCESS'] },
      { mail_from: 'spammer@bad.example\r\nDATA' },
      { mail_from: 'a\u0000@b.example' },
      { rcpt_to: ['john doe@a.example'] },
      { rcpt_to: ['"x" NOTIFY=SUCCESS@a.example'] },
      { rcpt_to: ['"john\r\n"@a.example'] },
      { rcpt_to: ['"x>y"@a.example'] },
    ];
    for (const c of cases) {
      const res = await ingest(t, meta(c), mime());
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('validation_error');
      expect(Object.keys(res.json().errors).join()).toMatch(/^meta\.(rcpt_to\.0|mail_from)$/);
    }
    expect(await recount(t)).toEqual(before);
  });

  test('meta may also come as an application/json part (one with __proto__ keys is refused there)', async () => {
    const ok = await ingest(t, meta(), mime(), INGEST_TOKEN, 'application/json');
    expect(ok.statusCode).toBe(201);
    const proto = await ingest(t, '{"__proto__": {"x": 1}}', mime(), INGEST_TOKEN, 'application/json');
    expect(proto.statusCode).toBe(400);
    expect(proto.json().errors).toEqual({ meta: 'Not valid JSON.' });
  });

  test('not multipart → 415', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/quarantine/ingest/',
      headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ meta: meta() }),
    });
    expect(res.statusCode).toBe(415);
  });

  test('a multipart body with no boundary, or cut short → 400 bad_request (not a 500), nothing stored', async () => {
    const before = await t.db.selectFrom('quarantine_messages').select('id').execute();
    for (const [type, body] of [
      ['multipart/form-data', 'garbage'],
      ['multipart/form-data; boundary=XX', '--XX\r\nContent-Disposition: form-data; name="meta"\r\n\r\n{"a"'],
    ]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/quarantine/ingest/',
        headers: { authorization: `Bearer ${INGEST_TOKEN}`, 'content-type': type! },
        payload: body,
      });
      expect([type, res.statusCode, res.json().code]).toEqual([type, 400, 'bad_request']);
    }
    expect(await t.db.selectFrom('quarantine_messages').select('id').execute()).toEqual(before);
  });
});

describe('storage and parsing', () => {
  test('201 {id}: every spec §3 field, the raw bytes unchanged, one pending row per distinct recipient', async () => {
    const raw = Buffer.from(
      [
        'Received: from mx.bad.example (mx.bad.example [192.0.2.7]) by mx.local (Haraka) with ESMTP id X.1',
        'From: "Spam King" <King@Spam.Example>',
        'To: ann@a.example, bob@a.example',
        'Subject: =?utf-8?q?Gagnez_un_prix_=C3=A9norme?=',
        'Message-ID: <abc-123@spam.example>',
        'Date: Tue, 01 Dec 2026 10:00:00 +0000',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="B1"',
        '',
        '--B1',
        'Content-Type: text/html; charset=utf-8',
        '',
        '<p>Go <a href="https://phish.example/login?a=1&amp;b=2">here</a> or https://two.example/x.</p>',
        '--B1',
        'Content-Type: application/pdf; name="invoice.pdf"',
        'Content-Disposition: attachment; filename="invoice.pdf"',
        'Content-Transfer-Encoding: base64',
        '',
        'JVBERi0xLjQK',
        '--B1--',
        '',
      ].join('\r\n'),
    );
    const m = meta({
      mail_from: 'bounce@bad.example',
      rcpt_to: ['ann@a.example', 'ANN@a.example', 'bob@a.example'],
      rspamd: {
        action: 'rewrite subject',
        score: 9.5,
        required_score: 15,
        symbols: {
          R_SPF_FAIL: { name: 'R_SPF_FAIL', score: 1, description: 'SPF fail', options: ['-all'], group: 'spf' },
          R_DKIM_ALLOW: { score: -0.2, groups: ['dkim', 'policies'] },
          ASN: { score: 0, options: ['asn:64500, ipnet:192.0.2.0/24, country:fr'] },
        },
      },
    });
    const res = await ingest(t, m, raw);
    expect(res.statusCode).toBe(201);
    const { id } = res.json();
    expect(typeof id).toBe('string');

    const d = await detail(id);
    expect(d).toMatchObject({
      id,
      uuid: m.uuid,
      sender: 'King@Spam.Example',
      envelope_from: 'bounce@bad.example',
      subject: 'Gagnez un prix énorme',
      score: 9.5,
      required_score: 15,
      action: 'rewrite_subject',
      dkim: 'pass',
      spf: 'fail',
      size: raw.length,
      message_id: '<abc-123@spam.example>',
      ip_address: '192.0.2.7',
      helo: 'mx.bad.example',
      country: 'FR',
      sender_domain: 'bad.example',
      mime_user: 'King',
      mime_domain: 'spam.example',
      date: '2026-12-01T10:00:00.000Z',
      status: 'pending',
      recipient_count: 2,
      recipients_truncated: false,
      delivery: null,
    });
    expect(d.recipients.map((r: { address: string; status: string }) => [r.address, r.status])).toEqual([
      ['ann@a.example', 'pending'],
      ['bob@a.example', 'pending'],
    ]);
    // Index, detected type and SHA-256 are read from the stored raw (issue 23).
    expect(d.attachments).toEqual([
      expect.objectContaining({ index: 0, name: 'invoice.pdf', type: 'application/pdf', size: 9 }),
    ]);
    expect(d.urls).toEqual(['https://phish.example/login?a=1&b=2', 'https://two.example/x']);
    // Every group Rspamd gives (spec §3 "groups"), not only the first.
    expect(d.symbols).toEqual([
      { symbol: 'R_SPF_FAIL', score: 1, description: 'SPF fail', options: ['-all'], group: 'spf', groups: ['spf'] },
      {
        symbol: 'ASN',
        score: 0,
        description: null,
        options: ['asn:64500, ipnet:192.0.2.0/24, country:fr'],
        group: null,
        groups: [],
      },
      {
        symbol: 'R_DKIM_ALLOW',
        score: -0.2,
        description: null,
        options: [],
        group: 'dkim',
        groups: ['dkim', 'policies'],
      },
    ]);
    // A message stored before `groups` existed reads with its one group.
    await t.db
      .updateTable('quarantine_messages')
      .set({ symbols: JSON.stringify([{ symbol: 'OLD', score: 1, description: null, options: [], group: 'old' }]) })
      .where('id', '=', id)
      .execute();
    expect((await detail(id)).symbols).toEqual([
      { symbol: 'OLD', score: 1, description: null, options: [], group: 'old', groups: ['old'] },
    ]);
    expect(d.html_body).toContain('phish.example');
    // As the mail carried them (issue 23): its own spelling, in its order.
    expect(d.headers).toEqual(expect.arrayContaining([{ name: 'Message-ID', value: '<abc-123@spam.example>' }]));
    expect(Date.parse(d.received_at)).toBe(Date.parse(m.received_at as string));
    expect(Buffer.compare(await rawOf(id), raw)).toBe(0);
  });

  test('a message without a usable From: the envelope sender; without rspamd: action custom, no verdicts', async () => {
    const raw = Buffer.from('Subject: bare\r\n\r\nno from header\r\n');
    const id = await ingestOk(t, { uuid: uniqueUuid(), mail_from: '', rcpt_to: ['ann@a.example'] }, raw);
    const d = await detail(id);
    expect(d).toMatchObject({ sender: '', envelope_from: '', action: 'custom', score: null, dkim: null, spf: null });
    expect(d.symbols).toEqual([]);
    expect(d.country).toBeNull();
  });
});

describe('idempotency', () => {
  test('the same Haraka uuid twice → 201 with the same id; nothing stored twice', async () => {
    const m = meta();
    const first = await ingest(t, m, mime({ subject: 'once' }));
    expect(first.statusCode).toBe(201);
    const before = await recount(t);
    // Even with other bytes: the uuid names the transaction already stored.
    const again = await ingest(t, m, mime({ subject: 'twice' }));
    expect(again.statusCode).toBe(201);
    expect(again.json()).toEqual({ id: first.json().id });
    expect(await recount(t)).toEqual(before);
  });

  test('the same envelope and bytes under a new uuid → 201 with the existing id', async () => {
    const raw = mime({ subject: 're-sent' });
    const m = meta({ rcpt_to: ['ann@a.example', 'bob@a.example'] });
    const first = await ingest(t, m, raw);
    expect(first.statusCode).toBe(201);
    // Recipients in another order and case are the same envelope.
    const resent = await ingest(t, { ...m, uuid: uniqueUuid(), rcpt_to: ['BOB@a.example', 'ann@a.example'] }, raw);
    expect(resent.statusCode).toBe(201);
    expect(resent.json().id).toBe(first.json().id);
    // Other bytes, or another envelope, are another message.
    const otherBytes = await ingest(t, { ...m, uuid: uniqueUuid() }, Buffer.concat([raw, Buffer.from('x')]));
    expect(otherBytes.statusCode).toBe(201);
    const otherRcpt = await ingest(t, { ...m, uuid: uniqueUuid(), rcpt_to: ['ann@a.example'] }, raw);
    expect(otherRcpt.statusCode).toBe(201);
    expect(new Set([first.json().id, otherBytes.json().id, otherRcpt.json().id]).size).toBe(3);
  });

  test('a retry under a new uuid (new Received line, new X-Rspamd-* scores) → 201 with the existing id', async () => {
    // What Haraka posts: its Received naming the attempt's uuid, the sender's bytes, Rspamd's headers.
    const sender = mime({ subject: 'retried after a lost answer' });
    const attempt = (uuid: string, score: string) =>
      Buffer.concat([
        Buffer.from(`Received: from mx.spam.example (192.0.2.9)\r\n\tby haraka with ESMTP id ${uuid}; now\r\n`),
        Buffer.from(`X-Rspamd-Score: ${score}\r\n`),
        sender,
      ]);
    const m = meta();
    const first = await ingest(t, m, attempt(m.uuid as string, '15.1'));
    expect(first.statusCode).toBe(201);
    const uuid = uniqueUuid();
    const retry = await ingest(t, { ...m, uuid }, attempt(uuid, '14.9'));
    expect(retry.statusCode).toBe(201);
    expect(retry.json().id).toBe(first.json().id);
    // The retry's uuid (the queue id the sender was given then) is kept beside the first, once.
    expect((await ingest(t, { ...m, uuid }, attempt(uuid, '14.9'))).json().id).toBe(first.json().id);
    const shown = await detail(first.json().id);
    expect(shown.uuid).toBe(m.uuid);
    expect(shown.retry_uuids).toEqual([uuid]);
    // Any other header differing is another message.
    const other = uniqueUuid();
    const changed = Buffer.concat([Buffer.from('X-Other: 1\r\n'), attempt(other, '15.1')]);
    expect((await ingest(t, { ...m, uuid: other }, changed)).statusCode).toBe(201);
    // The stored bytes are what was posted, Received line included.
    expect((await rawOf(first.json().id)).toString()).toContain(`ESMTP id ${m.uuid as string}`);
  });

  test('a retry of mail stored before 0023 (keyed by the U-label sender) finds it: no second copy', async () => {
    const raw = mime({ subject: 'stored before the upgrade' });
    const m = meta({ mail_from: 'Ann@Bücher.example', rcpt_to: ['bob@a.example'] });
    const first = await ingest(t, m, raw);
    expect(first.statusCode).toBe(201);
    const sameBytes = createHash('sha256')
      .update(retryStableBytes(raw, m.uuid as string))
      .digest('hex');
    // As the ingest before migration 0023 keyed it.
    await t.db
      .updateTable('quarantine_messages')
      .set({ dedup_key: dedupKeyOf('Ann@Bücher.example', ['bob@a.example'], sameBytes) })
      .where('id', '=', first.json().id)
      .execute();
    const before = await recount(t);
    const retry = await ingest(t, { ...m, uuid: uniqueUuid() }, raw);
    expect(retry.statusCode).toBe(201);
    expect(retry.json().id).toBe(first.json().id);
    expect(await recount(t)).toEqual(before);
  });

  test('retryStableBytes: the sender’s bytes exactly, without the attempt’s Received and X-Rspamd-* fields', () => {
    const sender = mime({ subject: 'exact' });
    const posted = Buffer.concat([
      Buffer.from('Received: from mx (192.0.2.9)\r\n\tby haraka with ESMTP id ABC-1.1; now\r\n'),
      Buffer.from('X-Rspamd-Score: 15\r\nX-Rspamd-Bar: +++\r\n'),
      sender,
    ]);
    expect(retryStableBytes(posted, 'ABC-1.1').equals(sender)).toBe(true);
    expect(retryStableBytes(sender, 'ABC-1.1')).toBe(sender); // nothing to strip: the same buffer
  });

  test('concurrent posts of one uuid store it once', async () => {
    const m = meta();
    const raw = mime({ subject: 'race' });
    const results = await Promise.all([1, 2, 3].map(() => ingest(t, m, raw)));
    const ids = new Set(results.map((r) => r.json().id));
    expect(ids.size).toBe(1);
    expect(results.map((r) => r.statusCode)).toEqual([201, 201, 201]); // DESIGN §4: 201 either way
    const rows = await t.db
      .selectFrom('quarantine_messages')
      .select('id')
      .where('uuid', '=', m.uuid as string)
      .execute();
    expect(rows).toHaveLength(1);
  });
});

describe('group commit', () => {
  test('a burst of posts is stored (grouped): each answered once, counters equal the rows', async () => {
    const raws = Array.from({ length: 12 }, (_, k) => mime({ subject: `burst ${k}` }));
    const metas = raws.map(() => meta());
    // The last post repeats the first one's uuid: inside a shared transaction it fails alone.
    const posts = [...raws.map((raw, k) => ingest(t, metas[k], raw)), ingest(t, metas[0], raws[0]!)];
    const results = await Promise.all(posts);
    expect(results.map((r) => r.statusCode)).toEqual(Array(13).fill(201));
    expect(results[12]!.json().id).toBe(results[0]!.json().id);
    const ids = new Set(results.map((r) => r.json().id));
    expect(ids.size).toBe(12);
    const stored = await t.db
      .selectFrom('quarantine_messages')
      .select('id')
      .where('id', 'in', [...ids])
      .execute();
    expect(stored).toHaveLength(12);
    expect(await globalCounters(t)).toEqual(await recount(t));
  });

  test('insertQuarantinedMessages: a duplicate is skipped alone, the others commit', async () => {
    const uuid = uniqueUuid();
    const base = storedRow();
    const before = await recount(t);
    const outcomes = await insertQuarantinedMessages(t.db, [
      { ...base, uuid, recipients: ['ann@a.example'] },
      { ...base, uuid, recipients: ['bob@a.example'] }, // same uuid: unique violation
      { ...base, uuid: uniqueUuid(), recipients: ['carl@b.example', 'dan@b.example'] },
    ]);
    expect(outcomes.map((o) => o.ok)).toEqual([true, false, true]);
    expect(outcomes[1]!.ok ? null : outcomes[1]!.error).toBeInstanceOf(DuplicateMessageError);
    const after = await recount(t);
    expect(after.pending).toBe((before.pending ?? 0) + 3);
    expect(await globalCounters(t)).toEqual(after);
  });
});

describe('size limit', () => {
  test('a 25 MiB message is accepted (and kept byte for byte); a body over QC_INGEST_MAX_BYTES → 413', async () => {
    const head = mime({ subject: 'big' });
    const big = Buffer.concat([head, Buffer.alloc(25 * 1024 * 1024 - head.length, 'A')]);
    expect(big.length).toBe(25 * 1024 * 1024);
    const res = await ingest(t, meta(), big);
    expect(res.statusCode).toBe(201);
    const stored = await rawOf(res.json().id);
    expect(stored.length).toBe(big.length);
    expect(Buffer.compare(stored, big)).toBe(0);

    const before = await recount(t);
    const huge = Buffer.concat([head, Buffer.alloc(t.config.ingestMaxBytes, 'A')]);
    const tooBig = await ingest(t, meta(), huge);
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().code).toBe('payload_too_large');
    expect(await recount(t)).toEqual(before);
  }, 60_000);

  test('a file part over the limit is refused while streaming, without a Content-Length check', async () => {
    const small = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN, QC_INGEST_MAX_BYTES: String(64 * 1024) });
    try {
      const form = ingestForm(meta(), Buffer.alloc(100 * 1024, 'B'));
      const res = await small.app.inject({
        method: 'POST',
        url: '/api/quarantine/ingest/',
        headers: { ...form.headers, authorization: `Bearer ${INGEST_TOKEN}` },
        payload: Readable.from([form.payload]), // a stream: no Content-Length is sent
      });
      expect(res.statusCode).toBe(413);
      expect(await small.db.selectFrom('quarantine_messages').select('id').execute()).toEqual([]);
    } finally {
      await small.close();
    }
  });
});

describe('hostile input', () => {
  test('markup in the subject is stored and returned verbatim, as text', async () => {
    const subject = '<script>alert(1)</script><img src=x onerror=alert(2)> & "quotes"';
    const id = await ingestOk(t, meta(), mime({ subject }));
    const d = await detail(id);
    expect(d.subject).toBe(subject);
    const list = await t.app.inject({ method: 'GET', url: '/api/quarantine/?q=script', headers: bearer(admin) });
    expect(list.json().results.map((r: { subject: string }) => r.subject)).toContain(subject);
    // JSON, never HTML.
    expect(list.headers['content-type']).toMatch(/^application\/json/);
  });

  test("NUL in a decoded body or in the stack's words is dropped (PostgreSQL text cannot hold it); the mail is stored", async () => {
    const raw = mime({
      extraHeaders: ['Content-Transfer-Encoding: quoted-printable'],
      body: 'hello=00world',
    });
    const id = await ingestOk(
      t,
      meta({ helo: 'mx\u0000.example', country: 'F\u0000R', remote_ip: '192.0.2.1\u0000' }),
      raw,
    );
    const d = await detail(id);
    expect(d.text_body).toContain('helloworld');
    expect([d.helo, d.country, d.ip_address]).toEqual(['mx.example', 'FR', '192.0.2.1']);
    expect(d.raw_available).toBe(true);
  });

  test('__proto__ headers and symbols change no prototype and are kept as data', async () => {
    const raw = mime({ extraHeaders: ['__proto__: polluted', 'constructor: x', 'toString: y'] });
    const m = meta();
    const text = JSON.stringify(m).replace(
      '"symbols":{',
      '"symbols":{"__proto__":{"score":99,"polluted":true},"constructor":{"score":1},',
    );
    const res = await ingest(t, text, raw);
    expect(res.statusCode).toBe(201);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.prototype.hasOwnProperty.call(Object.prototype, 'polluted')).toBe(false);
    const d = await detail(res.json().id);
    expect(d.headers).toEqual(expect.arrayContaining([{ name: '__proto__', value: 'polluted' }]));
    expect(d.symbols.map((s: { symbol: string }) => s.symbol)).toEqual(
      expect.arrayContaining(['constructor', 'GTUBE']),
    );
    expect(d.symbols.map((s: { symbol: string }) => s.symbol)).not.toContain('__proto__');
  });

  test('a header block too large to parse: still quarantined (raw kept, fields empty)', async () => {
    const raw = Buffer.concat([
      Buffer.from(`X-Huge: ${'h'.repeat(3 * 1024 * 1024)}\r\n`),
      mime({ subject: 'hidden behind a huge header' }),
    ]);
    const id = await ingestOk(t, meta(), raw);
    const d = await detail(id);
    expect(d.subject).toBeNull();
    expect(d.sender).toBe('spammer@bad.example');
    expect(d.size).toBe(raw.length);
    expect(Buffer.compare(await rawOf(id), raw)).toBe(0);
  });

  test('10 000 recipients: written 500 rows per statement, one statement for the message', async () => {
    const { plugin, inserts } = insertCounter();
    const recipients = Array.from({ length: 10_000 }, (_, i) => `batch${i}@d${i % 50}.example`);
    const [outcome] = await insertQuarantinedMessages(t.db.withPlugin(plugin), [{ ...storedRow(), recipients }]);
    expect(outcome?.ok).toBe(true);
    expect(inserts.filter(([table]) => table === 'quarantine_messages')).toEqual([['quarantine_messages', 1]]);
    expect(inserts.filter(([table]) => table === 'quarantine_recipients')).toEqual(
      Array.from({ length: 20 }, () => ['quarantine_recipients', 500]),
    );
  });

  test('10 000 recipients over HTTP: all stored; counters follow; more are refused', async () => {
    const rcpt = Array.from({ length: 10_000 }, (_, i) => `user${i}@d${i % 50}.example`);
    const before = await globalCounters(t);
    const res = await ingest(t, meta({ rcpt_to: rcpt }), mime({ subject: 'mass mailing' }));
    expect(res.statusCode).toBe(201);
    const id = res.json().id;
    const rows = await t.db
      .selectFrom('quarantine_recipients')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('message_id', '=', id)
      .executeTakeFirstOrThrow();
    expect(Number(rows.n)).toBe(10_000);
    expect((await globalCounters(t)).pending).toBe((before.pending ?? 0) + 10_000);
    expect(await globalCounters(t)).toEqual(await recount(t));
    const d = await detail(id);
    expect(d.recipient_count).toBe(10_000);
    expect(d.recipients).toHaveLength(1000);
    expect(d.recipients_truncated).toBe(true);
    const list = await t.app.inject({ method: 'GET', url: '/api/quarantine/?q=mass+mailing', headers: bearer(admin) });
    const item = list.json().results.find((r: { id: string }) => r.id === id);
    expect(item.recipients).toHaveLength(20);
    expect(item.recipient_count).toBe(10_000);

    const over = await ingest(t, meta({ rcpt_to: [...rcpt, 'one.more@x.example'] }), mime());
    expect(over.statusCode).toBe(400);
    expect(over.json().errors).toHaveProperty(['meta.rcpt_to']);
  }, 60_000);
});

test('ingest updates the dashboard counters in the same transaction (they equal a recount)', async () => {
  const before = await globalCounters(t);
  await ingestOk(t, meta({ rcpt_to: ['x1@c.example', 'x2@c.example'] }));
  const after = await globalCounters(t);
  expect(after.pending).toBe((before.pending ?? 0) + 2);
  expect(after).toEqual(await recount(t));
  const dash = await t.app.inject({ method: 'GET', url: '/api/dashboard/', headers: bearer(admin) });
  expect(dash.json().pending).toBe(after.pending);
});
