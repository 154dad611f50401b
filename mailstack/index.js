'use strict';
// The Quarantine Console mail stack on 127.0.0.1: Redis, Rspamd (Debian package, foreground)
// and Haraka 3.3.4 with haraka-plugin-rspamd + haraka-plugin-qconsole, wired to a console api.
//
//   const { startMailStack } = require('@qc/mailstack');
//   const stack = await startMailStack({ apiUrl, ingestToken, nextHop: '127.0.0.1:2526' });
//   // ... SMTP to 127.0.0.1:stack.smtpPort ...
//   await stack.stop();
//
// Every daemon gets its own free loopback port and state under a fresh run directory, so several
// stacks (a dev stack, jest, Playwright) can run side by side. See README.md.

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');

const { startDnsServer } = require('./lib/dns');
const { setIni } = require('./lib/ini');
const { startDaemon, waitReady } = require('./lib/daemon');
const { writeMapsProxy } = require('./lib/maps-proxy');
const { HOST, freePort, portInUse, redisPing, request, smtpGreeting } = require('./lib/net');
const { startSink } = require('./lib/sink');

const HARAKA_CONFIG = path.join(__dirname, 'haraka', 'config');
const RSPAMD_LOCAL = path.join(__dirname, 'rspamd', 'local.d');
const RSPAMD_LOOPBACK = path.join(__dirname, 'rspamd', 'loopback');
const RSPAMD_HERMETIC = path.join(__dirname, 'rspamd', 'hermetic');
const APT_PACKAGES = ['rspamd', 'redis-server', 'nginx'];
const RSPAMD_USER = '_rspamd';
const GTUBE = 'XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X';

function which(cmd) {
  const dirs = [...(process.env.PATH || '').split(':'), '/usr/local/sbin', '/usr/sbin', '/sbin', '/usr/bin'];
  for (const dir of dirs) {
    if (!dir) continue;
    const p = path.join(dir, cmd);
    try {
      fs.accessSync(p, fs.constants.X_OK);
      if (fs.statSync(p).isFile()) return p;
    } catch {
      /* not here */
    }
  }
  return null;
}

function findBinaries() {
  return {
    redis: which('redis-server'),
    rspamd: which('rspamd'),
    rspamadm: which('rspamadm'),
    nginx: which('nginx'),
  };
}

/**
 * The Debian binaries the stack runs. With `install`, missing ones are installed with apt-get
 * (root only); without it, a missing binary is an error that says how to install it.
 */
function ensureBinaries({ install = false, log = console.log } = {}) {
  let bins = findBinaries();
  const missing = () => Object.entries(bins).filter(([, p]) => !p);
  if (!missing().length) return bins;
  const names = missing()
    .map(([k]) => (k === 'redis' ? 'redis-server' : k))
    .join(', ');
  const how = `apt-get update && DEBIAN_FRONTEND=noninteractive apt-get install -y ${APT_PACKAGES.join(' ')}`;
  if (!install) {
    throw new Error(
      `The mail stack needs Rspamd, Redis and nginx from Debian, and ${names} ${missing().length > 1 ? 'are' : 'is'} not installed.\n` +
        `Install them (as root): ${how}\n(npm test installs them; npm run node -- mailstack/run.mjs does it when run as root.)`,
    );
  }
  if (process.getuid?.() !== 0) throw new Error(`${names} missing and not root: run as root: ${how}`);
  log(`installing ${APT_PACKAGES.join(' ')} with apt-get ...`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', '--no-install-recommends', ...APT_PACKAGES],
  ]) {
    const r = spawnSync('apt-get', args, { env, stdio: ['ignore', 'inherit', 'inherit'] });
    if (r.status !== 0) throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status})`);
  }
  bins = findBinaries();
  if (missing().length) throw new Error(`still missing after apt-get: ${missing().map(([k]) => k)}`);
  return bins;
}

function parseHostPort(value, what) {
  if (value && typeof value === 'object') return { host: String(value.host), port: Number(value.port) };
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(String(value ?? '').trim());
  if (!m) throw new Error(`${what} must be host:port, got "${value}"`);
  return { host: m[1], port: Number(m[2]) };
}

function copyDir(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (entry.isFile()) fs.copyFileSync(path.join(from, entry.name), path.join(to, entry.name));
  }
}

function editFile(file, edit) {
  fs.writeFileSync(file, edit(fs.readFileSync(file, 'utf8')));
}

// rspamd drops to _rspamd: every directory above its files must be searchable by "other".
function checkTraversable(dir) {
  for (let d = dir; ; d = path.dirname(d)) {
    const mode = fs.statSync(d).mode;
    if (!(mode & 0o001)) {
      throw new Error(
        `${d} is not searchable by ${RSPAMD_USER} (mode ${(mode & 0o777).toString(8)}): pick another runDir`,
      );
    }
    if (path.dirname(d) === d) return;
  }
}

function rspamdIds() {
  const uid = Number(execFileSync('id', ['-u', RSPAMD_USER]).toString().trim());
  const gid = Number(execFileSync('id', ['-g', RSPAMD_USER]).toString().trim());
  return { uid, gid };
}

function packageDir(name) {
  return path.dirname(require.resolve(`${name}/package.json`, { paths: [__dirname] }));
}

// override.d of the loopback stack: hermetic and fast to start. (Written from here, not shipped as
// .inc files: those would be formatted as HTML by the repository's prettier.)
const rspamdOptions = (mapWatchSeconds, dnsPort) => `# Loopback stack (tests, local runs): hermetic and fast to start.
# DNS only to 127.0.0.1 (port 53, where nothing listens, unless a test runs its own server there):
# lookups fail at once or get the test's answers, never leave the host.
dns {
  nameserver = ["127.0.0.1:${dnsPort ?? 53}"];
  timeout = 0.5s;
  sockets = 4;
  retransmits = 1;
}
# Poll HTTP/file maps often (default 5min): a map change shows in ~3-6 s at 1 s.
map_watch_interval = ${mapWatchSeconds}s;
# The C filters without dkim and fuzzy_check (both network).
filters = "chartable,regexp";
# A tiny public-suffix list: a cold start compiles it in ~1-2 s instead of 11-29 s for the full
# list. Test-only: URL extraction works for the suffixes listed there.
url_tld = "$LOCAL_CONFDIR/tld-small.dat";
`;
// "silent": the main process at info (start, config, added maps), the workers at notice (each
// message's verdict, warnings, errors): no line per map poll (issue 29). As in compose.
const RSPAMD_LOGGING = 'type = "console";\nlevel = "silent";\nsystemd = false;\ncolor = false;\n';
// Rspamd keeps the HTTP maps it fetched (and their compiled regexes) in maps_cache_dir, /var/lib/rspamd
// by default whatever DBDIR says: keep them in this run's DBDIR, so no run starts with another's rules.
// No symbols cache: Rspamd 3.4 (Debian bookworm) cannot save it (it opens symbols.cache.new without
// O_CREAT, and drops the file when it exists: rspamd/rspamd#4337), so every start and stop logged an
// error and rebuilt it anyway. Without the file Rspamd orders its symbols from the config, as it did.
const RSPAMD_CACHE_DIRS = 'maps_cache_dir = "${DBDIR}";\nhs_cache_dir = "${DBDIR}";\ncache_file = null;\n';

/**
 * Rspamd fetches some maps from maps.rspamd.com at every start (Debian's modules.d: multimap's
 * freemail/disposable rules, mime_types, mid, rbl, whitelist, phishing). Nothing it loads may come from
 * outside the machine: mailstack/rspamd/hermetic holds the override.d files that point each at a local
 * file (Debian's own copy where it ships one, else an empty map). docker-compose uses the same files
 * (docker/rspamd/entrypoint.sh); mailstack/test/hermetic.test.js checks Rspamd's whole configuration.
 */
// Test-only scores (loopback stack): a message with `X-Loopback-Score: add-header` scores about 7
// (Rspamd's "add header", between the add_header and quarantine thresholds), `quarantine` about 11.
const LOOPBACK_SCORES = { 'add-header': 7, quarantine: 11 };

function writeHermeticOverrides(confDir) {
  copyDir(RSPAMD_HERMETIC, path.join(confDir, 'hermetic'));
  for (const name of fs.readdirSync(RSPAMD_HERMETIC).filter((f) => f.endsWith('.conf')))
    fs.copyFileSync(path.join(RSPAMD_HERMETIC, name), path.join(confDir, 'override.d', name));
  const rules = [];
  for (const [value, score] of Object.entries(LOOPBACK_SCORES)) {
    const symbol = `LOOPBACK_SCORE_${value.replace('-', '_').toUpperCase()}`;
    const map = path.join(confDir, `loopback-score-${value}.map`);
    fs.writeFileSync(map, `${value}\n`);
    rules.push(
      `${symbol} {\n  type = "header";\n  header = "X-Loopback-Score";\n  map = "${map}";\n  score = ${score};\n}\n`,
    );
  }
  fs.appendFileSync(
    path.join(confDir, 'override.d', 'multimap.conf'),
    `# loopback stack: test scores\n${rules.join('')}`,
  );
}

/** The map names local.d asks ${QC_MAPS_URL} for (multimap.conf and rspamd.lua). */
function qconsoleMapNames() {
  const names = new Set();
  const multimap = fs.readFileSync(path.join(RSPAMD_LOCAL, 'multimap.conf'), 'utf8');
  for (const m of multimap.matchAll(/\$\{QC_MAPS_URL\}\/([A-Za-z0-9._-]+)"/g)) names.add(m[1]);
  const lua = fs.readFileSync(path.join(RSPAMD_LOCAL, 'rspamd.lua'), 'utf8');
  for (const m of lua.matchAll(/base \.\. '\/([A-Za-z0-9._-]+)'/g)) names.add(m[1]);
  return [...names];
}

/**
 * QC_MAPS_URL for rspamd's command line without a maps secret: a local folder of empty maps (the
 * console's rules are then off, and nothing fails).
 */
function emptyMapsUrl(confDir) {
  const dir = path.join(confDir, 'qc-maps-off');
  fs.mkdirSync(dir, { recursive: true });
  for (const name of qconsoleMapNames()) {
    const body = name.endsWith('.json')
      ? '{"qconsole": "off", "version": 0, "filters": [], "rules": [], "entries": []}\n'
      : "# qconsole: no maps secret given, the console's rules are off\n";
    fs.writeFileSync(path.join(dir, name), body);
  }
  return `file://${dir}`;
}

/** Rspamd's environment: the maps secret (a dev shell's QC_RSPAMD_MAPS_TOKEN) is the proxy's alone. */
function withoutMapsSecret(env) {
  const rest = { ...env };
  delete rest.QC_RSPAMD_MAPS_TOKEN;
  return rest;
}

function writeRspamdConfig(
  confDir,
  { normalPort, controllerPort, redisPort, passwordHash, mapWatchSeconds = 1, dnsPort = null },
) {
  copyDir(RSPAMD_LOCAL, path.join(confDir, 'local.d'));
  copyDir(path.join(RSPAMD_LOOPBACK, 'local.d'), path.join(confDir, 'local.d'));
  fs.mkdirSync(path.join(confDir, 'override.d'), { recursive: true });
  fs.copyFileSync(path.join(RSPAMD_LOOPBACK, 'tld-small.dat'), path.join(confDir, 'tld-small.dat'));
  const o = (name, text) => fs.writeFileSync(path.join(confDir, 'override.d', name), text);
  o('options.inc', rspamdOptions(mapWatchSeconds, dnsPort) + RSPAMD_CACHE_DIRS);
  o('logging.inc', RSPAMD_LOGGING);
  o('worker-normal.inc', `bind_socket = "${HOST}:${normalPort}";\ncount = 1;\n`);
  o(
    'worker-controller.inc',
    `bind_socket = "${HOST}:${controllerPort}";\ncount = 1;\n` +
      `password = "${passwordHash}";\nenable_password = "${passwordHash}";\n` +
      '# Debian trusts 127.0.0.1 without a password; trust only a TEST-NET address so it is always asked\n' +
      'secure_ip = "192.0.2.254";\n',
  );
  o('worker-proxy.inc', '# not used: Haraka talks to the normal worker\ncount = -1;\n');
  o('redis.conf', `servers = "${HOST}:${redisPort}";\n`);
  writeHermeticOverrides(confDir);
  if (dnsPort) {
    // A test's DNS server answers: SPF can be checked for real, also for mail from 127.0.0.1.
    o(
      'spf.conf',
      '# loopback stack with a test DNS server\nenabled = true;\ncheck_local = true;\ncheck_authed = true;\n',
    );
  }
}

/**
 * Writes a Haraka directory (config/, node_modules/ with the two plugins linked, queue/, plugins/)
 * from mailstack/haraka/config with the given addresses. Also usable for a container: e.g.
 * writeHarakaDir('/haraka/app', { listen: '[::0]:25', rspamd: { host: 'rspamd', port: 11333 }, nextHop: 'mx:25' }).
 * `domains` go to host_list: only the fallback until the plugin has the console's list once.
 * `domainsRefresh`: seconds between the plugin's polls of that list ([domains] refresh).
 * `greylistWindow`: seconds before a greylisted sender's retry is accepted ([greylist] window).
 * `logsRetryMax`: seconds at most between two attempts to ship spooled log lines ([logs] retry_max).
 */
function writeHarakaDir(
  harakaDir,
  { listen, rspamd, nextHop, domains, domainsRefresh, greylistWindow, logsRetryMax, linkPlugins = true },
) {
  const config = path.join(harakaDir, 'config');
  const hop = parseHostPort(nextHop, 'nextHop');
  copyDir(HARAKA_CONFIG, config);
  editFile(path.join(config, 'smtp.ini'), (t) => setIni(t, 'main', 'listen', listen));
  editFile(path.join(config, 'rspamd.ini'), (t) =>
    setIni(setIni(t, 'main', 'host', rspamd.host), 'main', 'port', String(rspamd.port)),
  );
  editFile(path.join(config, 'smtp_forward.ini'), (t) =>
    setIni(setIni(t, 'main', 'host', hop.host), 'main', 'port', String(hop.port)),
  );
  if (domains?.length) fs.writeFileSync(path.join(config, 'host_list'), `${domains.join('\n')}\n`);
  if (domainsRefresh !== undefined) {
    if (!(Number(domainsRefresh) >= 0.1))
      throw new Error(`domainsRefresh must be seconds (>= 0.1), got ${domainsRefresh}`);
    editFile(path.join(config, 'qconsole.ini'), (t) => setIni(t, 'domains', 'refresh', String(Number(domainsRefresh))));
  }
  if (greylistWindow !== undefined) {
    if (!(Number(greylistWindow) >= 1)) throw new Error(`greylistWindow must be seconds (>= 1), got ${greylistWindow}`);
    editFile(path.join(config, 'qconsole.ini'), (t) => setIni(t, 'greylist', 'window', String(Number(greylistWindow))));
  }
  if (logsRetryMax !== undefined) {
    if (!(Number(logsRetryMax) >= 0.1)) throw new Error(`logsRetryMax must be seconds (>= 0.1), got ${logsRetryMax}`);
    editFile(path.join(config, 'qconsole.ini'), (t) => setIni(t, 'logs', 'retry_max', String(Number(logsRetryMax))));
  }
  fs.mkdirSync(path.join(harakaDir, 'queue'), { recursive: true });
  fs.mkdirSync(path.join(harakaDir, 'plugins'), { recursive: true });
  if (!linkPlugins) return;
  // Haraka finds a packaged plugin in <its directory>/node_modules/haraka-plugin-<name>.
  const modules = path.join(harakaDir, 'node_modules');
  fs.mkdirSync(modules, { recursive: true });
  for (const name of ['haraka-plugin-qconsole', 'haraka-plugin-rspamd']) {
    const link = path.join(modules, name);
    fs.rmSync(link, { force: true, recursive: true });
    fs.symlinkSync(packageDir(name), link, 'dir');
  }
}

async function rspamdCanary(url) {
  const res = await request(`${url}/checkv2`, {
    method: 'POST',
    headers: { IP: HOST, Hostname: 'localhost', From: 'canary@example.net', 'Content-Type': 'message/rfc822' },
    body: `From: canary@example.net\r\nTo: canary@example.com\r\nSubject: canary\r\n\r\n${GTUBE}\r\n`,
  });
  return res.status === 200 && JSON.parse(res.body).action === 'reject';
}

/**
 * Starts Redis, Rspamd (with its maps proxy when there is a maps secret) and Haraka on 127.0.0.1, and
 * resolves once all of them answer.
 *
 * @param {object} [opts]
 * @param {string} [opts.apiUrl]        console base URL (default QC_API_URL or http://127.0.0.1:8080)
 * @param {string} [opts.ingestToken]   the console's QC_INGEST_TOKEN (default: that variable)
 * @param {string|{host:string,port:number}} opts.nextHop  where clean mail goes (host:port)
 * @param {number} [opts.smtpPort=0]    Haraka's port on 127.0.0.1 (0: a free one)
 * @param {string} [opts.runDir]        state + logs (default: a new temp dir, removed by stop())
 * @param {boolean} [opts.keepRunDir]   keep the temp run dir after stop() (logs)
 * @param {string} [opts.rspamdPassword] controller password (default: random)
 * @param {number} [opts.controllerPort] the controller's port on 127.0.0.1 (default: a free one), for
 *   a console started before the stack (QC_RSPAMD_CONTROLLER_URL)
 * @param {string[]} [opts.domains]     host_list: the domains Haraka accepts until the console's list
 *                                      arrives (default example.com/.org/.net)
 * @param {number} [opts.domainsRefresh=10] seconds between the plugin's polls of the console's domains
 * @param {{url?: string, token?: string}|false} [opts.maps] where Rspamd fetches the console's rules
 *   (default url <apiUrl>/api/rspamd/maps, token QC_RSPAMD_MAPS_TOKEN), through the maps proxy (nginx
 *   on a free loopback port, rspamd/maps-proxy) that adds the token; false or no token: local
 *   empty maps (the console's rules are off)
 * @param {number} [opts.mapWatchInterval=1] Rspamd's map_watch_interval, seconds (compose uses 5)
 * @param {number} [opts.greylistWindow] seconds a greylisted sender must wait before its retry is
 *   accepted (haraka-plugin-qconsole [greylist] window; default 300)
 * @param {number} [opts.logsRetryMax] seconds at most between two attempts to ship Haraka's spooled log
 *   lines while the api is down (haraka-plugin-qconsole [logs] retry_max; default 30)
 * @param {{port: number}} [opts.dns] a DNS server on 127.0.0.1:<port> (a test's): Rspamd resolves with it
 *   and checks SPF (also for mail from 127.0.0.1); default: no DNS (127.0.0.1:53) and no SPF
 * @param {boolean} [opts.install=false] apt-get install rspamd/redis-server when missing (root)
 * @param {(name: string, line: string) => void} [opts.onLog] every log line of the daemons
 * @param {number} [opts.readyTimeoutMs=90000]
 */
async function startMailStack(opts = {}) {
  const t0 = Date.now();
  const apiUrl = opts.apiUrl || process.env.QC_API_URL || 'http://127.0.0.1:8080';
  const ingestToken = opts.ingestToken ?? process.env.QC_INGEST_TOKEN ?? '';
  if (!ingestToken) throw new Error('startMailStack: ingestToken (QC_INGEST_TOKEN) is required');
  if (!opts.nextHop) throw new Error('startMailStack: nextHop (host:port of the next SMTP hop) is required');
  const nextHop = parseHostPort(opts.nextHop, 'nextHop');
  const readyTimeoutMs = opts.readyTimeoutMs ?? 90000;
  const bins = ensureBinaries({ install: opts.install, log: (l) => opts.onLog?.('mailstack', l) });
  const root = process.getuid?.() === 0;

  const ownRunDir = !opts.runDir;
  const runDir = opts.runDir
    ? path.resolve(opts.runDir)
    : fs.mkdtempSync(path.join(fs.realpathSync(os.tmpdir()), 'qc-mailstack-'));
  fs.mkdirSync(runDir, { recursive: true });
  fs.chmodSync(runDir, 0o755);
  if (root) checkTraversable(runDir);
  const dir = (...p) => {
    const d = path.join(runDir, ...p);
    fs.mkdirSync(d, { recursive: true });
    return d;
  };
  const logsDir = dir('logs');
  const logs = {
    redis: path.join(logsDir, 'redis.log'),
    rspamd: path.join(logsDir, 'rspamd.log'),
    haraka: path.join(logsDir, 'haraka.log'),
    mapsProxy: path.join(logsDir, 'maps-proxy.log'),
  };

  const smtpPort = opts.smtpPort || (await freePort());
  if (await portInUse(smtpPort)) throw new Error(`port ${HOST}:${smtpPort} is already in use (SMTP)`);
  const redisPort = await freePort();
  const normalPort = await freePort();
  const controllerPort = opts.controllerPort || (await freePort());
  const rspamdPassword = opts.rspamdPassword || crypto.randomBytes(12).toString('hex');
  const maps =
    opts.maps === false
      ? { url: null, token: null }
      : {
          url: (opts.maps?.url || `${apiUrl.replace(/\/+$/, '')}/api/rspamd/maps`).replace(/\/+$/, ''),
          token: opts.maps?.token ?? process.env.QC_RSPAMD_MAPS_TOKEN ?? null,
        };
  const passwordHash = execFileSync(bins.rspamadm, ['pw', '-p', rspamdPassword]).toString().trim();

  // Redis: no persistence, loopback only.
  const redisDir = dir('redis');
  // Rspamd: Debian's /etc/rspamd/rspamd.conf with our LOCAL_CONFDIR; state dirs owned by _rspamd.
  const rspamdConf = dir('rspamd', 'conf');
  const mapWatchSeconds = opts.mapWatchInterval ?? 1;
  if (!(Number(mapWatchSeconds) > 0)) throw new Error(`mapWatchInterval must be seconds, got ${mapWatchSeconds}`);
  const dnsPort = opts.dns ? Number(opts.dns.port) : null;
  if (opts.dns && !(Number.isInteger(dnsPort) && dnsPort > 0 && dnsPort < 65536))
    throw new Error(`dns.port must be a port number, got ${opts.dns.port}`);
  writeRspamdConfig(rspamdConf, { normalPort, controllerPort, redisPort, passwordHash, mapWatchSeconds, dnsPort });
  // With a secret, Rspamd asks the maps proxy, which adds it: it is in no URL Rspamd logs.
  const proxy = maps.token
    ? await writeMapsProxy(path.join(runDir, 'maps-proxy'), {
        port: await freePort(),
        url: maps.url,
        token: maps.token,
      })
    : null;
  const qcMapsUrl = proxy ? proxy.rspamdUrl : emptyMapsUrl(rspamdConf);
  const rspamdState = ['db', 'run', 'log'].map((d) => dir('rspamd', d));
  if (root) {
    const { uid, gid } = rspamdIds();
    for (const d of rspamdState) fs.chownSync(d, uid, gid);
  }
  // Haraka: our config dir, the two plugins linked into its node_modules.
  const harakaDir = dir('haraka');
  writeHarakaDir(harakaDir, {
    listen: `${HOST}:${smtpPort}`,
    rspamd: { host: HOST, port: normalPort },
    nextHop,
    domains: opts.domains,
    domainsRefresh: opts.domainsRefresh,
    greylistWindow: opts.greylistWindow,
    logsRetryMax: opts.logsRetryMax,
  });
  const harakaBin = path.join(packageDir('Haraka'), 'bin', 'haraka');

  const onLine = opts.onLog;
  const daemons = [];
  const stopAll = async () => {
    const [haraka, ...rest] = [...daemons].reverse(); // Haraka first: no new mail, then the rest
    if (haraka) await haraka.stop();
    await Promise.all(rest.map((d) => d.stop()));
  };

  try {
    const redis = startDaemon({
      name: 'redis',
      command: bins.redis,
      args: ['--bind', HOST, '--port', String(redisPort), '--dir', redisDir, '--save', '', '--appendonly', 'no'],
      cwd: redisDir,
      env: process.env,
      logFile: logs.redis,
      onLine,
    });
    daemons.push(redis);
    const mapsProxy =
      proxy &&
      startDaemon({
        name: 'maps-proxy',
        command: bins.nginx,
        args: proxy.args,
        cwd: runDir,
        env: process.env,
        logFile: logs.mapsProxy,
        onLine,
      });
    if (mapsProxy) daemons.push(mapsProxy);
    const rspamd = startDaemon({
      name: 'rspamd',
      command: bins.rspamd,
      args: [
        '-f',
        ...(root ? ['-u', RSPAMD_USER, '-g', RSPAMD_USER] : []),
        '-c',
        '/etc/rspamd/rspamd.conf',
        `--var=LOCAL_CONFDIR=${rspamdConf}`,
        `--var=DBDIR=${rspamdState[0]}`,
        `--var=RUNDIR=${rspamdState[1]}`,
        `--var=LOGDIR=${rspamdState[2]}`,
        `--var=QC_MAPS_URL=${qcMapsUrl}`,
      ],
      cwd: runDir,
      env: withoutMapsSecret(process.env),
      logFile: logs.rspamd,
      onLine,
    });
    daemons.push(rspamd);
    const haraka = startDaemon({
      name: 'haraka',
      command: process.execPath,
      args: [harakaBin, '-c', harakaDir],
      cwd: harakaDir,
      env: { ...process.env, QC_API_URL: apiUrl, QC_INGEST_TOKEN: ingestToken },
      logFile: logs.haraka,
      onLine,
    });
    daemons.push(haraka);

    const rspamdUrl = `http://${HOST}:${normalPort}`;
    const controllerUrl = `http://${HOST}:${controllerPort}`;
    await Promise.all([
      waitReady(redis, 'PING', () => redisPing(redisPort), readyTimeoutMs),
      mapsProxy &&
        waitReady(mapsProxy, 'GET /ping', async () => (await request(proxy.pingUrl)).body === 'pong\n', readyTimeoutMs),
      waitReady(
        rspamd,
        'scanner (/ping, controller, GTUBE canary)',
        async () =>
          (await request(`${rspamdUrl}/ping`)).body.trim() === 'pong' &&
          (await request(`${controllerUrl}/ping`)).body.trim() === 'pong' &&
          (await rspamdCanary(rspamdUrl)),
        readyTimeoutMs,
      ),
      waitReady(haraka, 'SMTP greeting', () => smtpGreeting(smtpPort), readyTimeoutMs),
    ]);

    let stopped = null;
    const stack = {
      smtpHost: HOST,
      smtpPort,
      apiUrl,
      nextHop,
      rspamd: { url: rspamdUrl, controllerUrl, password: rspamdPassword },
      /**
       * Where the api serves the console's rules (without the secret), and the maps proxy's URL
       * Rspamd fetches them from; null: local empty maps.
       */
      maps: { url: maps.token ? maps.url : null, proxyUrl: proxy ? proxy.rspamdUrl : null },
      redis: { host: HOST, port: redisPort },
      runDir,
      logs,
      pids: Object.fromEntries(daemons.map((d) => [d.name, d.pid])),
      startedInMs: Date.now() - t0,
      /** Resolves with the first daemon that exits on its own ({name, code, signal}). */
      unexpectedExit: Promise.race(
        daemons.map((d) => d.exited.then((info) => (stopped ? new Promise(() => {}) : { name: d.name, ...info }))),
      ),
      stop() {
        stopped ??= (async () => {
          await stopAll();
          if (ownRunDir && !opts.keepRunDir) fs.rmSync(runDir, { recursive: true, force: true });
        })();
        return stopped;
      },
    };
    return stack;
  } catch (err) {
    await stopAll().catch(() => {});
    err.message += `\n(run directory kept for its logs: ${runDir})`;
    throw err;
  }
}

module.exports = { startMailStack, startSink, startDnsServer, writeHarakaDir, ensureBinaries, APT_PACKAGES, GTUBE };
