import { createServer, type Server, type Socket } from 'node:net';
import { openDatabase } from '../../db/database';
import { bearer, createTestApp, type TestApp } from '../../test/helpers';
import {
  globalCounters,
  INGEST_TOKEN,
  ingestOk,
  meta,
  mime,
  recipientStatuses,
  recount,
  type QuarantineSuite,
  type Sink,
  startQuarantineSuite,
} from '../../test/quarantine';

// Issue 29 item 11: a relay that does not answer in time no longer holds the request.
const ANSWER_MS = 500;
/** Past the answer's time: the relay answers the data this long after it was sent. */
const RELAY_DELAY_MS = 1_500;

let suite: QuarantineSuite;
let t: TestApp;
let sink: Sink;
let tokens: Record<string, string>;

beforeAll(async () => {
  suite = await startQuarantineSuite(
    [
      ['root@admin.example', 'admin', undefined],
      ['ann@a.example', 'user', 'a.example'],
    ],
    { QC_RELEASE_ANSWER_MS: String(ANSWER_MS) },
  );
  ({ t, sink, tokens } = suite);
});
afterAll(() => suite.close());
beforeEach(() => {
  sink.mode = 'accept';
  sink.delayMs = RELAY_DELAY_MS;
});

const post = (app: TestApp, token: string, url: string, payload?: object) =>
  app.app.inject({ method: 'POST', url, headers: bearer(token), ...(payload ? { payload } : {}) });
const historyOf = (app: Pick<TestApp, 'db'>, id: string) =>
  app.db
    .selectFrom('history')
    .select(['action', 'result', 'code', 'target_kind'])
    .where('email_id', '=', id)
    .orderBy('created_at')
    .execute();
const delivered = (subject: string) => sink.messages.filter((m) => m.raw.includes(Buffer.from(subject)));

/** Waits (polling the database) until `check` holds; fails after `ms`. */
async function eventually(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('not settled in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
const settledAs = (app: TestApp, id: string, status: string) => () =>
  recipientStatuses(app, id).then((s) => Object.values(s).every((v) => v === status));

test('a relay silent past QC_RELEASE_ANSWER_MS: 202 releasing within it; the outcome lands once the relay answers', async () => {
  const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Slow relay' }));
  const started = Date.now();
  const res = await post(t, tokens['ann@a.example']!, `/api/quarantine/${id}/release/`);
  const took = Date.now() - started;
  expect([res.statusCode, res.json()]).toEqual([202, { status: 'releasing' }]);
  expect(took).toBeGreaterThanOrEqual(ANSWER_MS - 10);
  expect(delivered('Slow relay')).toHaveLength(0); // answered before the relay did
  expect(await recipientStatuses(t, id)).toEqual({ 'ann@a.example': 'releasing' });

  await eventually(settledAs(t, id, 'released'));
  expect(delivered('Slow relay')).toHaveLength(1);
  const detail = await t.app.inject({
    method: 'GET',
    url: `/api/quarantine/${id}/`,
    headers: bearer(tokens['ann@a.example']!),
  });
  expect(detail.json()).toMatchObject({ status: 'released', delivery: { outcome: 'released' } });
  expect(await historyOf(t, id)).toEqual([{ action: 'release', result: 'success', code: null, target_kind: null }]);
  expect(await globalCounters(t)).toEqual(await recount(t));
});

test('bulk: the ids not settled within the time are `releasing`, each then released with its history row', async () => {
  const ids = [
    await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Bulk slow 1' })),
    await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Bulk slow 2' })),
  ];
  const res = await post(t, tokens['ann@a.example']!, '/api/quarantine/bulk/', { ids, action: 'release' });
  expect([res.statusCode, res.json()]).toEqual([200, { results: ids.map((id) => ({ id, status: 'releasing' })) }]);
  for (const id of ids) {
    await eventually(settledAs(t, id, 'released'));
    expect(await historyOf(t, id)).toEqual([{ action: 'release', result: 'success', code: null, target_kind: null }]);
  }
  expect(await globalCounters(t)).toEqual(await recount(t));
});

test('a copy to another address: 202 releasing, then its history row once the relay took it', async () => {
  const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Slow copy' }));
  const res = await post(t, tokens['root@admin.example']!, `/api/quarantine/${id}/release-to/`, {
    address: 'audit@c.example',
  });
  expect([res.statusCode, res.json()]).toEqual([202, { status: 'releasing' }]);
  expect(await historyOf(t, id)).toEqual([]);
  await eventually(async () => (await historyOf(t, id)).length > 0);
  expect(await historyOf(t, id)).toEqual([
    { action: 'release', result: 'success', code: null, target_kind: 'release_to' },
  ]);
  expect(delivered('Slow copy').map((m) => m.to)).toEqual([['audit@c.example']]);
});

test('Not spam: a release still under way is its step ok with code release_in_progress, and it lands after', async () => {
  const id = await ingestOk(t, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Slow not spam' }));
  const res = await post(t, tokens['ann@a.example']!, `/api/quarantine/${id}/not-spam/`, { allow_sender: null });
  expect(res.statusCode).toBe(200);
  expect(res.json().release).toMatchObject({ ok: true, code: 'release_in_progress', delivery: null });
  await eventually(settledAs(t, id, 'released'));
});

/** A "relay" that takes connections and never says a word (no greeting). */
async function silentRelay(): Promise<{ url: string; sockets: Set<Socket>; server: Server }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${(server.address() as { port: number }).port}`, sockets, server };
}

/** An app of its own on `relayUrl`, ann signed in, one mail of hers ingested. */
async function appWithMail(relayUrl: string) {
  const app = await createTestApp({
    QC_INGEST_TOKEN: INGEST_TOKEN,
    QC_SMTP_URL: relayUrl,
    QC_RELEASE_ANSWER_MS: String(ANSWER_MS),
  });
  await app.createUser({ email: 'ann@a.example', role: 'user' });
  const token = (await app.login('ann@a.example')).access;
  const id = await ingestOk(app, meta({ rcpt_to: ['ann@a.example'] }), mime({ subject: 'Own app' }));
  return { app, token, id };
}

/** What the database holds once the app is closed (read through a connection of its own). */
async function afterClose(app: TestApp, id: string) {
  const handle = openDatabase(app.config.database);
  try {
    return { statuses: await recipientStatuses(handle, id), history: await historyOf(handle, id) };
  } finally {
    await handle.close();
  }
}

test('a relay that never greets: 202 releasing; once it hangs up, release_failed with its history row', async () => {
  const relay = await silentRelay();
  const { app, token, id } = await appWithMail(relay.url);
  try {
    const res = await post(app, token, `/api/quarantine/${id}/release/`);
    expect([res.statusCode, res.json()]).toEqual([202, { status: 'releasing' }]);
    expect(relay.sockets.size).toBe(1);
    for (const s of relay.sockets) s.destroy();
    await eventually(settledAs(app, id, 'release_failed'));
    expect(await historyOf(app, id)).toEqual([
      { action: 'release', result: 'failure', code: 'relay_unreachable', target_kind: null },
    ]);
  } finally {
    await app.close();
    await new Promise((r) => relay.server.close(r));
  }
});

test('closing the app waits for a release past its answer: the relay’s late 250 is recorded, not lost', async () => {
  const { app, token, id } = await appWithMail(sink.url);
  try {
    const res = await post(app, token, `/api/quarantine/${id}/release/`);
    expect(res.statusCode).toBe(202);
    await app.app.close();
    expect(await afterClose(app, id)).toEqual({
      statuses: { 'ann@a.example': 'released' },
      history: [{ action: 'release', result: 'success', code: null, target_kind: null }],
    });
  } finally {
    await app.close();
  }
});

test('closing the app stops a release whose relay has not taken the data: nothing sent, release_failed, at once', async () => {
  const relay = await silentRelay();
  const { app, token, id } = await appWithMail(relay.url);
  try {
    expect((await post(app, token, `/api/quarantine/${id}/release/`)).statusCode).toBe(202);
    const started = Date.now();
    await app.app.close();
    // Not the 30 s of the greeting timeout: a process manager would have killed it by then.
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(await afterClose(app, id)).toEqual({
      statuses: { 'ann@a.example': 'release_failed' },
      history: [{ action: 'release', result: 'failure', code: 'relay_unreachable', target_kind: null }],
    });
  } finally {
    await app.close();
    for (const s of relay.sockets) s.destroy();
    await new Promise((r) => relay.server.close(r));
  }
});
