import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { ROOT } from './stack';

/** tsx as installed for the api package (the same binary the root scripts use). */
export function tsxBin(): string {
  const bin = path.join(ROOT, 'api', 'node_modules', '.bin', 'tsx');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run pnpm install at the repository root`);
  return bin;
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, host, () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

export interface ApiProcess {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `tsx api/src/main.ts` with the given env and waits until /api/health/ answers 200. */
export async function startApi(env: Record<string, string>, logFile: string, timeoutMs = 90_000): Promise<ApiProcess> {
  const url = `http://${env.QC_HOST}:${env.QC_PORT}`;
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(tsxBin(), ['api/src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'production', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // own process group: tsx runs node as a child, both must stop
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, 5_000);
    await gone;
    clearTimeout(timer);
  };

  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (exited !== null) throw new Error(`the api exited with code ${exited} during start-up; see ${logFile}`);
    try {
      const res = await fetch(`${url}/api/health/`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the api did not answer ${url}/api/health/ within ${timeoutMs / 1000} s; see ${logFile}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { url, child, stop };
}

/** Runs the user CLI (`tsx api/src/cli.ts …`) against the same data directory. */
export function runCli(args: string[], env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      tsxBin(),
      ['api/src/cli.ts', ...args],
      { cwd: ROOT, env: { ...process.env, ...env }, timeout: 60_000 },
      (err, stdout, stderr) => {
        if (err) reject(new Error(`cli ${args.slice(0, 1).join(' ')} failed: ${err.message}\n${stdout}\n${stderr}`));
        else resolve(stdout);
      },
    );
  });
}
