// A throwaway PostgreSQL server for the benchmark (like scripts/pg.sh): initdb in a temp directory,
// trust auth on 127.0.0.1:<port>, fsync on (the ingest figures must be durable ones), stopped and
// removed afterwards. Run as root it uses `runuser -u postgres`.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, chownSync } from 'node:fs';

function pgBin() {
  const base = '/usr/lib/postgresql';
  if (!existsSync(base)) throw new Error('PostgreSQL is not installed (apt-get install -y postgresql)');
  const versions = readdirSync(base).sort((a, b) => Number(b) - Number(a));
  return `${base}/${versions[0]}/bin`;
}

function asPostgres(cmd, args) {
  const root = process.getuid?.() === 0;
  const [file, argv] = root ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args];
  return execFileSync(file, argv, { stdio: ['ignore', 'pipe', 'pipe'] }).toString();
}

/** Starts the server; returns { url, stop }. */
export function startPostgres({ port = 55435, dir = `/tmp/qc-bench-pg-${port}` } = {}) {
  const bin = pgBin();
  try {
    asPostgres(`${bin}/pg_ctl`, ['-D', dir, '-m', 'immediate', 'stop']);
  } catch {
    /* not running */
  }
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  if (process.getuid?.() === 0) {
    const uid = Number(execFileSync('id', ['-u', 'postgres']).toString().trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres']).toString().trim());
    chownSync(dir, uid, gid);
  }
  asPostgres(`${bin}/initdb`, ['-D', dir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = [
    `-h 127.0.0.1 -p ${port} -k ${dir}`,
    '-c max_connections=100 -c shared_buffers=1GB -c work_mem=32MB -c maintenance_work_mem=1GB',
    '-c max_wal_size=8GB -c checkpoint_timeout=30min -c jit=off',
  ].join(' ');
  asPostgres(`${bin}/pg_ctl`, ['-D', dir, '-w', '-l', `${dir}/server.log`, '-o', options, 'start']);
  let stopped = false;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    version: asPostgres(`${bin}/postgres`, ['--version']).trim(),
    stop() {
      if (stopped) return;
      stopped = true;
      try {
        asPostgres(`${bin}/pg_ctl`, ['-D', dir, '-m', 'fast', 'stop']);
      } catch {
        /* already stopped */
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
