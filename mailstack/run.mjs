#!/usr/bin/env node
// Starts Redis, Rspamd and Haraka on 127.0.0.1, wired to a running Quarantine Console, and keeps
// them in the foreground until Ctrl-C (SIGINT) or SIGTERM, which stops them all.
//
//   QC_INGEST_TOKEN=<the console's token> npm run node -- mailstack/run.mjs
//
// Environment (see README.md):
//   QC_API_URL               console base URL (default http://127.0.0.1:8080)
//   QC_INGEST_TOKEN          the console's service token (required)
//   QC_RSPAMD_MAPS_TOKEN     the console's maps secret: Rspamd fetches its rules (unset: rules off)
//   QC_MAILSTACK_GREYLIST_WINDOW  seconds a greylisted sender waits before its retry passes (default 300)
//   QC_MAILSTACK_SMTP_PORT   Haraka's port on 127.0.0.1 (default 2525)
//   QC_MAILSTACK_NEXT_HOP    host:port that clean mail goes to (default: a built-in sink)
//   QC_MAILSTACK_SINK_PORT   the built-in sink's port when there is no next hop (default 2526)
//   QC_MAILSTACK_RUN_DIR     state, logs and the sink's messages (default: a temp dir, removed on exit)
//   QC_MAILSTACK_DOMAINS     domains accepted until the console's list arrives (default example.com,example.org,example.net)
//   QC_MAILSTACK_RSPAMD_PASSWORD  Rspamd controller password (default: random, printed)
//   QC_MAILSTACK_RSPAMD_CONTROLLER_PORT  the controller's port (default: a free one, printed)
//   QC_MAILSTACK_VERBOSE=1   also print Rspamd's and Redis' logs (Haraka's are always printed)
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startMailStack, startSink } from './index.js';
import net from './lib/net.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const env = process.env;
const apiUrl = (env.QC_API_URL || 'http://127.0.0.1:8080').replace(/\/+$/, '');
const smtpPort = Number(env.QC_MAILSTACK_SMTP_PORT || 2525);
const verbose = env.QC_MAILSTACK_VERBOSE === '1';
const say = (line = '') => process.stdout.write(`${line}\n`);

function fail(message) {
  process.stderr.write(`mailstack: ${message}\n`);
  process.exit(1);
}

if (!env.QC_INGEST_TOKEN) {
  fail(
    'QC_INGEST_TOKEN is not set. Use the token the console runs with (its QC_INGEST_TOKEN, 24+ characters):\n' +
      '  QC_INGEST_TOKEN=... npm start            # the console\n' +
      '  QC_INGEST_TOKEN=... npm run node -- mailstack/run.mjs',
  );
}
if (!Number.isInteger(smtpPort) || smtpPort < 1 || smtpPort > 65535) fail(`bad QC_MAILSTACK_SMTP_PORT: ${smtpPort}`);
const greylistWindow = env.QC_MAILSTACK_GREYLIST_WINDOW ? Number(env.QC_MAILSTACK_GREYLIST_WINDOW) : undefined;
if (greylistWindow !== undefined && !(greylistWindow >= 1)) {
  fail(`bad QC_MAILSTACK_GREYLIST_WINDOW: ${env.QC_MAILSTACK_GREYLIST_WINDOW} (seconds, at least 1)`);
}

let sink = null;
let stack = null;
let stopping = null;
const ownRunDir = !env.QC_MAILSTACK_RUN_DIR;
const runDir = ownRunDir
  ? fs.mkdtempSync(path.join(os.tmpdir(), 'qc-mailstack-'))
  : path.resolve(env.QC_MAILSTACK_RUN_DIR);
async function shutdown(code) {
  stopping ??= (async () => {
    say('\nmailstack: stopping Haraka, Rspamd and Redis ...');
    await stack?.stop();
    await sink?.close();
    if (ownRunDir) fs.rmSync(runDir, { recursive: true, force: true });
    say('mailstack: stopped');
    process.exit(code);
  })();
  return stopping;
}
process.on('SIGINT', () => shutdown(0));
process.on('SIGTERM', () => shutdown(0));

const sinkDir = path.join(runDir, 'sink');
try {
  let nextHop = env.QC_MAILSTACK_NEXT_HOP;
  if (!nextHop) {
    const sinkPort = Number(env.QC_MAILSTACK_SINK_PORT || 2526);
    if (await net.portInUse(sinkPort)) {
      throw new Error(
        `127.0.0.1:${sinkPort} is in use: set QC_MAILSTACK_NEXT_HOP=host:port, or QC_MAILSTACK_SINK_PORT`,
      );
    }
    sink = await startSink({
      port: sinkPort,
      dir: sinkDir,
      onMessage: (m) =>
        say(`[sink] #${m.n} from <${m.envelope.mailFrom}> to ${m.envelope.rcptTo.join(', ')} (${m.raw.length} bytes)`),
    });
    nextHop = `127.0.0.1:${sink.port}`;
  }

  const health = await net.request(`${apiUrl}/api/health/`).catch((err) => ({ status: 0, body: err.message }));
  if (health.status !== 200) {
    say(`mailstack: warning: the console does not answer at ${apiUrl}/api/health/ (${health.status || health.body}).`);
    say('           Quarantined mail will be refused with 4xx until it does (start it with npm start).');
  }

  say(`mailstack: starting Redis, Rspamd and Haraka on 127.0.0.1 ...`);
  stack = await startMailStack({
    apiUrl,
    ingestToken: env.QC_INGEST_TOKEN,
    nextHop,
    smtpPort,
    runDir,
    rspamdPassword: env.QC_MAILSTACK_RSPAMD_PASSWORD || undefined,
    controllerPort: env.QC_MAILSTACK_RSPAMD_CONTROLLER_PORT
      ? Number(env.QC_MAILSTACK_RSPAMD_CONTROLLER_PORT)
      : undefined,
    domains: env.QC_MAILSTACK_DOMAINS ? env.QC_MAILSTACK_DOMAINS.split(',').map((d) => d.trim()) : undefined,
    maps: { url: `${apiUrl}/api/rspamd/maps`, token: env.QC_RSPAMD_MAPS_TOKEN || undefined },
    greylistWindow,
    install: true,
    onLog: (name, line) => {
      // The maps proxy writes errors only (an api it cannot reach).
      if (name === 'haraka' || name === 'mailstack' || name === 'maps-proxy' || verbose) say(`[${name}] ${line}`);
    },
  });
} catch (err) {
  await sink?.close();
  fail(err?.message ?? String(err)); // the run directory stays, with the daemons' logs
}

const rel = path.relative(process.cwd(), here) || '.';
say('');
say(`Quarantine Console mail stack is up (${(stack.startedInMs / 1000).toFixed(1)} s)`);
say(`  SMTP (Haraka)   127.0.0.1:${stack.smtpPort}   spam → ${apiUrl}/api/quarantine/ingest/`);
say(`  next hop        ${stack.nextHop.host}:${stack.nextHop.port}${sink ? ` (built-in sink: ${sinkDir})` : ''}`);
say(`  Rspamd          ${stack.rspamd.url} (scanner), ${stack.rspamd.controllerUrl} (controller)`);
say(`                  controller password: ${stack.rspamd.password}`);
say(
  `                  learn spam/ham from the console: QC_RSPAMD_CONTROLLER_URL=${stack.rspamd.controllerUrl} QC_RSPAMD_CONTROLLER_PASSWORD=<that password>`,
);
say(
  stack.maps.url
    ? `  console rules   Rspamd polls ${stack.maps.url}/<map> (QC_RSPAMD_MAPS_TOKEN)`
    : '  console rules   off: QC_RSPAMD_MAPS_TOKEN is unset (set it here and in the console)',
);
say(`  Redis           127.0.0.1:${stack.redis.port}`);
say(`  logs            ${stack.runDir}/logs`);
say('');
say('Send a test mail (another terminal):');
say(`  node ${rel}/send-test-mail.mjs --gtube     # spam (GTUBE): quarantined, shows up in the console`);
say(`  node ${rel}/send-test-mail.mjs             # clean: delivered to the next hop`);
if (sink) say(`Releases from the console go to the sink when it runs with QC_SMTP_URL=smtp://127.0.0.1:${sink.port}`);
say('Ctrl-C stops them all.');

const exited = await stack.unexpectedExit;
process.stderr.write(
  `mailstack: ${exited.name} exited unexpectedly (code ${exited.code}, signal ${exited.signal}); see ${stack.runDir}/logs\n`,
);
await shutdown(1);
