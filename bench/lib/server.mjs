// Shared by the benchmarks: use the console at --url (or QC_BENCH_URL), or start the built one
// (api + host/dist + remotes) on a free loopback port with a throwaway data directory.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
/** The api's tsx: it runs the api (TypeScript) and the benchmarks that import its code. */
export const TSX = path.join(ROOT, 'api/node_modules/.bin/tsx');
export const CHROME_PATH = process.env.CHROME_PATH || '/usr/bin/chromium';
export const CHROME_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The admin consoleUnderTest seeds in the console it starts (benchmarks sign in as it). */
export const BENCH_ADMIN = { email: 'admin@example.com', password: 'bench-admin-password' };

/** --name value / --name=value / --flag from argv. */
export function arg(name, fallback) {
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === `--${name}`) return argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[i + 1] : true;
    if (argv[i].startsWith(`--${name}=`)) return argv[i].slice(name.length + 3);
  }
  return fallback;
}

/**
 * The api's settings for a benchmark that serves it from `dataDir`: cheap password hashing, tokens
 * that outlive the run, nothing purged, no front end to serve.
 */
export function benchApiEnv(dataDir, ingestToken) {
  return {
    QC_DATA_DIR: dataDir,
    QC_SECRET_KEY: randomBytes(32).toString('base64url'),
    QC_LOG_LEVEL: 'warn',
    QC_ARGON2_MEMORY_KIB: '64',
    QC_ARGON2_TIME_COST: '1',
    QC_ACCESS_TTL: '3600',
    QC_INGEST_TOKEN: ingestToken,
    QC_RETENTION_DAYS: '0',
    QC_STATIC_DIR: path.join(dataDir, 'static'),
    QC_REMOTES_DIR: dataDir,
    // The benchmarks sign in as an admin with a password only.
    QC_MFA_REQUIRED_ROLES: 'none',
  };
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

export async function waitFor(url, timeoutMs = 90_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      /* not up yet */
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Returns { url, stop } for the console to measure. */
export async function consoleUnderTest() {
  const given = arg('url') || process.env.QC_BENCH_URL;
  if (typeof given === 'string') return { url: given.replace(/\/$/, ''), stop: async () => {} };
  for (const f of ['host/dist/index.html', 'remote-mail/dist/mf-manifest.json']) {
    if (!existsSync(path.join(ROOT, f))) throw new Error(`${f} is missing: build first (npm run build), or pass --url`);
  }
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'qc-bench-'));
  const port = await freePort();
  const child = spawn(TSX, ['api/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      NODE_ENV: 'production',
      QC_HOST: '127.0.0.1',
      QC_PORT: String(port),
      QC_DATA_DIR: tmp,
      QC_ADMIN_EMAIL: BENCH_ADMIN.email,
      QC_ADMIN_PASSWORD: BENCH_ADMIN.password,
      QC_MFA_REQUIRED_ROLES: 'none', // the benchmarks sign in as it with a password only
      QC_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const gone = new Promise((r) => child.once('exit', r));
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        /* gone */
      }
      await gone;
    }
    rmSync(tmp, { recursive: true, force: true });
  };
  try {
    await waitFor(`${url}/api/health/`);
  } catch (e) {
    await stop();
    throw e;
  }
  return { url, stop };
}
