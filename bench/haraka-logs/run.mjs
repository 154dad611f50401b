// Haraka logs benchmark (issue 19): prints figures, asserts nothing.
//
//   npm run node -- bench/haraka-logs/run.mjs [--lines 200000] [--batch 1000] [--concurrency 4] [--workers 1] [--samples 200]
//   QC_BENCH_DATABASE_URL=postgres://postgres@127.0.0.1:55432/postgres npm run node -- bench/haraka-logs/run.mjs
//
// For SQLite, and for PostgreSQL when QC_BENCH_DATABASE_URL is set (a throwaway database is created
// on that server and dropped after): the api is started as in production (tsx api/src/main.ts), N
// lines spread over the last 365 days (connections of 10 lines: connect, 8 of transaction .1,
// disconnect) are POSTed to /api/haraka/logs/ingest/ in batches, then p50/p95 of: the lines of one
// connection uuid, logs-per-day for 365 days, the summary for 365 days and the first page of the
// last 24 h, over HTTP (with auth) and as the service call alone (the database query). Goals of the
// issue at --lines 5000000: ingest ≥ 20,000 lines/s; uuid and logs-per-day ≤ 5 ms.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measure } from '../lib/measure.mjs';
import { arg, benchApiEnv, freePort, ROOT, TSX, waitFor } from '../lib/server.mjs';
import { apiRequire, importApi as api, runUnderTsx } from '../lib/under-tsx.mjs';

const TOKEN = 'bench-ingest-token-0123456789abcdef';
const ADMIN = 'admin@bench.example';
const PASSWORD = 'bench admin password';
const DAY_MS = 86_400_000;

// Under tsx so the service calls can be timed too.
await runUnderTsx(import.meta.url, main);

async function main() {
  const pg = apiRequire('pg');
  const { loadConfig } = await api('config.ts');
  const { openMigratedDatabase } = await api('db/database.ts');
  const { createPasswordHasher } = await api('lib/passwords.ts');
  const { createUser } = await api('modules/users/users.service.ts');
  const { uuidLogs, logsPerDay, logSummary, searchLogs } = await api('modules/haraka-logs/haraka-logs.service.ts');

  const lines = Number(arg('lines', 200_000));
  const batch = Number(arg('batch', 1000));
  const concurrency = Number(arg('concurrency', 4));
  const workers = String(arg('workers', 1));
  const samples = Number(arg('samples', 200));
  const connections = Math.max(1, Math.floor(lines / 10));
  const now = Date.now();
  const uuidOf = (c) =>
    `${(c >>> 0).toString(16).toUpperCase().padStart(8, '0')}-B00C-4A11-8E55-${String(c).padStart(12, '0')}`;

  /** Line i: connection i/10, 365 days back at the start, now at the end. */
  function lineAt(i) {
    const c = Math.floor(i / 10);
    const k = i % 10;
    const uuid = uuidOf(c);
    const ts = now - Math.floor(((lines - i) / lines) * 365 * DAY_MS);
    const base = { id: `bench:${i}`, ts: new Date(ts).toISOString(), hostname: `mx${c % 3}.bench.example` };
    if (k === 0)
      return {
        ...base,
        level: 'NOTICE',
        uuid,
        origin: 'core',
        message: `connect ip=192.0.2.${c % 250} port=${c % 60000}`,
      };
    if (k === 9)
      return {
        ...base,
        level: 'NOTICE',
        uuid: `${uuid}.1`,
        origin: 'core',
        message: 'disconnect ip=192.0.2.1 txns=1 msgs=1/0/0',
      };
    const origins = ['core', 'rspamd', 'qconsole', 'dnsbl', 'spf', 'dkim', 'helo.checks', 'tls'];
    const level = k === 5 && c % 7 === 0 ? 'WARN' : k === 6 && c % 31 === 0 ? 'ERROR' : 'INFO';
    return { ...base, level, uuid: `${uuid}.1`, origin: origins[k - 1], message: `step ${k} of connection ${c} ok` };
  }

  async function timed(fn) {
    const { p50, p95, n } = await measure(fn, { warmUp: 5, min: samples });
    return `p50 ${p50} ms, p95 ${p95} ms (n=${n})`;
  }

  const dialects = [['sqlite', null]];
  if (process.env.QC_BENCH_DATABASE_URL) dialects.push(['postgres', process.env.QC_BENCH_DATABASE_URL]);
  console.log(
    `Haraka logs benchmark: ${lines.toLocaleString('en')} lines, batches of ${batch}, ${concurrency} in flight, ` +
      `QC_WORKERS=${workers}, node ${process.version}, ${os.cpus().length} CPUs (${os.cpus()[0]?.model ?? '?'})`,
  );

  for (const [dialect, serverUrl] of dialects) {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'qc-bench-haraka-'));
    const env = {
      ...benchApiEnv(tmp, TOKEN),
      QC_LOG_RETENTION_DAYS: '0', // the lines span a year: keep them all
      QC_WORKERS: workers,
    };
    let dropDatabase = async () => {};
    if (serverUrl) {
      const name = `qc_bench_haraka_${randomBytes(4).toString('hex')}`;
      const admin = new pg.Client({ connectionString: serverUrl });
      await admin.connect();
      await admin.query(`create database ${name}`);
      await admin.end();
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      env.QC_DATABASE_URL = url.toString();
      dropDatabase = async () => {
        const c = new pg.Client({ connectionString: serverUrl });
        await c.connect();
        await c.query(`drop database if exists ${name} with (force)`);
        await c.end();
      };
    }
    const config = loadConfig(env, tmp);
    let handle = await openMigratedDatabase(config.database);
    await createUser(
      { db: handle.db, passwords: createPasswordHasher(config.argon2) },
      { email: ADMIN, password: PASSWORD, role: 'admin' },
    );
    await handle.close();

    const port = await freePort();
    const child = spawn(TSX, ['api/src/main.ts'], {
      cwd: ROOT,
      env: { ...process.env, ...env, NODE_ENV: 'production', QC_HOST: '127.0.0.1', QC_PORT: String(port) },
      stdio: ['ignore', 'ignore', 'inherit'],
      detached: true,
    });
    const base = `http://127.0.0.1:${port}`;
    const stop = async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const gone = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      await gone;
    };
    console.log(`\n== ${dialect} ==`);
    try {
      await waitFor(`${base}/api/health/`);

      // --- ingest over HTTP ------------------------------------------------------------------
      let next = 0;
      let accepted = 0;
      const t0 = performance.now();
      const sender = async () => {
        for (;;) {
          const start = next;
          if (start >= lines) return;
          next += batch;
          const body = { lines: Array.from({ length: Math.min(batch, lines - start) }, (_, j) => lineAt(start + j)) };
          const res = await fetch(`${base}/api/haraka/logs/ingest/`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${TOKEN}` },
            body: JSON.stringify(body),
          });
          if (res.status !== 202) throw new Error(`ingest answered ${res.status}: ${await res.text()}`);
          accepted += (await res.json()).accepted;
        }
      };
      await Promise.all(Array.from({ length: concurrency }, sender));
      const seconds = (performance.now() - t0) / 1000;
      console.log(
        `  ingest over HTTP: ${accepted.toLocaleString('en')} lines in ${seconds.toFixed(1)} s = ` +
          `${Math.round(accepted / seconds).toLocaleString('en')} lines/s`,
      );

      // --- reads over HTTP (admin token) -----------------------------------------------------
      const login = await fetch(`${base}/api/auth/login/`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: ADMIN, password: PASSWORD }),
      });
      const { access } = await login.json();
      const auth = { authorization: `Bearer ${access}` };
      const pick = (i) => uuidOf((i * 2654435761) % connections);
      const getOk = async (url) => {
        const res = await fetch(`${base}${url}`, { headers: auth });
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      };
      const http = {
        'GET /api/haraka/logs/{connection uuid}/': (i) => getOk(`/api/haraka/logs/${pick(i)}/`),
        'GET /api/haraka/statistics/logs-per-day/?days=365': () =>
          getOk('/api/haraka/statistics/logs-per-day/?days=365'),
        'GET /api/haraka/statistics/summary/?days=365': () => getOk('/api/haraka/statistics/summary/?days=365'),
        'GET /api/haraka/logs/ (last 24 h, first page)': () => getOk('/api/haraka/logs/?page_size=50'),
      };
      for (const [name, fn] of Object.entries(http)) console.log(`  HTTP     ${name.padEnd(52)} ${await timed(fn)}`);

      // --- the service calls alone (this process, its own connection) ------------------------
      handle = await openMigratedDatabase(config.database);
      const deps = { db: handle.db, dialect: handle.dialect };
      const service = {
        'uuidLogs(connection uuid)': (i) => uuidLogs(deps, pick(i + 7)),
        'logsPerDay(365)': () => logsPerDay(deps, 365),
        'logSummary(365)': () => logSummary(deps, 365),
        'searchLogs(last 24 h, 50)': () => searchLogs(deps, { page_size: 50 }),
        'searchLogs(last 24 h, q="connection 1", 50)': () => searchLogs(deps, { page_size: 50, q: 'connection 1' }),
      };
      try {
        for (const [name, fn] of Object.entries(service))
          console.log(`  service  ${name.padEnd(52)} ${await timed(fn)}`);
      } finally {
        await handle.close();
      }
    } finally {
      await stop();
      await dropDatabase();
      rmSync(tmp, { recursive: true, force: true });
    }
  }
}
