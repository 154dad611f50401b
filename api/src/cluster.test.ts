import { createTestEnv, freePort, PASSWORD } from './test/helpers'; // first: it makes jest able to load kysely
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { REPO_ROOT } from './config';

// The real entry point (tsx api/src/main.ts) with QC_WORKERS=2: the processes, not the app in-process.

const TSX = path.join(REPO_ROOT, 'api', 'node_modules', '.bin', 'tsx');

/** `tsx api/src/main.ts` on 127.0.0.1:port; `log()` is everything it printed so far. */
function startMain(env: Record<string, string>, port: number) {
  const child = spawn(TSX, ['api/src/main.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env, QC_PORT: String(port), QC_HOST: '127.0.0.1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, exited, log: () => log };
}

function statusOnNewConnection(url: string, headers: Record<string, string>): Promise<number | undefined> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers, agent: false }, (res) => {
        res.resume();
        resolve(res.statusCode);
      })
      .once('error', reject);
  });
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until<T>(what: string, probe: () => T | undefined | Promise<T | undefined>, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test('QC_WORKERS=2: two workers serve one port, a killed one is replaced, SIGTERM stops them all', async () => {
  const env = await createTestEnv({
    QC_WORKERS: '2',
    QC_LOG_LEVEL: 'info',
    QC_ADMIN_EMAIL: 'admin@cluster.example',
    QC_ADMIN_PASSWORD: PASSWORD,
  });
  const port = await freePort();
  let child: ChildProcess | null = null;
  try {
    const main = startMain(env.env, port);
    child = main.child;
    const { exited, log } = main;
    const base = `http://127.0.0.1:${port}`;
    const workerPids = () => [...log().matchAll(/worker (\d+) serving/g)].map((m) => Number(m[1]));
    const health = async () => (await fetch(`${base}/api/health/`).catch(() => null))?.status;

    await until('two workers serving', () => (workerPids().length === 2 ? true : undefined));
    expect(log()).toContain('serving with 2 worker processes');
    // Each worker names the runtime it serves on (the project's Node.js 24 under npm start / npm test).
    expect(log().split(`starting on Node.js ${process.versions.node}`).length - 1).toBe(2);
    const [first, second] = workerPids();
    expect(first && second && first !== second).toBe(true);

    // Signed in through one worker, the token works on the other: a new connection each time, and the
    // primary hands connections out in turn. Everything they share is in the database.
    const login = await fetch(`${base}/api/auth/login/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@cluster.example', password: PASSWORD }),
    });
    expect(login.status).toBe(200);
    const { access } = (await login.json()) as { access: string };
    for (let i = 0; i < 6; i++) {
      expect(await statusOnNewConnection(`${base}/api/users/me/`, { authorization: `Bearer ${access}` })).toBe(200);
    }
    // Both answered: each logs its requests with its pid.
    const answeredBy = () =>
      new Set(
        log()
          .split('\n')
          .filter((line) => line.startsWith('{') && line.endsWith('}') && line.includes('"url":"/api/users/me/"'))
          .map((line) => (JSON.parse(line) as { pid: number }).pid),
      );
    await until('requests answered by both workers', () => (answeredBy().size === 2 ? true : undefined));
    expect([...answeredBy()].sort()).toEqual([first, second].sort());

    process.kill(first!, 'SIGKILL');
    await until('a replacement worker serving', () => (workerPids().length === 3 ? true : undefined));
    expect(log()).toMatch(new RegExp(`worker ${first} exited \\(SIGKILL\\); starting another`));
    expect(await health()).toBe(200);
    const replacement = workerPids()[2]!;

    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    await until('every worker to exit', () => (![second!, replacement].some(alive) ? true : undefined), 10_000);
  } finally {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    await env.cleanup();
  }
}, 60_000);

test('QC_WORKERS=2 on a port already taken: the workers fail to start and the primary exits with code 1', async () => {
  const env = await createTestEnv({ QC_WORKERS: '2' });
  const taken = net.createServer();
  await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
  const { port } = taken.address() as net.AddressInfo;
  try {
    const { exited, log } = startMain(env.env, port);
    const code = await exited;
    expect(code).toBe(1);
    expect(log()).toMatch(/failed to start \(code 1\); stopping/);
  } finally {
    taken.close();
    await env.cleanup();
  }
}, 60_000);
