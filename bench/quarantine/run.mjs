// Quarantine storage benchmark: prints figures, asserts nothing (DESIGN §8).
//
//   npm run node -- bench/quarantine/run.mjs --db sqlite|postgres|sqlite,postgres --sizes 10000,100000,1000000
//        [--http-seconds 5] [--budget-ms 1500] [--json results.json] [--explain] [--workers N]
//
// For each database and size: a fresh database migrated by the api, seeded straight in SQL
// (seed.mjs), then p50/p95 of the api's own query code (the services the routes call: list pages,
// search, filters, dashboard, statistics, history), the list endpoint over HTTP with autocannon
// beside a bare Fastify route (same run, so the ratio is meaningful), and durable ingest of 50 KB
// messages through the real route. PostgreSQL is a throwaway server (pg.mjs) on port 55435.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure, percentile } from '../lib/measure.mjs';
import { arg, benchApiEnv, ROOT, TSX } from '../lib/server.mjs';
import { apiRequire, importApi as api, runUnderTsx } from '../lib/under-tsx.mjs';

const HERE = path.dirname(fileURLToPath(import.meta.url));

await runUnderTsx(import.meta.url, main);

async function main() {
  const { sql, CompiledQuery } = apiRequire('kysely');
  const { default: autocannon } = await import('autocannon');
  const { loadConfig } = await api('config.ts');
  const { openMigratedDatabase } = await api('db/database.ts');
  const { createPasswordHasher } = await api('lib/passwords.ts');
  const { createUser } = await api('modules/users/users.service.ts');
  const { listQuarantine } = await api('modules/quarantine/quarantine.service.ts');
  const { listKeysQuery, textHitsQuery } = await api('modules/quarantine/list.repository.ts');
  const { dashboardFor } = await api('modules/dashboard/dashboard.service.ts');
  const { statisticsFor } = await api('modules/statistics/statistics.service.ts');
  const { rebuildStatistics } = await api('modules/statistics/statistics.repository.ts');
  const { historyPage } = await api('modules/history/history.service.ts');
  const { fillHistoryAudience } = await api('db/migration-0012-history-audience.ts');
  const { QuarantineListQuery, HistoryListQuery } = await import(path.join(ROOT, 'shared/contracts/src/index.ts'));
  const { seedDatabase, rareTerm, COMMON_TERMS, DAY } = await import('./seed.mjs');
  const { startPostgres } = await import('./pg.mjs');

  const databases = String(arg('db', 'sqlite')).split(',');
  const sizes = String(arg('sizes', '10000,100000'))
    .split(',')
    .map((s) => Number(s.replace(/k$/i, '000').replace(/m$/i, '000000')));
  const httpSeconds = Number(arg('http-seconds', 5));
  const budgetMs = Number(arg('budget-ms', 1500));
  const explainPlans = Boolean(arg('explain', false));
  // The api's processes over HTTP (QC_WORKERS); default: the api's own default (the CPUs, at most 8).
  const workers = arg('workers', null);
  const jsonFile = arg('json', null);
  const PASSWORD = 'bench password 1234';
  const INGEST_TOKEN = 'bench-ingest-token-0123456789abcdef';
  const label = (n) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));
  const log = (text) => process.stderr.write(`${text}\n`);
  const all = [];

  for (const dialect of databases) {
    if (!['sqlite', 'postgres'].includes(dialect)) throw new Error(`--db: sqlite or postgres, not ${dialect}`);
    const server = dialect === 'postgres' ? startPostgres({ port: 55435 }) : null;
    const onSignal = () => {
      server?.stop();
      process.exit(130);
    };
    process.once('SIGINT', onSignal);
    if (server) log(`${server.version} on ${server.url}`);
    try {
      for (const n of sizes) {
        const result = await benchSize(dialect, n, server);
        all.push(result);
        printSize(result);
      }
    } finally {
      process.removeListener('SIGINT', onSignal);
      server?.stop();
    }
  }
  printSummary(all);
  if (typeof jsonFile === 'string') writeFileSync(jsonFile, JSON.stringify(all, null, 2));

  // -------------------------------------------------------------------------------------------
  async function benchSize(dialect, n, server) {
    const started = performance.now();
    log(`\n== ${dialect} ${label(n)} ==`);
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'qc-bench-'));
    const env = {
      ...benchApiEnv(tmp, INGEST_TOKEN),
      QC_LOGIN_RATE_ACCOUNT_MAX: '100000',
      QC_LOGIN_RATE_IP_MAX: '100000',
      QC_DB_POOL_MAX: '10',
      ...(workers ? { QC_WORKERS: String(workers) } : {}),
    };
    const dbName = `qc_bench_${label(n).toLowerCase()}`;
    if (server) {
      await adminQuery(server.url, `drop database if exists ${dbName}`);
      await adminQuery(server.url, `create database ${dbName}`);
      env.QC_DATABASE_URL = server.url.replace(/\/postgres$/, `/${dbName}`);
    }
    const config = loadConfig(env, tmp);
    const handle = await openMigratedDatabase(config.database);
    const { db } = handle;
    const exec = (text) => sql.raw(text).execute(db);
    const one = async (text) => Object.values((await exec(text)).rows[0] ?? {})[0];
    const now = Date.now();
    const result = { dialect, size: n, label: label(n), load: {}, queries: {}, http: {}, ingest: {}, loadavg: [] };
    const loadavg = () => result.loadavg.push(Number(os.loadavg()[0].toFixed(1)));
    loadavg();
    try {
      // --- load ------------------------------------------------------------------------------
      const passwords = createPasswordHasher(config.argon2);
      const admin = await createUser(
        { db, passwords },
        { email: 'admin@bench.example', role: 'admin', password: PASSWORD },
      );
      await createUser(
        { db, passwords },
        { email: 'boss@d0.example', role: 'domain_admin', domain: 'd0.example', password: PASSWORD },
      );
      const user = await createUser(
        { db, passwords },
        { email: 'u0@d0.example', role: 'user', domain: 'd0.example', password: PASSWORD },
      );
      const t0 = performance.now();
      Object.assign(
        result.load,
        await seedDatabase({
          dialect,
          exec,
          n,
          now,
          historyActor: user.id,
          fillHistoryAudience: () => fillHistoryAudience(db),
        }),
      );
      let t = performance.now();
      await rebuildStatistics(db);
      result.load.stats_rebuild = Math.round(performance.now() - t);
      t = performance.now();
      if (dialect === 'postgres') await exec('vacuum analyze');
      result.load.analyze = Math.round(performance.now() - t);
      result.load.total = Math.round(performance.now() - t0);
      result.load.recipient_rows = Number(await one('select count(*) from quarantine_recipients'));
      if (dialect === 'postgres') {
        result.load.mb = Math.round(Number(await one('select pg_database_size(current_database())')) / 1048576);
      } else {
        await exec('pragma wal_checkpoint(TRUNCATE)');
        result.load.mb = Math.round(statSync(config.database.file).size / 1048576);
      }
      log(`loaded in ${(result.load.total / 1000).toFixed(1)} s: ${JSON.stringify(result.load)}`);

      // --- queries through the services the routes call ------------------------------------
      const who = (role, email, domain, id = 'bench') => ({
        sessionId: 'bench',
        familyId: 'bench',
        user: { user_id: id, email, role, domain_name: domain, domain_id: null, username: email, is_active: 1 },
      });
      const adminAuth = who('admin', 'admin@bench.example', null, admin.id);
      const domainAdmins = Array.from({ length: 10 }, (_, k) =>
        who('domain_admin', `boss@d${k}.example`, `d${k}.example`),
      );
      const users = Array.from({ length: 20 }, (_, k) => who('user', `u${k}@d0.example`, 'd0.example'));
      const owner = who('user', 'u0@d0.example', 'd0.example', user.id);
      const q = (query) => QuarantineListQuery.parse({ page_size: 50, ...query });
      const cursors = [];
      for (let k = 0; k < 10; k++) {
        const { rows } = await exec(`select received_at, message_id from quarantine_recipients
          where received_at < ${now - (150 + 5 * k) * DAY} order by received_at desc, message_id desc limit 1`);
        const r = rows[0];
        if (r) cursors.push(Buffer.from(`${Number(r.received_at)}.${r.message_id}`).toString('base64url'));
      }
      const rare = Array.from({ length: 10 }, (_, k) => rareTerm(137 + 811 * k));
      const deps = { db };
      const cases = [
        ['list: first page, admin', () => listQuarantine(deps, adminAuth, q({}))],
        ['list: first page, domain_admin', (k) => listQuarantine(deps, domainAdmins[k % 10], q({}))],
        ['list: first page, user', (k) => listQuarantine(deps, users[k % 20], q({}))],
        // Issue 23: by score or size no index has the scope's order: the matching rows are sorted.
        ['list: by score, domain_admin', (k) => listQuarantine(deps, domainAdmins[k % 10], q({ sort: 'score' }))],
        ['list: by size, user', (k) => listQuarantine(deps, users[k % 20], q({ sort: 'size', order: 'asc' }))],
        [
          'list: deep keyset page (~150–200 days back), admin',
          (k) => listQuarantine(deps, adminAuth, q({ status: 'all', cursor: cursors[k % cursors.length] })),
        ],
        ['search: rare term, admin', (k) => listQuarantine(deps, adminAuth, q({ status: 'all', q: rare[k % 10] }))],
        [
          'search: common term (8 %), admin',
          (k) => listQuarantine(deps, adminAuth, q({ status: 'all', q: COMMON_TERMS[k % 3] })),
        ],
        [
          'search: rare term, domain_admin',
          (k) => listQuarantine(deps, domainAdmins[k % 10], q({ status: 'all', q: rare[k % 10] })),
        ],
        [
          'search: common term, domain_admin',
          (k) => listQuarantine(deps, domainAdmins[k % 10], q({ status: 'all', q: COMMON_TERMS[k % 3] })),
        ],
        [
          'filter: score ≥ 10 + action + last 30 days, admin',
          () =>
            listQuarantine(
              deps,
              adminAuth,
              q({ status: 'all', score_min: 10, action: 'reject', date_from: new Date(now - 30 * DAY).toISOString() }),
            ),
        ],
        [
          'filter: sender substring (1 in 300), admin',
          (k) => listQuarantine(deps, adminAuth, q({ status: 'all', sender: `@spam${(k * 7) % 300}.` })),
        ],
        [
          'filter: status released, domain_admin',
          (k) => listQuarantine(deps, domainAdmins[k % 10], q({ status: 'released' })),
        ],
        ['dashboard, admin', () => dashboardFor(db, adminAuth)],
        ['dashboard, domain_admin', (k) => dashboardFor(db, domainAdmins[k % 10])],
        ['dashboard, user', (k) => dashboardFor(db, users[k % 20])],
        ['statistics 365 days, admin', () => statisticsFor(db, adminAuth, { days: 365 })],
        ['statistics 365 days, domain_admin', (k) => statisticsFor(db, domainAdmins[k % 10], { days: 365 })],
        ['statistics 365 days, user', (k) => statisticsFor(db, users[k % 20], { days: 365 })],
        ['history: first page, admin', () => historyPage(db, adminAuth, HistoryListQuery.parse({ page_size: 50 }))],
        [
          'history: first page, domain_admin',
          (k) => historyPage(db, domainAdmins[k % 10], HistoryListQuery.parse({ page_size: 50 })),
        ],
        ['history: first page, user', () => historyPage(db, owner, HistoryListQuery.parse({ page_size: 50 }))],
      ];
      loadavg();
      for (const [name, fn] of cases) {
        result.queries[name] = await measure(fn, { warmUp: 2, min: 5, max: 300, budgetMs, round });
        log(`  ${name.padEnd(52)} ${fmt(result.queries[name])}`);
      }
      if (explainPlans) await printPlans(dialect, db, { rare: rare[0], common: COMMON_TERMS[0] });

      // --- HTTP: the list endpoint beside a bare Fastify route; durable ingest ---------------
      await handle.close();
      const child = await startServer(env);
      result.http_workers = child.ports.workers;
      log(`  HTTP: the api in ${child.ports.workers} process(es) (QC_WORKERS), the bare route in one`);
      try {
        const base = `http://127.0.0.1:${child.ports.api}`;
        const login = await fetch(`${base}/api/auth/login/`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: 'admin@bench.example', password: PASSWORD }),
        });
        const { access } = await login.json();
        const auth = { authorization: `Bearer ${access}` };
        // Steady state, as a server that has run for a while: each endpoint once unmeasured first
        // (JIT compilation in every worker, statement caches).
        const warmUp = (options) => autocannon({ connections: 10, duration: 2, ...options });
        await warmUp({ url: `${base}/api/quarantine/?page_size=50`, headers: auth });
        await warmUp({ url: `${base}/api/statistics/?days=365`, headers: auth });
        result.http.bare = await load(autocannon, { url: `http://127.0.0.1:${child.ports.bare}/hello` });
        result.http.list = await load(autocannon, { url: `${base}/api/quarantine/?page_size=50`, headers: auth });
        // One client: the request's own latency, without queueing behind nine others.
        result.http.list_c1 = await load(autocannon, {
          url: `${base}/api/quarantine/?page_size=50`,
          headers: auth,
          connections: 1,
        });
        result.http.statistics = await load(autocannon, { url: `${base}/api/statistics/?days=365`, headers: auth });
        for (const [name, r] of Object.entries(result.http)) {
          log(
            `  HTTP ${name.padEnd(12)} ${r.rps} req/s, p50 ${r.p50} ms, p95 ${r.p95} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}`,
          );
        }
        for (const connections of [1, 10]) {
          const r = await ingestLoad(autocannon, base, connections);
          result.ingest[`c${connections}`] = r;
          log(`  ingest 50 KB c=${connections}: ${r.rps} msg/s, p50 ${r.p50} ms, p99 ${r.p99} ms, non-2xx ${r.non2xx}`);
        }
      } finally {
        await child.stop();
      }
      const reopened = await openMigratedDatabase(config.database);
      result.ingest.persisted = Number(
        Object.values((await sql.raw('select count(*) as n from quarantine_raw').execute(reopened.db)).rows[0])[0],
      );
      result.ingest.answered_2xx = (result.ingest.c1?.ok ?? 0) + (result.ingest.c10?.ok ?? 0);
      await reopened.close();
      loadavg();
      result.seconds = Math.round((performance.now() - started) / 1000);
      return result;
    } finally {
      await handle.close();
      if (server) await adminQuery(server.url, `drop database if exists ${dbName}`);
      rmSync(tmp, { recursive: true, force: true });
    }

    async function printPlans(dialect, db, terms) {
      const scopes = { admin: { kind: 'all' }, domain_admin: { kind: 'domain', domain: 'd0.example' } };
      for (const [role, scope] of Object.entries(scopes)) {
        const queries = {
          [`text hits "${terms.rare}"`]: textHitsQuery(db, scope, terms.rare, 4001),
          [`keyset "${terms.common}"`]: listKeysQuery(db, scope, { statuses: null, q: terms.common }, null, 51),
        };
        for (const [name, query] of Object.entries(queries)) {
          const c = query.compile(db);
          const prefix = dialect === 'postgres' ? 'explain ' : 'explain query plan ';
          const { rows } = await db.executeQuery(CompiledQuery.raw(prefix + c.sql, [...c.parameters]));
          const text = rows.map((r) => r['QUERY PLAN'] ?? r.detail).join('\n    ');
          log(`  plan ${role} ${name}:\n    ${text}`);
        }
      }
    }
  }

  async function adminQuery(url, text) {
    const pg = apiRequire('pg');
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  }

  function startServer(env) {
    return new Promise((resolve, reject) => {
      const child = spawn(TSX, [path.join(HERE, 'server.mjs')], {
        cwd: ROOT,
        env: { ...process.env, ...env, NODE_ENV: 'production' },
        stdio: ['ignore', 'pipe', 'inherit'],
        detached: true,
      });
      let out = '';
      child.stdout.on('data', (chunk) => {
        out += chunk;
        const m = /READY (\{.*\})/.exec(out);
        if (m) {
          const stop = () =>
            new Promise((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', done);
              process.kill(-child.pid, 'SIGTERM');
            });
          resolve({ ports: JSON.parse(m[1]), stop });
        }
      });
      child.once('exit', (code) => reject(new Error(`bench server exited (${code}) before it was ready`)));
    });
  }

  // Latency percentiles from every 2xx answer's own time (autocannon's histogram has whole
  // milliseconds and no p95).
  async function load(autocannon, options) {
    const times = [];
    const run = autocannon({ connections: 10, duration: httpSeconds, ...options });
    run.on('response', (_client, status, _bytes, ms) => status < 300 && times.push(ms));
    const r = await run;
    times.sort((a, b) => a - b);
    const at = (q) => Math.round(10 * (percentile(times, q) ?? NaN)) / 10;
    return {
      rps: Math.round(r.requests.average),
      p50: at(0.5),
      p95: at(0.95),
      p99: at(0.99),
      non2xx: r.non2xx + r.errors + r.timeouts,
    };
  }

  async function ingestLoad(autocannon, base, connections) {
    const runId = randomBytes(4).toString('hex');
    const attachment = randomBytes(24_000).toString('base64').replace(/.{76}/g, '$&\r\n');
    const words = 'lorem ipsum dolor sit amet prize winner claim your reward now limited offer '.repeat(200);
    let k = 0;
    const form = () => {
      const id = `${runId}-${connections}-${k++}`;
      const mime = [
        'From: "Bench" <promo@spam.example>',
        'To: u1@d0.example, v2@d3.example',
        `Subject: Bench message ${id}`,
        `Message-ID: <${id}@bench.example>`,
        'Date: Tue, 01 Dec 2026 10:00:00 +0000',
        'MIME-Version: 1.0',
        'Content-Type: multipart/mixed; boundary="b1"',
        '',
        '--b1',
        'Content-Type: text/plain; charset=utf-8',
        '',
        words,
        '--b1',
        'Content-Type: application/octet-stream; name="file.bin"',
        'Content-Transfer-Encoding: base64',
        'Content-Disposition: attachment; filename="file.bin"',
        '',
        attachment,
        '--b1--',
        '',
      ].join('\r\n');
      const meta = {
        uuid: `BENCH-${id}`,
        mail_from: 'bounce@spam.example',
        rcpt_to: ['u1@d0.example', 'v2@d3.example'],
        remote_ip: '192.0.2.9',
        helo: 'mx.spam.example',
        rspamd: { action: 'reject', score: 12.5, required_score: 15, symbols: { BAYES_SPAM: { score: 5.1 } } },
      };
      const boundary = `----qcbench${id}`;
      const body = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="meta"\r\n\r\n${JSON.stringify(meta)}\r\n`),
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="message"; filename="m.eml"\r\n` +
            'Content-Type: message/rfc822\r\n\r\n',
        ),
        Buffer.from(mime),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      return { body, type: `multipart/form-data; boundary=${boundary}` };
    };
    const size = form().body.length;
    const r = await autocannon({
      url: base,
      connections,
      duration: httpSeconds,
      requests: [
        {
          method: 'POST',
          path: '/api/quarantine/ingest/',
          setupRequest: (req) => {
            const { body, type } = form();
            return { ...req, body, headers: { 'content-type': type, authorization: `Bearer ${INGEST_TOKEN}` } };
          },
        },
      ],
    });
    return {
      rps: Math.round(r['2xx'] / httpSeconds),
      p50: r.latency.p50,
      p99: r.latency.p99,
      non2xx: r.non2xx + r.errors + r.timeouts,
      ok: r['2xx'],
      bytes: size,
    };
  }

  function round(ms) {
    return ms < 1 ? Math.round(ms * 1000) / 1000 : ms < 10 ? Math.round(ms * 100) / 100 : Math.round(ms * 10) / 10;
  }

  function fmt(m) {
    return `p50 ${String(m.p50).padStart(8)} ms   p95 ${String(m.p95).padStart(8)} ms   (n=${m.n})`;
  }

  function printSize(r) {
    log(`== ${r.dialect} ${r.label} done in ${r.seconds} s (1-min load average: ${r.loadavg.join(' → ')})`);
  }

  function printSummary(results) {
    const cols = results.map((r) => `${r.dialect} ${r.label}`);
    const line = (cells) => `| ${cells.join(' | ')} |`;
    const out = [];
    out.push('Query time through the api’s services, p50 / p95 in ms (warm cache):', '');
    out.push(line(['query', ...cols]), line(['---', ...cols.map(() => '--:')]));
    for (const name of Object.keys(results[0]?.queries ?? {})) {
      out.push(
        line([name, ...results.map((r) => (r.queries[name] ? `${r.queries[name].p50} / ${r.queries[name].p95}` : ''))]),
      );
    }
    const apiProcesses = [...new Set(results.map((r) => r.http_workers))].join(' / ');
    out.push(
      '',
      `HTTP (autocannon, 10 connections, ${httpSeconds} s, the api in ${apiProcesses} process(es); req/s, latency p50 / p95 / p99 ms):`,
      '',
    );
    out.push(line(['endpoint', ...cols]), line(['---', ...cols.map(() => '--:')]));
    for (const name of ['bare', 'list', 'list_c1', 'statistics']) {
      const title = {
        bare: 'bare Fastify GET /hello',
        list: 'GET /api/quarantine/ (admin, 50 rows)',
        list_c1: 'the same, 1 connection',
        statistics: 'GET /api/statistics/?days=365 (admin)',
      }[name];
      out.push(
        line([
          title,
          ...results.map((r) =>
            r.http[name] ? `${r.http[name].rps} (${r.http[name].p50} / ${r.http[name].p95} / ${r.http[name].p99})` : '',
          ),
        ]),
      );
    }
    out.push(
      line([
        'list ÷ bare',
        ...results.map((r) => (r.http.list && r.http.bare ? `${(r.http.list.rps / r.http.bare.rps).toFixed(3)}` : '')),
      ]),
    );
    out.push('', `Durable ingest through POST /api/quarantine/ingest/ (50 KB messages, ${httpSeconds} s each):`, '');
    out.push(line(['', ...cols]), line(['---', ...cols.map(() => '--:')]));
    out.push(
      line([
        'msg/s, 1 connection (p50 / p99 ms)',
        ...results.map((r) => (r.ingest.c1 ? `${r.ingest.c1.rps} (${r.ingest.c1.p50} / ${r.ingest.c1.p99})` : '')),
      ]),
    );
    out.push(
      line([
        'msg/s, 10 connections (p50 / p99 ms)',
        ...results.map((r) => (r.ingest.c10 ? `${r.ingest.c10.rps} (${r.ingest.c10.p50} / ${r.ingest.c10.p99})` : '')),
      ]),
    );
    out.push(
      line(['rows stored / 2xx answered', ...results.map((r) => `${r.ingest.persisted} / ${r.ingest.answered_2xx}`)]),
    );
    out.push('', 'Load (seconds) and size:', '');
    out.push(line(['', ...cols]), line(['---', ...cols.map(() => '--:')]));
    const s = (ms) => (ms === undefined ? '' : (ms / 1000).toFixed(1));
    for (const [key, title] of [
      ['messages', 'messages'],
      ['recipients', 'recipients'],
      ['history', 'history (n/10)'],
      ['text_index', 'text index (FTS5 rows / pg_trgm GIN)'],
      ['stats_rebuild', 'stats:rebuild (counters + rollups)'],
      ['analyze', 'VACUUM ANALYZE'],
      ['total', 'total'],
      ['recipient_rows', 'recipient rows'],
      ['mb', 'database size MB'],
      ['loadavg', 'machine load average (start → queries → end)'],
    ]) {
      const cell = (r) =>
        key === 'loadavg'
          ? r.loadavg.join(' → ')
          : key === 'recipient_rows' || key === 'mb'
            ? String(r.load[key])
            : s(r.load[key]);
      out.push(line([title, ...results.map(cell)]));
    }
    process.stdout.write(`\n${out.join('\n')}\n`);
  }
}
