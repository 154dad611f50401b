import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { REPO_ROOT } from './config';
import { MIN_NODE_MAJOR, unsupportedNode } from './lib/node-version';

test('unsupportedNode: Node.js 22 and newer run the api; older ones and unreadable versions get a clear message', () => {
  expect(unsupportedNode('22.0.0')).toBeUndefined();
  expect(unsupportedNode('24.22.3')).toBeUndefined();
  expect(unsupportedNode('v26.1.0')).toBeUndefined();
  expect(unsupportedNode('21.7.3')).toBe(
    "Quarantine Console needs Node.js 22 or newer; this is Node.js 21.7.3. Start it with 'npm start' " +
      "(or 'npm run serve'), which run the project's own Node.js 24 from .tools/node.",
  );
  expect(unsupportedNode('20.19.0')).toContain('this is Node.js 20.19.0');
  expect(unsupportedNode('unknown')).toContain(`needs Node.js ${MIN_NODE_MAJOR} or newer`);
});

test('the tests run on the Node.js that scripts/lib.sh pins (npm test runs every step with it)', () => {
  const pinned = /^NODE_VERSION=(\S+)$/m.exec(readFileSync(path.join(REPO_ROOT, 'scripts/lib.sh'), 'utf8'))?.[1];
  expect(pinned).toMatch(/^24\./);
  expect(process.versions.node).toBe(pinned);
});

/** A Node.js older than MIN_NODE_MAJOR on the PATH, outside the project: the machine's own (20 here). */
function olderNode(): { bin: string; version: string } | undefined {
  for (const dir of (process.env.PATH ?? '').split(path.delimiter)) {
    const bin = path.join(dir, 'node');
    if (!dir || dir.startsWith(REPO_ROOT) || !existsSync(bin)) continue;
    const version = spawnSync(bin, ['-p', 'process.versions.node'], { encoding: 'utf8' }).stdout?.trim();
    if (version && unsupportedNode(version)) return { bin, version };
  }
  return undefined;
}

const older = olderNode();
// Machines of this kind bootstrap with Node.js 20, so this runs here and in CI; a machine whose
// own Node is 22+ has no older one to try it with.
(older ? test : test.skip)(
  `the real entry point refuses to start on an older Node.js (${older?.version ?? 'none on the PATH'}), before it opens anything`,
  () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'qc-old-node-'));
    try {
      const tsx = path.dirname(require.resolve('tsx/package.json', { paths: [path.join(REPO_ROOT, 'api')] }));
      const tsxCli = path.join(tsx, 'dist', 'cli.mjs');
      const run = spawnSync(older!.bin, [tsxCli, 'api/src/main.ts'], {
        cwd: REPO_ROOT,
        encoding: 'utf8',
        timeout: 30_000,
        env: { ...process.env, QC_DATA_DIR: dataDir, QC_PORT: '0', QC_HOST: '127.0.0.1' },
      });
      expect(run.signal).toBeNull(); // not a crash (better-sqlite3 13 segfaults on Node 20 when loaded)
      expect(run.status).toBe(1);
      expect(run.stderr).toContain(
        `Quarantine Console needs Node.js ${MIN_NODE_MAJOR} or newer; this is Node.js ${older!.version}.`,
      );
      expect(run.stdout).toBe('');
      expect(readdirSync(dataDir)).toEqual([]); // no database, no key: nothing was opened
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
  40_000,
);
