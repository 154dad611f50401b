// Directory sign-in benchmark (issue 31): prints figures, asserts nothing (DESIGN §8).
//
//   npm run node -- bench/directory/run.mjs [--runs 200]
//
// One api (in this process, SQLite, the production argon2 cost) signs in, in turn, a local account
// and a person of the repository's OpenLDAP (scripts/ldap.sh, started when it is not up: a subtree
// of its own with the seed's people), each POST /api/auth/login/ through app.inject(), interleaved
// so both see the same machine. Also the two refusals a guesser can tell apart only by time: an
// unknown address and a wrong password, local and through the directory.
import { percentile, round2 } from '../lib/measure.mjs';
import { arg, ROOT } from '../lib/server.mjs';
import { importApi as api, runUnderTsx } from '../lib/under-tsx.mjs';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

await runUnderTsx(import.meta.url, main);

async function main() {
  const runs = Number(arg('runs', 200));
  execFileSync('bash', [path.join(ROOT, 'scripts/ldap.sh'), 'start'], { stdio: 'inherit' });
  const { createTestDirectory } = await api('test/ldap.ts');
  const { buildApp } = await api('app.ts');
  const { loadConfig } = await api('config.ts');
  const { openMigratedDatabase } = await api('db/database.ts');
  const { createPasswordHasher } = await api('lib/passwords.ts');
  const { createUser } = await api('modules/users/users.service.ts');
  const dir = await createTestDirectory();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'qc-bench-directory-'));
  // The production cost of a password check (QC_ARGON2_* defaults), no sign-in rate limit in the way.
  const config = loadConfig(
    {
      ...dir.env,
      QC_DATA_DIR: dataDir,
      QC_LOG_LEVEL: 'silent',
      QC_MFA_REQUIRED_ROLES: 'none',
      QC_LOGIN_RATE_ACCOUNT_MAX: '100000',
      QC_LOGIN_RATE_IP_MAX: '100000',
    },
    dataDir,
  );
  const database = await openMigratedDatabase(config.database);
  const app = await buildApp(config, { database, mailer: { send: async () => {} } });
  await app.ready();
  const t = { app, close: () => app.close() };
  try {
    await createUser(
      { db: database.db, passwords: createPasswordHasher(config.argon2) },
      { email: 'local@example.com', password: 'local-account-password', role: 'user', domain: 'example.com' },
    );
    const signIn = async (email, password, expected) => {
      const res = await t.app.inject({ method: 'POST', url: '/api/auth/login/', payload: { email, password } });
      if (res.statusCode !== expected) throw new Error(`${email}: ${res.statusCode} ${res.body}`);
    };
    const cases = {
      'local account, right password': () => signIn('local@example.com', 'local-account-password', 200),
      'directory person, right password': () => signIn('alice@example.com', dir.password('alice'), 200),
      'local account, wrong password': () => signIn('local@example.com', 'wrong password', 401),
      'directory person, wrong password': () => signIn('alice@example.com', 'wrong password', 401),
      'unknown address (directory searched)': () => signIn('nobody@example.com', 'whatever', 401),
    };
    // Interleaved: one call of each case per round.
    const names = Object.keys(cases);
    const times = Object.fromEntries(names.map((n) => [n, []]));
    for (const n of names) await cases[n](); // warm-up (first directory connection, JIT)
    for (let i = 0; i < runs; i++) {
      for (const n of names) {
        const s = performance.now();
        await cases[n]();
        times[n].push(performance.now() - s);
      }
    }
    console.log(`sign-in through POST /api/auth/login/ (${runs} rounds, interleaved; argon2id at its defaults)`);
    console.log('| case | p50 ms | p95 ms |');
    console.log('|---|---|---|');
    const rows = {};
    for (const n of names) {
      const sorted = times[n].sort((a, b) => a - b);
      rows[n] = { p50: round2(percentile(sorted, 0.5)), p95: round2(percentile(sorted, 0.95)) };
      console.log(`| ${n} | ${rows[n].p50} | ${rows[n].p95} |`);
    }
    const ratio = (a, b) => (rows[a].p50 / rows[b].p50).toFixed(2);
    console.log(
      `directory / local (right password, p50): ${ratio('directory person, right password', 'local account, right password')}`,
    );
    console.log(
      `wrong password / unknown address through the directory (p50): ${ratio('directory person, wrong password', 'unknown address (directory searched)')}`,
    );
    console.log(
      `directory wrong / local wrong (p50): ${ratio('directory person, wrong password', 'local account, wrong password')}`,
    );
  } finally {
    await t.close();
    await dir.cleanup();
    rmSync(dataDir, { recursive: true, force: true });
  }
}
