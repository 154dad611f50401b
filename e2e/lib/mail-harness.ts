import { startDnsServer, startMailStack } from '@qc/mailstack';
import { createWriteStream } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import { SMTPServer } from 'smtp-server';
import { SPF_PASS_DOMAIN, type MailInfo, type SinkMessageJson, type SinkMode } from './stack';

/**
 * The mail side of an e2e run, started ONCE by global-setup.ts (lib/mail.ts is what specs use):
 *
 * - an SMTP sink on 127.0.0.1 (smtp-server): the api's QC_SMTP_URL (releases) AND the mail stack's
 *   next hop (clean mail). It keeps every message (envelope + exact bytes) and can be switched to
 *   "refuse" (550 to RCPT, and to DATA if the switch came mid-transaction);
 * - the real mail stack (@qc/mailstack: Redis + Rspamd + Haraka on loopback) with that next hop and
 *   the e2e api as its ingest endpoint;
 * - a control endpoint on 127.0.0.1 for the specs (they run in worker processes): the sink's
 *   messages and mode, and stopping / starting the SAME api (same port, same data directory).
 */
const HOST = '127.0.0.1';
/** A spec that stopped the api and died before starting it again: the harness starts it itself. */
const API_SAFETY_RESTART_MS = 45_000;

export interface ApiControl {
  stop(): Promise<void>;
  start(): Promise<void>;
}

export interface MailHarness {
  /** Port of the sink, for QC_SMTP_URL (known before the api starts). */
  sinkPort: number;
  controlUrl: string;
  /** Starts the mail stack against the api (resolves with Haraka's port). */
  /** `mapsToken`: the api's QC_RSPAMD_MAPS_TOKEN, so Rspamd fetches the console's rules (issue 17). */
  /** `controller`: Rspamd's controller port and password, given to the api before the stack starts (learn). */
  startStack(opts: {
    apiUrl: string;
    ingestToken: string;
    mapsToken: string;
    controller: { port: number; password: string };
    logFile: string;
  }): Promise<MailInfo>;
  close(): Promise<void>;
}

interface StoredMessage {
  n: number;
  receivedAt: string;
  envelope: { mailFrom: string; rcptTo: string[] };
  raw: Buffer;
}

function smtpError(message: string, responseCode: number): Error {
  return Object.assign(new Error(message), { responseCode });
}

async function startSink(): Promise<{
  port: number;
  messages: StoredMessage[];
  mode: { value: SinkMode; reply: string };
  close(): Promise<void>;
}> {
  const messages: StoredMessage[] = [];
  const mode = { value: 'accept' as SinkMode, reply: '' };
  const refusal = () => smtpError(mode.reply || 'e2e sink: refused', 550);
  const server = new SMTPServer({
    name: 'sink.e2e.test',
    banner: 'Quarantine Console e2e sink',
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    size: 64 * 1024 * 1024,
    onRcptTo(_address, _session, callback) {
      callback(mode.value === 'refuse' ? refusal() : undefined);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        if (mode.value === 'refuse') return callback(refusal());
        const message: StoredMessage = {
          n: messages.length + 1,
          receivedAt: new Date().toISOString(),
          envelope: {
            mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            rcptTo: session.envelope.rcptTo.map((r) => r.address),
          },
          raw: Buffer.concat(chunks),
        };
        messages.push(message);
        callback(null, `e2e sink stored #${message.n}`);
      });
    },
  });
  server.on('error', () => {
    /* a client dropping its connection must not crash the sink */
  });
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, HOST, () => {
      server.server.removeListener('error', reject);
      resolve();
    });
  });
  return {
    port: (server.server.address() as net.AddressInfo).port,
    messages,
    mode,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Resolves once nothing accepts connections on the port (the old api really let it go). */
async function waitPortClosed(port: number, timeoutMs = 15_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await new Promise<boolean>((resolve) => {
      const socket = net.connect({ host: HOST, port });
      socket.setTimeout(1_000);
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('timeout', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    if (!open) return;
    if (Date.now() > deadline) throw new Error(`${HOST}:${port} still accepts connections after the api stopped`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function startMailHarness(api: ApiControl, apiPort: () => number): Promise<MailHarness> {
  const sink = await startSink();
  // SPF for real: a whitelist lifts a quarantine only for an authenticated sender (issue 29).
  const dns = await startDnsServer({ [SPF_PASS_DOMAIN]: ['v=spf1 ip4:127.0.0.0/8 -all'] });
  let stack: Awaited<ReturnType<typeof startMailStack>> | undefined;
  // One api operation at a time (a stop and a start never interleave).
  let apiOp: Promise<void> = Promise.resolve();
  let apiDown = false;
  let safetyTimer: NodeJS.Timeout | undefined;
  const queueApi = (op: () => Promise<void>) => {
    const next = apiOp.then(op);
    apiOp = next.catch(() => undefined);
    return next;
  };
  const startApiNow = () =>
    queueApi(async () => {
      clearTimeout(safetyTimer);
      if (!apiDown) return;
      await api.start();
      apiDown = false;
    });
  const stopApiNow = () =>
    queueApi(async () => {
      if (apiDown) return;
      await api.stop();
      apiDown = true;
      await waitPortClosed(apiPort());
      clearTimeout(safetyTimer);
      safetyTimer = setTimeout(() => void startApiNow().catch(() => undefined), API_SAFETY_RESTART_MS);
    });

  const control = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = (status: number, body?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(body === undefined ? '' : JSON.stringify(body));
      };
      const route = `${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`;
      const run = async () => {
        switch (route) {
          case 'GET /sink/messages':
            return reply(
              200,
              sink.messages.map(
                (m): SinkMessageJson => ({ ...m, raw: m.raw.toString('base64') }) satisfies SinkMessageJson,
              ),
            );
          case 'PUT /sink/mode': {
            const body = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}') as {
              mode?: SinkMode;
              reply?: string;
            };
            if (body.mode !== 'accept' && body.mode !== 'refuse') return reply(400, { detail: 'mode: accept|refuse' });
            sink.mode.value = body.mode;
            sink.mode.reply = body.reply ?? '';
            return reply(204);
          }
          case 'POST /api/stop':
            await stopApiNow();
            return reply(204);
          case 'POST /api/start':
            await startApiNow();
            return reply(204);
          default:
            return reply(404, { detail: `no route ${route}` });
        }
      };
      run().catch((e: Error) => reply(500, { detail: e.message }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    control.once('error', reject);
    control.listen(0, HOST, () => resolve());
  });
  const controlUrl = `http://${HOST}:${(control.address() as net.AddressInfo).port}`;

  return {
    sinkPort: sink.port,
    controlUrl,
    async startStack({ apiUrl, ingestToken, mapsToken, controller, logFile }) {
      const log = createWriteStream(logFile, { flags: 'a' });
      stack = await startMailStack({
        apiUrl,
        ingestToken,
        maps: { token: mapsToken },
        controllerPort: controller.port,
        rspamdPassword: controller.password,
        nextHop: `${HOST}:${sink.port}`,
        // Haraka takes its accepted domains from the console: the admin spec deletes one and waits
        // for the refusal, so the list is polled every second (10 s by default).
        domainsRefresh: 1,
        dns: { port: dns.port },
        onLog: (name, line) => log.write(`[${name}] ${line}\n`),
      });
      return {
        smtpPort: stack.smtpPort,
        sinkPort: sink.port,
        controlUrl,
        ingestToken,
        log: logFile,
        startedInMs: stack.startedInMs,
      };
    },
    async close() {
      clearTimeout(safetyTimer);
      await stack?.stop().catch(() => undefined);
      await sink.close();
      await dns.close();
      control.closeAllConnections();
      await new Promise<void>((resolve) => control.close(() => resolve()));
    },
  };
}
