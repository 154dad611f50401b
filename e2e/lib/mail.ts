import { randomBytes, randomUUID } from 'node:crypto';
import nodemailer from 'nodemailer';
import { runCli } from './api-process';
import { signInApi } from './seed';
import { stack, type MailInfo, type SeedUser, type SinkMode } from './stack';

/**
 * What the mail-* specs use of the run's mail side (started by global-setup.ts, lib/mail-harness.ts):
 * SMTP into the real Haraka, the sink's messages and mode, stopping / starting the api, the ingest
 * endpoint, and users of their own (example.com: no seeded domain admin sees their mail).
 */

/** GTUBE: Rspamd's test string, scored 15 and answered `reject`, so the qconsole plugin quarantines. */
export const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

export function mailInfo(): MailInfo {
  const { mail, mailError } = stack();
  if (!mail) throw new Error(`the mail stack did not start in global setup: ${mailError ?? 'unknown error'}`);
  return mail;
}

/** A unique tag for subjects and Message-IDs of one test. */
export const tag = () => `${Date.now().toString(36)}${randomBytes(3).toString('hex')}`;

/** A FRESH user of `domain` (default example.com), created with the user CLI. */
export async function createMailUser(label: string, domain = 'example.com'): Promise<SeedUser> {
  const t = tag();
  const user: SeedUser = {
    email: `e2e-${label}-${t}@${domain}`,
    password: `E2e-${label}-pass-${t}`,
    role: 'user',
    domain,
  };
  await runCli(
    ['user:create', '--email', user.email, '--password', user.password, '--role', 'user', '--domain', domain],
    stack().cliEnv,
  );
  return user;
}

/**
 * A message as a sender writes it: CRLF, a dot-stuffed line on the wire, 8-bit UTF-8 text. `spam`:
 * with GTUBE; `score`: the loopback stack's test score header (about 7 for add-header, 11 for a
 * quarantine; mailstack/index.js), which, unlike GTUBE, leaves Rspamd's checks running.
 */
export function plainMessage(o: {
  from: string;
  to: string;
  subject: string;
  messageId: string;
  spam?: boolean;
  score?: 'add-header' | 'quarantine';
}) {
  return [
    `From: Sender <${o.from}>`,
    `To: <${o.to}>`,
    `Subject: ${o.subject}`,
    `Message-ID: <${o.messageId}>`,
    'Date: Sun, 22 Nov 2026 08:00:00 +0000',
    'MIME-Version: 1.0',
    'Content-Type: text/plain; charset=utf-8',
    'Content-Transfer-Encoding: 8bit',
    ...(o.score ? [`X-Loopback-Score: ${o.score}`] : []),
    '',
    'Hello, here is the quarterly report you asked for. Best regards.',
    '.this line starts with a dot (dot-stuffed on the wire, not in the message)',
    'Grüße, Zoë',
    ...(o.spam ? [GTUBE] : []),
    '',
  ].join('\r\n');
}

export interface SmtpAnswer {
  code: number;
  response: string;
  /** Haraka's transaction uuid, from its answer "… (<uuid>.<n>)". */
  uuid: string | null;
}

const uuidOf = (response: unknown) => /\(([0-9A-F-]{36}\.\d+)\)\s*$/i.exec(String(response ?? ''))?.[1] ?? null;

/** Sends `raw` as is over SMTP to Haraka; resolves with its final answer (never throws). */
export async function sendToHaraka(
  envelope: { from: string; to: string[] },
  raw: string | Buffer,
): Promise<SmtpAnswer> {
  const transport = nodemailer.createTransport({
    host: '127.0.0.1',
    port: mailInfo().smtpPort,
    secure: false,
    ignoreTLS: true,
    name: 'client.e2e.test',
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  try {
    const info = await transport.sendMail({ envelope, raw });
    return { code: Number(info.response.slice(0, 3)), response: info.response, uuid: uuidOf(info.response) };
  } catch (e) {
    const err = e as { responseCode?: number; response?: string; message: string };
    return { code: err.responseCode ?? 0, response: String(err.response ?? err.message), uuid: uuidOf(err.response) };
  } finally {
    transport.close();
  }
}

export interface SinkMessage {
  n: number;
  receivedAt: string;
  envelope: { mailFrom: string; rcptTo: string[] };
  raw: Buffer;
}

async function control(method: string, path: string, body?: unknown): Promise<Response> {
  const res = await fetch(`${mailInfo().controlUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path} (e2e mail control) answered ${res.status}: ${await res.text()}`);
  return res;
}

/** Every message the sink took so far (in order); `containing` keeps those whose bytes contain it. */
export async function sinkMessages(containing?: string): Promise<SinkMessage[]> {
  const list = (await (await control('GET', '/sink/messages')).json()) as (Omit<SinkMessage, 'raw'> & {
    raw: string;
  })[];
  return list
    .map((m) => ({ ...m, raw: Buffer.from(m.raw, 'base64') }))
    .filter((m) => containing === undefined || m.raw.includes(containing));
}

/** accept: 250 to everything; refuse: 550 `reply` to RCPT (and to DATA). */
export async function setSinkMode(mode: SinkMode, reply?: string): Promise<void> {
  await control('PUT', '/sink/mode', { mode, reply });
}

/** Stops the e2e api (SIGTERM to its process group) and waits until its port is closed. */
export async function stopApi(): Promise<void> {
  await control('POST', '/api/stop');
}

/** Starts the SAME api again (same port, same data directory) and waits for /api/health/. */
export async function startApi(): Promise<void> {
  await control('POST', '/api/start');
}

/**
 * Splits what Haraka handed on: its leading Received: header, the X-Rspamd-* headers the rspamd
 * plugin added, and the rest, which must be the sender's exact bytes.
 */
export function splitHarakaHeaders(buf: Buffer): { received: string | null; rspamd: string[]; original: Buffer } {
  const text = buf.toString('latin1'); // 1 byte = 1 char: offsets stay byte offsets
  const eoh = text.indexOf('\r\n\r\n');
  const lines = text.slice(0, eoh + 2).match(/[^\r\n]*\r\n/g) ?? [];
  const fields: string[] = [];
  for (const line of lines) {
    if (/^[ \t]/.test(line) && fields.length) fields[fields.length - 1] += line;
    else fields.push(line);
  }
  const received = fields[0] && /^Received:/i.test(fields[0]) ? fields.shift()! : null;
  return {
    received,
    rspamd: fields.filter((f) => /^X-Rspamd-/i.test(f)),
    original: Buffer.from(fields.filter((f) => !/^X-Rspamd-/i.test(f)).join('') + text.slice(eoh + 2), 'latin1'),
  };
}

export interface IngestOptions {
  from: string;
  to: string[];
  uuid?: string;
  score?: number;
  /** Rspamd's action (default reject). */
  action?: string;
  /** Extra keys of `meta`, as JSON text spliced in (e.g. a "__proto__" key). */
  metaExtra?: string;
}

/**
 * Stores a quarantined message the way Haraka's plugin does (POST /api/quarantine/ingest/ with the
 * service token): faster than SMTP for a corpus. Resolves with the message id.
 */
export async function ingestDirect(raw: string | Buffer, o: IngestOptions): Promise<string> {
  const { baseURL } = stack();
  const meta = JSON.stringify({
    uuid: o.uuid ?? randomUUID().toUpperCase(),
    mail_from: o.from,
    rcpt_to: o.to,
    remote_ip: '192.0.2.66',
    helo: 'hostile.example.net',
    received_at: new Date().toISOString(),
    rspamd: {
      action: o.action ?? 'reject',
      score: o.score ?? 15,
      required_score: 15,
      symbols: { GTUBE: { score: 15, description: 'GTUBE', options: [], group: 'misc' } },
    },
  });
  const form = new FormData();
  form.append('meta', o.metaExtra ? `${meta.slice(0, -1)},${o.metaExtra}}` : meta);
  const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
  form.append('message', new Blob([new Uint8Array(bytes)], { type: 'message/rfc822' }), 'message.eml');
  const res = await fetch(`${baseURL}/api/quarantine/ingest/`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${mailInfo().ingestToken}` },
    body: form,
  });
  if (res.status !== 201) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}

/**
 * Soft-deletes (as the seeded admin, through the api) every message still held for `recipient`.
 * Mail of the mail-* specs would otherwise add to the admin's pending count, which later specs
 * (session.spec.ts) compare with the seeded one.
 */
export async function discardHeldMail(recipient: string): Promise<number> {
  const { baseURL, users } = stack();
  const access = await signInApi(baseURL, users.admin.email, users.admin.password);
  const headers = { Authorization: `Bearer ${access}` };
  let deleted = 0;
  for (let round = 0; round < 20; round++) {
    const res = await fetch(
      `${baseURL}/api/quarantine/?status=pending&page_size=50&recipient=${encodeURIComponent(recipient)}`,
      { headers },
    );
    if (!res.ok) throw new Error(`GET /api/quarantine/ answered ${res.status}: ${await res.text()}`);
    const { results } = (await res.json()) as { results: { id: string }[] };
    if (!results.length) return deleted;
    for (const { id } of results) {
      const del = await fetch(`${baseURL}/api/quarantine/${encodeURIComponent(id)}/`, { method: 'DELETE', headers });
      if (del.status !== 204) throw new Error(`DELETE /api/quarantine/${id}/ answered ${del.status}`);
      deleted++;
    }
  }
  throw new Error(`mail for ${recipient} is still held after 20 rounds of deletion`);
}
