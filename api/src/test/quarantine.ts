import type { LightMyRequestResponse } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { createTestApp, type TestApp } from './helpers';

/** A service token for tests (QC_INGEST_TOKEN needs 24+ characters). */
export const INGEST_TOKEN = 'test-ingest-token-0123456789abcdef';

export interface MetaInput {
  uuid?: string;
  mail_from?: string;
  rcpt_to?: string[];
  [key: string]: unknown;
}

let counter = 0;
export const uniqueUuid = () => `${randomBytes(8).toString('hex').toUpperCase()}-${++counter}.1`;

export function meta(input: MetaInput = {}): Record<string, unknown> {
  return {
    uuid: input.uuid ?? uniqueUuid(),
    mail_from: 'spammer@bad.example',
    rcpt_to: ['ann@a.example'],
    remote_ip: '192.0.2.7',
    helo: 'mx.bad.example',
    received_at: new Date().toISOString(),
    rspamd: {
      action: 'reject',
      score: 15,
      required_score: 15,
      symbols: {
        GTUBE: { name: 'GTUBE', score: 0, description: 'Test pattern', options: [] },
        R_SPF_SOFTFAIL: { name: 'R_SPF_SOFTFAIL', score: 0.5, description: 'SPF softfail', group: 'spf' },
        R_DKIM_ALLOW: { name: 'R_DKIM_ALLOW', score: -0.2, group: 'dkim' },
      },
    },
    ...input,
  };
}

/** A small RFC 5322 message with CRLF line ends. */
export function mime(
  opts: { subject?: string; from?: string; to?: string; body?: string; extraHeaders?: string[] } = {},
): Buffer {
  const lines = [
    `From: ${opts.from ?? '"Spam King" <king@spam.example>'}`,
    `To: ${opts.to ?? 'ann@a.example'}`,
    `Subject: ${opts.subject ?? 'Win a prize'}`,
    `Message-ID: <${randomBytes(6).toString('hex')}@spam.example>`,
    'Date: Tue, 01 Dec 2026 10:00:00 +0000',
    ...(opts.extraHeaders ?? []),
    'Content-Type: text/plain; charset=utf-8',
    '',
    opts.body ?? `Claim it at https://prize.example/claim?id=${randomBytes(4).toString('hex')} now.`,
    '',
  ];
  return Buffer.from(lines.join('\r\n'), 'utf8');
}

/** multipart/form-data body of the ingest (meta: an object, or a raw string to test bad JSON). */
export function ingestForm(
  metaValue: unknown,
  raw: Buffer | null,
  options: {
    omitMeta?: boolean;
    metaType?: string;
    /** Sends meta as a file part with this file name (curl -F meta=@meta.json), not as a text field. */
    metaFile?: string;
  } = {},
): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----qc${randomBytes(8).toString('hex')}`;
  const parts: Buffer[] = [];
  if (!options.omitMeta) {
    const text = typeof metaValue === 'string' ? metaValue : JSON.stringify(metaValue);
    const type = options.metaType ? `Content-Type: ${options.metaType}\r\n` : '';
    const file = options.metaFile === undefined ? '' : `; filename="${options.metaFile}"`;
    parts.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="meta"${file}\r\n${type}\r\n${text}\r\n`),
    );
  }
  if (raw) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="message"; filename="message.eml"\r\n` +
          'Content-Type: message/rfc822\r\n\r\n',
      ),
      raw,
      Buffer.from('\r\n'),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return {
    payload: Buffer.concat(parts),
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
  };
}

export async function ingest(
  t: TestApp,
  metaValue: unknown,
  raw: Buffer | null,
  token: string | null = INGEST_TOKEN,
  metaType?: string,
): Promise<LightMyRequestResponse> {
  const form = ingestForm(metaValue, raw, { metaType });
  return t.app.inject({
    method: 'POST',
    url: '/api/quarantine/ingest/',
    headers: { ...form.headers, ...(token === null ? {} : { authorization: `Bearer ${token}` }) },
    payload: form.payload,
  });
}

/** Ingests and returns the new id (fails the test on anything but 201). */
export async function ingestOk(t: TestApp, metaValue: unknown, raw: Buffer = mime()): Promise<string> {
  const res = await ingest(t, metaValue, raw);
  if (res.statusCode !== 201) throw new Error(`ingest failed: ${res.statusCode} ${res.body}`);
  return res.json().id;
}

export interface SinkMessage {
  from: string | null;
  to: string[];
  raw: Buffer;
}

export type SinkMode = 'accept' | 'reject-rcpt' | 'reject-data' | 'drop-after-data';

/** A real SMTP server (smtp-server) on 127.0.0.1, recording what it accepts. */
export interface Sink {
  port: number;
  url: string;
  messages: SinkMessage[];
  /** Data received but answered with an error or a dropped connection. */
  refused: SinkMessage[];
  mode: SinkMode;
  rejectRecipients: Set<string>;
  /** Recipients answered 451 at RCPT (a temporary refusal: greylisting, a full queue). */
  deferRecipients: Set<string>;
  /** Delay before answering the data (ms): makes concurrent releases overlap. */
  delayMs: number;
  /** RCPTs taken per transaction; past it, 452 "too many recipients" (RFC 5321 4.5.3.1.10). */
  maxRcpts: number | null;
  /** Transactions that reached DATA, with how many recipients each had been offered (RCPT TO). */
  offered: number[];
  /** Called after each message accepted (e.g. to change the mode for the next transaction). */
  afterAccept: (() => void) | null;
  close(): Promise<void>;
}

export async function startSink(): Promise<Sink> {
  const sockets = new Set<Socket>();
  const sink: Omit<Sink, 'port' | 'url' | 'close'> = {
    messages: [],
    refused: [],
    mode: 'accept',
    rejectRecipients: new Set(),
    deferRecipients: new Set(),
    delayMs: 0,
    maxRcpts: null,
    offered: [],
    afterAccept: null,
  };
  const offeredIn = new WeakMap<object, number>();
  const smtpError = (message: string, code: number) => Object.assign(new Error(message), { responseCode: code });
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 64 * 1024 * 1024,
    onRcptTo(address, session, callback) {
      offeredIn.set(session.envelope, (offeredIn.get(session.envelope) ?? 0) + 1);
      if (sink.maxRcpts !== null && session.envelope.rcptTo.length >= sink.maxRcpts) {
        return callback(smtpError('4.5.3 Too many recipients', 452));
      }
      if (sink.mode === 'reject-rcpt' || sink.rejectRecipients.has(address.address)) {
        return callback(smtpError('5.1.1 No such user here', 550));
      }
      if (sink.deferRecipients.has(address.address)) return callback(smtpError('4.3.0 Try again later', 451));
      callback();
    },
    onData(stream, session, callback) {
      sink.offered.push(offeredIn.get(session.envelope) ?? 0);
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const message = {
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        };
        setTimeout(() => {
          if (sink.mode === 'reject-data') {
            sink.refused.push(message);
            return callback(smtpError('5.7.1 Message content rejected', 550));
          }
          if (sink.mode === 'drop-after-data') {
            sink.refused.push(message);
            for (const s of sockets) s.destroy();
            return;
          }
          sink.messages.push(message);
          callback(null, `2.0.0 queued as Q${sink.messages.length}`);
          sink.afterAccept?.();
        }, sink.delayMs);
      });
    },
  });
  server.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  // A client hanging up mid-session is an 'error' event of the sink: unhandled, it would fail the file.
  server.on('error', () => undefined);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as { port: number };
  return Object.assign(sink, {
    port,
    url: `smtp://127.0.0.1:${port}`,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  });
}

/** The recount of counters from the recipient rows (what the counter tables must equal). */
/** Each recipient's status of one message: `{address: status}`. */
export async function recipientStatuses(t: Pick<TestApp, 'db'>, id: string): Promise<Record<string, string>> {
  const rows = await t.db
    .selectFrom('quarantine_recipients')
    .select(['recipient', 'status'])
    .where('message_id', '=', id)
    .execute();
  return Object.fromEntries(rows.map((r) => [r.recipient, r.status]));
}

export async function recount(t: TestApp): Promise<Record<string, number>> {
  const rows = await t.db
    .selectFrom('quarantine_recipients')
    .select(['status', (eb) => eb.fn.countAll<number>().as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

export async function globalCounters(t: TestApp): Promise<Record<string, number>> {
  const rows = await t.db
    .selectFrom('quarantine_counts')
    .select(['status', 'n'])
    .where('scope', '=', 'global')
    .where('scope_id', '=', '*')
    .execute();
  return Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [r.status, Number(r.n)]));
}

export async function domainCounters(t: TestApp, domain: string): Promise<Record<string, number>> {
  const rows = await t.db
    .selectFrom('quarantine_counts')
    .select(['status', 'n'])
    .where('scope', '=', 'domain')
    .where('scope_id', '=', domain)
    .execute();
  return Object.fromEntries(rows.filter((r) => Number(r.n) !== 0).map((r) => [r.status, Number(r.n)]));
}

/** [e-mail, role, domain] of a user the suite signs in. */
export type SuiteUser = [email: string, role: 'admin' | 'domain_admin' | 'user', domain: string | undefined];

export interface QuarantineSuite {
  t: TestApp;
  /** Where releases are delivered. */
  sink: Sink;
  /** Access token and user id by e-mail. */
  tokens: Record<string, string>;
  userIds: Record<string, string>;
  close(): Promise<void>;
}

/** The quarantine suites' set-up: an app with the ingest token, an SMTP sink, these users signed in. */
export async function startQuarantineSuite(
  users: SuiteUser[],
  overrides: Record<string, string> = {},
): Promise<QuarantineSuite> {
  const sink = await startSink();
  const t = await createTestApp({ QC_INGEST_TOKEN: INGEST_TOKEN, QC_SMTP_URL: sink.url, ...overrides });
  const tokens: Record<string, string> = {};
  const userIds: Record<string, string> = {};
  for (const [email, role, domain] of users) {
    userIds[email] = (await t.createUser({ email, role, domain })).id;
    tokens[email] = (await t.login(email)).access;
  }
  return {
    t,
    sink,
    tokens,
    userIds,
    async close() {
      await t.close();
      await sink.close();
    },
  };
}
