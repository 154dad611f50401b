import { createServer, type Socket } from 'node:net';
import { bearer, createTestApp, freePort, sqliteOnly, type TestApp } from '../../test/helpers';
import SqliteDatabase from 'better-sqlite3';
import {
  domainCounters,
  globalCounters,
  INGEST_TOKEN,
  ingestOk,
  meta,
  mime,
  type QuarantineSuite,
  recipientStatuses,
  recount,
  type Sink,
  startQuarantineSuite,
} from '../../test/quarantine';
import { BULK_CONCURRENCY } from './bulk.service';
import { insertQuarantinedMessage } from './ingest.repository';
import { finishRelease } from './status.repository';
import { tripsBreaker } from './release.service';
import type { RelayResult } from '../../lib/smtp-relay';

let suite: QuarantineSuite;
let t: TestApp;
let sink: Sink;
let tokens: Record<string, string>;
let userIds: Record<string, string>;

beforeAll(async () => {
  suite = await startQuarantineSuite([
    ['root@admin.example', 'admin', undefined],
    ['boss@a.example', 'domain_admin', 'a.example'],
    ['ann@a.example', 'user', 'a.example'],
    ['bob@a.example', 'user', 'a.example'],
    ['carl@b.example', 'user', 'b.example'],
  ]);
  ({ t, sink, tokens, userIds } = suite);
});
afterAll(() => suite.close());
beforeEach(() => {
  sink.mode = 'accept';
  sink.rejectRecipients.clear();
  sink.deferRecipients.clear();
  sink.delayMs = 0;
});

const release = (email: string, id: string, body?: object) =>
  t.app.inject({
    method: 'POST',
    url: `/api/quarantine/${id}/release/`,
    headers: bearer(tokens[email]!),
    ...(body ? { payload: body } : {}),
  });
const remove = (email: string, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/quarantine/${id}/`, headers: bearer(tokens[email]!) });
const detail = async (email: string, id: string) => {
  const res = await t.app.inject({ method: 'GET', url: `/api/quarantine/${id}/`, headers: bearer(tokens[email]!) });
  expect(res.statusCode).toBe(200);
  return res.json();
};
const statuses = (id: string) => recipientStatuses(t, id);
const historyOf = async (id: string) =>
  t.db
    .selectFrom('history')
    .select(['action', 'result', 'code', 'actor_email', 'actor_role', 'actor_id', 'ip_address'])
    .where('email_id', '=', id)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
const dashboard = async (email: string) =>
  (await t.app.inject({ method: 'GET', url: '/api/dashboard/', headers: bearer(tokens[email]!) })).json();

/** History rows of one millisecond have no order: actions whose rows are compared in order are spaced. */
const tick = () => new Promise((r) => setTimeout(r, 3));

/** Counters must always equal a recount of the rows. */
async function expectCountersConsistent() {
  expect(await globalCounters(t)).toEqual(await recount(t));
}

describe('release through a real SMTP relay', () => {
  test('delivers the original bytes with X-Quarantine-Released, once, to the original envelope', async () => {
    const raw = mime({ subject: 'Release me', body: 'Line one\r\n.leading dot line\r\nLast' });
    const id = await ingestOk(t, meta({ mail_from: 'sender@origin.example', rcpt_to: ['ann@a.example'] }), raw);
    const res = await release('ann@a.example', id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      status: 'released',
      delivery: { response: expect.stringMatching(/^250 .*queued as Q/), accepted: ['ann@a.example'], rejected: [] },
    });
    const delivered = sink.messages.filter((m) => m.raw.includes(Buffer.from('Release me')));
    expect(delivered).toHaveLength(1);
    const [msg] = delivered;
    expect(msg!.from).toBe('sender@origin.example');
    expect(msg!.to).toEqual(['ann@a.example']);
    const header = msg!.raw.subarray(0, msg!.raw.indexOf('\r\n') + 2).toString();
    expect(header).toMatch(/^X-Quarantine-Released: \d{4}-\d{2}-\d{2}T[\d:.]+Z by ann@a\.example\r\n$/);
    expect(Buffer.compare(msg!.raw.subarray(header.length), raw)).toBe(0); // byte for byte after the header

    expect(await statuses(id)).toEqual({ 'ann@a.example': 'released' });
    const d = await detail('ann@a.example', id);
    expect(d.status).toBe('released');
    expect(d.delivery).toMatchObject({ outcome: 'released', by: 'ann@a.example', accepted: ['ann@a.example'] });

    // Again: nothing left to release.
    await tick();
    const again = await release('ann@a.example', id);
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('already_released');
    expect(sink.messages.filter((m) => m.raw.includes(Buffer.from('Release me')))).toHaveLength(1);

    expect(await historyOf(id)).toEqual([
      expect.objectContaining({ action: 'release', result: 'success', code: null, actor_email: 'ann@a.example' }),
      expect.objectContaining({ action: 'release', result: 'failure', code: 'already_released' }),
    ]);
    await expectCountersConsistent();
  });

  test('the envelope goes out as received: a recipient written John.Doe@A.example is not lower-cased', async () => {
    const id = await ingestOk(
      t,
      meta({ rcpt_to: ['John.Doe@A.example', 'ann@a.example', 'ANN@a.example'] }),
      mime({ subject: 'Cased envelope' }),
    );
    // Stored lower-cased (scoping, one row per mailbox)…
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'pending', 'john.doe@a.example': 'pending' });
    const res = await release('root@admin.example', id);
    expect(res.statusCode).toBe(200);
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'released', 'john.doe@a.example': 'released' });
    // …sent as written (RFC 5321: a local part's case may matter to the mailbox's server).
    const [msg] = sink.messages.filter((m) => m.raw.includes(Buffer.from('Cased envelope')));
    expect([...msg!.to].sort()).toEqual(['John.Doe@A.example', 'ann@a.example']);
  });

  test('quoted local parts ("john doe"@…), valid mail, are stored and offered to the relay as written', async () => {
    const to = '"john doe"@a.example';
    const id = await ingestOk(t, meta({ rcpt_to: [to] }), mime({ subject: 'Quoted envelope' }));
    expect((await detail('root@admin.example', id)).recipients.map((r: { address: string }) => r.address)).toEqual([
      to,
    ]);
    // The test relay (smtp-server) does not take quoted local parts: its own 501 shows the address
    // reached it, not refused here as unsafe (400 invalid_envelope). The wire form: smtp-relay.test.
    const res = await release('root@admin.example', id);
    expect([res.statusCode, res.json().code, res.json().delivery.response]).toEqual([
      502,
      'relay_refused',
      expect.stringMatching(/^501 .*recipient/),
    ]);
  });

  test('only to the recipients the caller acts for; the others stay pending', async () => {
    const id = await ingestOk(
      t,
      meta({ rcpt_to: ['ann@a.example', 'bob@a.example', 'carl@b.example'] }),
      mime({ subject: 'Per recipient' }),
    );
    expect((await release('ann@a.example', id)).statusCode).toBe(200);
    expect(await statuses(id)).toEqual({
      'ann@a.example': 'released',
      'bob@a.example': 'pending',
      'carl@b.example': 'pending',
    });
    const res = await release('boss@a.example', id); // the domain admin: bob is left in a.example
    expect(res.statusCode).toBe(200);
    expect(res.json().delivery.accepted).toEqual(['bob@a.example']);
    expect(await statuses(id)).toMatchObject({ 'bob@a.example': 'released', 'carl@b.example': 'pending' });
    const sent = sink.messages.filter((m) => m.raw.includes(Buffer.from('Per recipient')));
    expect(sent.map((m) => m.to)).toEqual([['ann@a.example'], ['bob@a.example']]);
    // carl still sees it held; ann sees it released.
    expect((await detail('carl@b.example', id)).status).toBe('pending');
    expect((await detail('ann@a.example', id)).status).toBe('released');
    await expectCountersConsistent();
    expect(await domainCounters(t, 'b.example')).toMatchObject({ pending: expect.any(Number) });
  });

  test('two concurrent releases send exactly once; the other gets 409', async () => {
    sink.delayMs = 300; // the first release is still talking to the relay when the second arrives
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Race release' }));
    const [a, b] = await Promise.all([release('ann@a.example', id), release('root@admin.example', id)]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const loser = a.statusCode === 409 ? a : b;
    expect(['release_in_progress', 'already_released']).toContain(loser.json().code);
    expect(sink.messages.filter((m) => m.raw.includes(Buffer.from('Race release')))).toHaveLength(1);
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'released' });
    await expectCountersConsistent();
  });

  test('relay refusing (550 at RCPT) → 502 relay_refused, stays quarantined as release_failed; retry works', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Refused once' }));
    const before = await dashboard('ann@a.example');
    sink.mode = 'reject-rcpt';
    const res = await release('ann@a.example', id);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      detail: expect.any(String),
      code: 'relay_refused',
      delivery: { response: expect.stringMatching(/^550 /), accepted: [], rejected: ['ann@a.example'] },
    });
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'release_failed' });
    const d = await detail('ann@a.example', id);
    expect(d.status).toBe('release_failed');
    expect(d.delivery).toMatchObject({ outcome: 'relay_refused', response: expect.stringMatching(/^550 /) });
    // Still in the default (held) list and still counted as pending.
    const list = await t.app.inject({
      method: 'GET',
      url: '/api/quarantine/',
      headers: bearer(tokens['ann@a.example']!),
    });
    expect(list.json().results.find((r: { id: string }) => r.id === id)?.status).toBe('release_failed');
    expect(await dashboard('ann@a.example')).toEqual(before);
    expect(sink.messages.filter((m) => m.raw.includes(Buffer.from('Refused once')))).toHaveLength(0);

    sink.mode = 'accept';
    const retry = await release('ann@a.example', id);
    expect(retry.statusCode).toBe(200);
    expect(sink.messages.filter((m) => m.raw.includes(Buffer.from('Refused once')))).toHaveLength(1);
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'released' });
    const after = await dashboard('ann@a.example');
    expect(after).toEqual({ ...before, pending: before.pending - 1, released: before.released + 1 });
    expect((await historyOf(id)).map((h) => [h.result, h.code])).toEqual([
      ['failure', 'relay_refused'],
      ['success', null],
    ]);
    await expectCountersConsistent();
  });

  test("a refusal seen by a recipient who is not the attempt's only one: no relay text (it may name another)", async () => {
    const id = await ingestOk(
      t,
      meta({ rcpt_to: ['ann@a.example', 'carl@b.example'] }),
      mime({ subject: 'Refused for both' }),
    );
    sink.mode = 'reject-rcpt';
    const res = await release('root@admin.example', id);
    expect(res.statusCode).toBe(502);
    expect(res.json().delivery.response).toMatch(/^550 /);
    expect((await detail('root@admin.example', id)).delivery).toMatchObject({
      outcome: 'relay_refused',
      response: expect.stringMatching(/^550 /),
      rejected: ['ann@a.example', 'carl@b.example'],
    });
    expect((await detail('ann@a.example', id)).delivery).toMatchObject({
      outcome: 'relay_refused',
      response: null,
      rejected: ['ann@a.example'],
    });
    // boss sees every a.example recipient, not carl: the text may be carl's refusal.
    expect((await detail('boss@a.example', id)).delivery.response).toBeNull();
  });

  test('relay refusing the data (550 after DATA) → 502 relay_refused, nothing delivered', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Bad content' }));
    sink.mode = 'reject-data';
    const res = await release('ann@a.example', id);
    expect(res.statusCode).toBe(502);
    expect(res.json().code).toBe('relay_refused');
    expect(res.json().delivery.response).toMatch(/^550 5\.7\.1/);
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'release_failed' });
    expect(sink.messages.filter((m) => m.raw.includes(Buffer.from('Bad content')))).toHaveLength(0);
  });

  test('some recipients refused → 200 partially_released; the refused ones are release_failed', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example', 'bob@a.example'] }), mime({ subject: 'Half' }));
    sink.rejectRecipients.add('bob@a.example');
    const res = await release('boss@a.example', id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'partially_released',
      delivery: { accepted: ['ann@a.example'], rejected: ['bob@a.example'] },
    });
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'released', 'bob@a.example': 'release_failed' });
    // Each recipient's detail tells the attempt as it went for them; the domain admin sees it was partial.
    expect((await detail('boss@a.example', id)).delivery).toMatchObject({
      outcome: 'partially_released',
      accepted: ['ann@a.example'],
      rejected: ['bob@a.example'],
    });
    expect((await detail('ann@a.example', id)).delivery).toMatchObject({
      outcome: 'released',
      accepted: ['ann@a.example'],
      rejected: [],
    });
    expect((await detail('bob@a.example', id)).delivery).toMatchObject({
      outcome: 'relay_refused',
      response: null, // the 250 that queued ann's copy is not bob's answer
      accepted: [],
      rejected: ['bob@a.example'],
    });
    await expectCountersConsistent();
  });

  test('a temporary refusal (451 at RCPT): that recipient stays release_failed, still releasable; a later release delivers', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example', 'bob@a.example'] }), mime({ subject: 'Deferred' }));
    const copies = () => sink.messages.filter((m) => m.raw.includes(Buffer.from('Deferred'))).map((m) => m.to);
    sink.deferRecipients.add('bob@a.example');
    const res = await release('boss@a.example', id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      status: 'partially_released',
      delivery: { accepted: ['ann@a.example'], rejected: ['bob@a.example'] },
    });
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'released', 'bob@a.example': 'release_failed' });
    expect(copies()).toEqual([['ann@a.example']]);
    // Not a resend question (nothing reached bob) and no confirmation needed: bob releases it later.
    sink.deferRecipients.clear();
    const later = await release('bob@a.example', id);
    expect(later.statusCode).toBe(200);
    expect(later.json()).toMatchObject({ status: 'released', delivery: { accepted: ['bob@a.example'], rejected: [] } });
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'released', 'bob@a.example': 'released' });
    expect(copies()).toEqual([['ann@a.example'], ['bob@a.example']]); // each got one copy
    await expectCountersConsistent();
  });

  test('connection lost after DATA → 502 release_unknown; a retry needs confirm_resend', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Lost in transit' }));
    sink.mode = 'drop-after-data';
    const res = await release('ann@a.example', id);
    expect(res.statusCode).toBe(502);
    expect(res.json()).toMatchObject({ code: 'release_unknown', delivery: { accepted: [], rejected: [] } });
    expect(sink.refused.filter((m) => m.raw.includes(Buffer.from('Lost in transit')))).toHaveLength(1);
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'release_unknown' });
    expect((await detail('ann@a.example', id)).status).toBe('release_unknown');
    expect(await dashboard('ann@a.example')).toMatchObject({ pending: expect.any(Number) });

    sink.mode = 'accept';
    await tick();
    const plain = await release('ann@a.example', id);
    expect(plain.statusCode).toBe(409);
    expect(plain.json().code).toBe('confirm_resend_required');
    expect(sink.messages.filter((m) => m.raw.includes(Buffer.from('Lost in transit')))).toHaveLength(0);

    await tick();
    const confirmed = await release('ann@a.example', id, { confirm_resend: true });
    expect(confirmed.statusCode).toBe(200);
    expect(sink.messages.filter((m) => m.raw.includes(Buffer.from('Lost in transit')))).toHaveLength(1);
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'released' });
    expect((await historyOf(id)).map((h) => h.code)).toEqual(['release_unknown', 'confirm_resend_required', null]);
    await expectCountersConsistent();
  });

  /** A claim left an hour ago by a process that died mid-release (counters moved as a claim does). */
  async function staleClaim(subject: string) {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject }));
    const old = Date.now() - 60 * 60 * 1000;
    await t.db
      .insertInto('quarantine_deliveries')
      .values({
        id: `DEAD-${id}`,
        message_id: id,
        actor_id: null,
        actor_email: 'ann@a.example',
        started_at: old,
        finished_at: null,
        outcome: 'in_progress',
        response: null,
        accepted: '[]',
        rejected: '[]',
      })
      .execute();
    await t.db
      .updateTable('quarantine_recipients')
      .set({ status: 'releasing', updated_at: old, delivery_id: `DEAD-${id}` })
      .where('message_id', '=', id)
      .execute();
    await t.db
      .updateTable('quarantine_counts')
      .set((eb) => ({ n: eb('n', '-', 1) }))
      .where('status', '=', 'pending')
      .where('scope_id', 'in', ['*', 'a.example'])
      .execute();
    await t.db
      .insertInto('quarantine_counts')
      .values([
        { scope: 'global', scope_id: '*', status: 'releasing', n: 1 },
        { scope: 'domain', scope_id: 'a.example', status: 'releasing', n: 1 },
      ])
      .onConflict((oc) =>
        oc.columns(['scope', 'scope_id', 'status']).doUpdateSet((eb) => ({ n: eb('quarantine_counts.n', '+', 1) })),
      )
      .execute();
    return id;
  }

  test('a claim left by a process that died (stale releasing) shows as release_unknown and needs confirm_resend', async () => {
    const id = await staleClaim('Crashed release');
    const seen = await detail('ann@a.example', id);
    // The attempt itself reads as unknown too, not as still under way.
    expect([seen.status, seen.delivery.outcome, seen.delivery.finished_at]).toEqual([
      'release_unknown',
      'release_unknown',
      null,
    ]);
    expect((await release('ann@a.example', id)).json().code).toBe('confirm_resend_required');
    const res = await release('ann@a.example', id, { confirm_resend: true });
    expect(res.statusCode).toBe(200);
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'released' });
    await expectCountersConsistent();
  });

  test('a stale claim can be deleted (it showed release_unknown, and delete answered 409 for ever)', async () => {
    const id = await staleClaim('Crashed then deleted');
    expect((await remove('ann@a.example', id)).statusCode).toBe(204);
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'deleted' });
    await expectCountersConsistent();
  });

  test('a fresh claim of another call → 409 release_in_progress (not re-sent)', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'In flight' }));
    await t.db
      .updateTable('quarantine_recipients')
      .set({ status: 'releasing', updated_at: Date.now(), delivery_id: 'OTHER' })
      .where('message_id', '=', id)
      .execute();
    const res = await release('ann@a.example', id, { confirm_resend: true });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('release_in_progress');
    expect(sink.messages.filter((m) => m.raw.includes(Buffer.from('In flight')))).toHaveLength(0);
    const del = await remove('ann@a.example', id);
    expect([del.statusCode, del.json().code]).toEqual([409, 'release_in_progress']);
    await t.db
      .updateTable('quarantine_recipients')
      .set({ status: 'pending', delivery_id: null })
      .where('message_id', '=', id)
      .execute(); // (counters were not touched)
  });

  test('CR/LF in a value that would reach SMTP is refused before anything is sent', async () => {
    // Ingest refuses such envelopes; this row is written past it, as an older or tampered row would be.
    const id = await insertQuarantinedMessage(t.db, {
      receivedAt: Date.now(),
      sender: 'x@bad.example',
      subject: 'Injected',
      score: 20,
      action: 'reject',
      size: 10,
      recipients: ['ann@a.example'],
      details: { envelope_from: 'x@bad.example>\r\nRCPT TO:<victim@else.example' },
      raw: { data: Buffer.from('Subject: Injected\r\n\r\nx\r\n'), sha256: 'x' },
    });
    const res = await release('ann@a.example', id);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_envelope');
    expect(sink.messages.filter((m) => m.raw.includes(Buffer.from('Injected')))).toHaveLength(0);
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'pending' });
    expect((await historyOf(id)).map((h) => [h.result, h.code])).toEqual([['failure', 'invalid_envelope']]);

    const badRcpt = await insertQuarantinedMessage(t.db, {
      receivedAt: Date.now(),
      sender: 'x@bad.example',
      subject: 'Injected rcpt',
      score: 20,
      action: 'reject',
      size: 10,
      recipients: ['evil@x.example>\r\nDATA'],
      details: { envelope_from: 'x@bad.example' },
      raw: { data: Buffer.from('Subject: Injected rcpt\r\n\r\nx\r\n'), sha256: 'y' },
    });
    const res2 = await release('root@admin.example', badRcpt);
    expect(res2.statusCode).toBe(400);
    expect(res2.json().code).toBe('invalid_envelope');
    expect(sink.messages.filter((m) => m.raw.includes(Buffer.from('Injected rcpt')))).toHaveLength(0);
    await expectCountersConsistent();
  });

  test('a deleted e-mail cannot be released (409 email_deleted)', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Deleted then released' }));
    expect((await remove('ann@a.example', id)).statusCode).toBe(204);
    const res = await release('ann@a.example', id);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('email_deleted');
  });
});

describe('relay problems', () => {
  test('relay unreachable → 502 relay_unreachable; status release_failed', async () => {
    const port = await freePort();
    const down = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN, QC_SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      await down.createUser({ email: 'ann@a.example', role: 'user' });
      const token = (await down.login('ann@a.example')).access;
      const id = await ingestOk(down, meta({ rcpt_to: ['ann@a.example'] }));
      const res = await down.app.inject({
        method: 'POST',
        url: `/api/quarantine/${id}/release/`,
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(502);
      // The connection error names the relay's address: the operator's to read, not a user's.
      expect(res.json()).toMatchObject({
        code: 'relay_unreachable',
        delivery: { response: null, accepted: [], rejected: ['ann@a.example'] },
      });
      const annDetail = await down.app.inject({ method: 'GET', url: `/api/quarantine/${id}/`, headers: bearer(token) });
      expect(annDetail.json().delivery).toMatchObject({ outcome: 'relay_unreachable', response: null });
      await down.createUser({ email: 'root@admin.example', role: 'admin' });
      const rootToken = (await down.login('root@admin.example')).access;
      const rootDetail = await down.app.inject({
        method: 'GET',
        url: `/api/quarantine/${id}/`,
        headers: bearer(rootToken),
      });
      expect(rootDetail.json().delivery.response).toMatch(/ECONNREFUSED/);
      const row = await down.db
        .selectFrom('quarantine_recipients')
        .select('status')
        .where('message_id', '=', id)
        .executeTakeFirst();
      expect(row?.status).toBe('release_failed');
    } finally {
      await down.close();
    }
  });

  test('bulk release with the relay down: tried by the first few only, every mail release_failed with its history', async () => {
    // A "relay" that hangs up on every connection, counting them.
    let connections = 0;
    const server = createServer((socket: Socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const down = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN, QC_SMTP_URL: `smtp://127.0.0.1:${port}` });
    try {
      await down.createUser({ email: 'ann@a.example', role: 'user' });
      const token = (await down.login('ann@a.example')).access;
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push(await ingestOk(down, meta({ rcpt_to: ['ann@a.example'] })));
      const res = await down.app.inject({
        method: 'POST',
        url: '/api/quarantine/bulk/',
        headers: bearer(token),
        payload: { ids, action: 'release' },
      });
      expect(res.statusCode).toBe(200);
      expect(res.json().results).toEqual(ids.map((id) => ({ id, status: 'failed', code: 'relay_unreachable' })));
      // The first BULK_CONCURRENCY started together; the rest were not tried again.
      expect(connections).toBeGreaterThan(0);
      expect(connections).toBeLessThanOrEqual(BULK_CONCURRENCY);
      const rows = await down.db.selectFrom('quarantine_recipients').select('status').execute();
      expect(rows.map((r) => r.status)).toEqual(ids.map(() => 'release_failed'));
      const history = await down.db
        .selectFrom('history')
        .select(['result', 'code'])
        .where('action', '=', 'release')
        .execute();
      expect(history).toEqual(ids.map(() => ({ result: 'failure', code: 'relay_unreachable' })));
    } finally {
      await down.close();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test('QC_SMTP_URL unset → 503 relay_not_configured; nothing changes', async () => {
    const none = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN });
    try {
      await none.createUser({ email: 'ann@a.example', role: 'user' });
      const token = (await none.login('ann@a.example')).access;
      const id = await ingestOk(none, meta({ rcpt_to: ['ann@a.example'] }));
      const res = await none.app.inject({
        method: 'POST',
        url: `/api/quarantine/${id}/release/`,
        headers: bearer(token),
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('relay_not_configured');
      const row = await none.db
        .selectFrom('quarantine_recipients')
        .select('status')
        .where('message_id', '=', id)
        .executeTakeFirst();
      expect(row?.status).toBe('pending');
    } finally {
      await none.close();
    }
  });
});

test('a bulk action stops trying a relay that could not be reached or went silent after a message, not one that refused or hung up', () => {
  const cases: [RelayResult, boolean][] = [
    [{ outcome: 'unreachable', response: null, error: 'ECONNREFUSED', connected: false }, true],
    [{ outcome: 'unknown', response: null, error: 'Timeout', timedOut: true }, true],
    [{ outcome: 'unreachable', response: null, error: 'closed at MAIL FROM', connected: true }, false],
    [{ outcome: 'unknown', response: null, error: 'EPIPE', timedOut: false }, false],
    [{ outcome: 'refused', response: '554 no', accepted: [], rejected: ['a@x'] }, false],
    [{ outcome: 'sent', response: '250 ok', accepted: ['a@x'], rejected: [], tooMany: [] }, false],
  ];
  for (const [result, trips] of cases) expect([result, tripsBreaker(result)]).toEqual([result, trips]);
});

describe('delete (soft)', () => {
  test('the caller’s held recipients become deleted, raw kept; counters and dashboard follow; audited', async () => {
    const id = await ingestOk(
      t,
      meta({ rcpt_to: ['ann@a.example', 'carl@b.example'] }),
      mime({ subject: 'Delete me' }),
    );
    const annBefore = await dashboard('ann@a.example');
    const adminBefore = await dashboard('root@admin.example');
    const carlBefore = await dashboard('carl@b.example');
    expect((await remove('ann@a.example', id)).statusCode).toBe(204);
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'deleted', 'carl@b.example': 'pending' });
    expect(await dashboard('ann@a.example')).toEqual({
      ...annBefore,
      pending: annBefore.pending - 1,
      deleted: annBefore.deleted + 1,
    });
    expect(await dashboard('root@admin.example')).toEqual({
      ...adminBefore,
      pending: adminBefore.pending - 1,
      deleted: adminBefore.deleted + 1,
    });
    expect(await dashboard('carl@b.example')).toEqual(carlBefore);
    // Raw kept.
    const raw = await t.db.selectFrom('quarantine_raw').select('message_id').where('message_id', '=', id).execute();
    expect(raw).toHaveLength(1);
    // Again: idempotent.
    expect((await remove('ann@a.example', id)).statusCode).toBe(204);
    expect(await dashboard('ann@a.example')).toEqual({
      ...annBefore,
      pending: annBefore.pending - 1,
      deleted: annBefore.deleted + 1,
    });
    // Audited once: the second delete changed nothing, so it records nothing.
    expect((await historyOf(id)).map((h) => [h.action, h.result, h.actor_email])).toEqual([
      ['delete', 'success', 'ann@a.example'],
    ]);
    await expectCountersConsistent();
  });

  test('a released e-mail cannot be deleted (409 already_released)', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Released then deleted' }));
    expect((await release('ann@a.example', id)).statusCode).toBe(200);
    const res = await remove('ann@a.example', id);
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('already_released');
    expect(await statuses(id)).toEqual({ 'ann@a.example': 'released' });
  });
});

describe('history rows', () => {
  test('download, release, delete: actor, role, ip, result and code', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['bob@a.example'] }), mime({ subject: 'Audited' }));
    const dl = await t.app.inject({
      method: 'GET',
      url: `/api/quarantine/${id}/raw/`,
      headers: bearer(tokens['bob@a.example']!),
    });
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('message/rfc822');
    expect(dl.headers['content-disposition']).toBe(
      `attachment; filename="Audited-${id}.eml"; filename*=UTF-8''Audited-${id}.eml`,
    );
    expect(dl.headers['x-content-type-options']).toBe('nosniff');
    await tick();
    // Someone else's: refused, and recorded as a failure of that someone.
    const idor = await t.app.inject({
      method: 'GET',
      url: `/api/quarantine/${id}/raw/`,
      headers: bearer(tokens['carl@b.example']!),
    });
    expect(idor.statusCode).toBe(404);
    await tick();
    expect((await release('boss@a.example', id)).statusCode).toBe(200);
    await tick();
    expect((await remove('bob@a.example', id)).statusCode).toBe(409);

    expect(await historyOf(id)).toEqual([
      {
        action: 'download',
        result: 'success',
        code: null,
        actor_email: 'bob@a.example',
        actor_role: 'user',
        actor_id: userIds['bob@a.example'],
        ip_address: '127.0.0.1',
      },
      expect.objectContaining({
        action: 'download',
        result: 'failure',
        code: 'email_not_found',
        actor_email: 'carl@b.example',
      }),
      expect.objectContaining({
        action: 'release',
        result: 'success',
        actor_email: 'boss@a.example',
        actor_role: 'domain_admin',
      }),
      expect.objectContaining({
        action: 'delete',
        result: 'failure',
        code: 'already_released',
        actor_email: 'bob@a.example',
      }),
    ]);
  });

  test('a hostile subject gives a safe download file name', async () => {
    const id = await ingestOk(
      t,
      meta({ rcpt_to: ['bob@a.example'] }),
      mime({ subject: '"; filename=evil.exe\\ ../../é<x>' }),
    );
    const dl = await t.app.inject({
      method: 'GET',
      url: `/api/quarantine/${id}/raw/`,
      headers: bearer(tokens['bob@a.example']!),
    });
    expect(dl.headers['content-disposition']).toMatch(
      /^attachment; filename="[A-Za-z0-9._-]+\.eml"; filename\*=UTF-8''[A-Za-z0-9%._~!-]+\.eml$/,
    );
  });
});

test('the counters equal a recount after everything above', async () => {
  await expectCountersConsistent();
  for (const domain of ['a.example', 'b.example']) {
    const rows = await t.db
      .selectFrom('quarantine_recipients')
      .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('domain', '=', domain)
      .groupBy('status')
      .execute();
    expect(await domainCounters(t, domain)).toEqual(Object.fromEntries(rows.map((r) => [r.status, Number(r.n)])));
  }
});

describe('recording the outcome', () => {
  test('an outcome recorded twice (a retry after a commit whose answer was lost) counts once', async () => {
    const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'recorded twice' }));
    expect((await release('ann@a.example', id)).statusCode).toBe(200);
    const { delivery_id } = await t.db
      .selectFrom('quarantine_recipients')
      .select('delivery_id')
      .where('message_id', '=', id)
      .executeTakeFirstOrThrow();
    const [row] = await t.db.selectFrom('history').selectAll().where('email_id', '=', id).execute();
    const { id: _id, target_kind: _k, target_id: _t, target_label: _l, changes: _c, ...history } = row!;
    await finishRelease(t.db, {
      messageId: id,
      deliveryId: delivery_id!,
      outcome: 'released',
      response: '250 ok',
      accepted: ['ann@a.example'],
      rejected: [],
      statusOf: () => 'released',
      claimed: ['ann@a.example'],
      now: Date.now(),
      history: { ...history, email_id: id, action: 'release', created_at: Date.now() },
      scope: { kind: 'recipient', addresses: ['ann@a.example'] },
    });
    expect(await historyOf(id)).toHaveLength(1);
    await expectCountersConsistent();
  });

  sqliteOnly(
    'a database locked while the relay answers: the outcome is recorded once the lock is gone, not lost',
    async () => {
      const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'locked at the end' }));
      sink.delayMs = 300;
      const answer = release('ann@a.example', id);
      // Once the rows are claimed, another process takes the write lock for longer than busy_timeout (5 s).
      while ((await statuses(id))['ann@a.example'] !== 'releasing') await tick();
      const other = new SqliteDatabase((t.config.database as { file: string }).file);
      try {
        other.exec('begin immediate');
        await new Promise((r) => setTimeout(r, 5_500));
        other.exec('rollback');
        const res = await answer;
        expect([res.statusCode, res.json().status]).toEqual([200, 'released']);
      } finally {
        other.close();
      }
      expect(sink.messages.filter((m) => m.raw.includes('locked at the end'))).toHaveLength(1);
      expect(await statuses(id)).toEqual({ 'ann@a.example': 'released' });
      expect((await historyOf(id)).map((h) => [h.action, h.result])).toEqual([['release', 'success']]);
      await expectCountersConsistent();
    },
    30_000,
  );
});
