// Users administration benchmark: prints figures, asserts nothing (DESIGN §8).
//
//   npm run node -- bench/users/run.mjs [--db sqlite|postgres|sqlite,postgres] [--users 100000] [--budget-ms 1500]
//
// For each database: a fresh database migrated by the api, seeded straight in SQL with N users over
// 100 domains, then p50/p95 of the service GET /api/users/ calls (listManagedUsers): the first
// page for an admin (by e-mail, by date joined), a domain_admin's first page, a later page, and
// searches (a rare prefix, a common one, a first name). PostgreSQL is a throwaway server on 55436.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measure } from '../lib/measure.mjs';
import { arg, ROOT } from '../lib/server.mjs';
import { apiRequire, importApi as api, runUnderTsx } from '../lib/under-tsx.mjs';
import { startPostgres } from '../quarantine/pg.mjs';

const FIRST = ['anna', 'bruno', 'chloé', 'david', 'émile', 'fatima', 'georges', 'hugo', 'inès', 'jules'];
const LAST = ['martin', 'bernard', 'dubois', 'thomas', 'robert', 'richard', 'petit', 'durand', 'leroy', 'moreau'];
const DOMAINS = 100;

await runUnderTsx(import.meta.url, main);

async function main() {
  const { sql } = apiRequire('kysely');
  const { loadConfig } = await api('config.ts');
  const { openMigratedDatabase } = await api('db/database.ts');
  const { listManagedUsers } = await api('modules/users/users-list.service.ts');
  const { UserListQuery } = await import(path.join(ROOT, 'shared/contracts/src/index.ts'));

  const dbs = String(arg('db', 'sqlite,postgres')).split(',');
  const count = Number(arg('users', 100_000));
  const budgetMs = Number(arg('budget-ms', 1500));

  async function seed(db) {
    const now = Date.now();
    const domains = Array.from({ length: DOMAINS }, (_, i) => ({
      id: `dom${String(i).padStart(4, '0')}`,
      name: `d${i}.example`,
      description: '',
      created_at: now,
      updated_at: now,
    }));
    await db.insertInto('domains').values(domains).execute();
    const batch = 500;
    for (let start = 0; start < count; start += batch) {
      const rows = [];
      for (let i = start; i < Math.min(count, start + batch); i++) {
        const first = FIRST[i % FIRST.length];
        const last = LAST[Math.floor(i / FIRST.length) % LAST.length];
        rows.push({
          id: `usr${String(i).padStart(8, '0')}`,
          username: `${first}.${last}.${i}`,
          email: `${first.normalize('NFD').replace(/[^a-z]/g, '')}.${last}.${i}@d${i % DOMAINS}.example`,
          first_name: first[0].toUpperCase() + first.slice(1),
          last_name: last[0].toUpperCase() + last.slice(1),
          password_hash: '',
          role: i % 50 === 0 ? 'domain_admin' : 'user',
          domain_id: domains[i % DOMAINS].id,
          is_external: 0,
          is_active: i % 20 === 0 ? 0 : 1,
          mfa_enabled: i % 3 === 0 ? 1 : 0,
          mfa_secret: null,
          mfa_pending_secret: null,
          mfa_last_step: null,
          mfa_required: 0,
          last_login: null,
          mfa_pending_at: null,
          credentials_at: null,
          date_joined: now - (count - i) * 60_000,
        });
      }
      await db.insertInto('users').values(rows).execute();
    }
    await sql`analyze`.execute(db);
  }

  const results = {};
  for (const dialect of dbs) {
    const tmp = mkdtempSync(path.join(os.tmpdir(), 'qc-bench-users-'));
    const server = dialect === 'postgres' ? startPostgres({ port: 55436 }) : null;
    const env = {
      QC_DATA_DIR: tmp,
      QC_SECRET_KEY: randomBytes(32).toString('hex'),
      ...(server ? { QC_DATABASE_URL: server.url } : {}),
    };
    const config = loadConfig(env, tmp);
    const handle = await openMigratedDatabase(config.database);
    try {
      const t0 = performance.now();
      await seed(handle.db);
      console.log(`${dialect}: seeded ${count} users in ${Math.round(performance.now() - t0)} ms`);
      const admin = { userId: null, role: 'admin', domainId: null, actor: null };
      const domainAdmin = { userId: null, role: 'domain_admin', domainId: 'dom0007', actor: null };
      const list = (by, q) => listManagedUsers(handle.db, by, UserListQuery.parse(q), []);
      const second = (await list(admin, { page_size: '50' })).next_cursor;
      const cases = {
        'admin, first page by e-mail': () => list(admin, { page_size: '50' }),
        'admin, first page by date joined (newest)': () => list(admin, { ordering: '-date_joined', page_size: '50' }),
        'admin, second page by e-mail': () => list(admin, { page_size: '50', cursor: second }),
        'admin, role + active filters': () => list(admin, { role: 'domain_admin', is_active: 'true', page_size: '50' }),
        "domain_admin, their domain's first page": () => list(domainAdmin, { page_size: '50' }),
        'search, rare prefix (one user)': () => list(admin, { q: 'hugo.petit.4567', page_size: '50' }),
        'search, common prefix (10 % of users)': () => list(admin, { q: 'anna', page_size: '50' }),
        'search, a last name (10 %)': () => list(admin, { q: 'Dubois', page_size: '50' }),
        "search within a domain_admin's domain": () => list(domainAdmin, { q: 'hugo', page_size: '50' }),
      };
      results[dialect] = {};
      for (const [name, fn] of Object.entries(cases)) {
        const rows = (await fn()).results.length;
        results[dialect][name] = { ...(await measure(fn, { warmUp: 3, min: 10, max: 500, budgetMs })), rows };
      }
    } finally {
      await handle.close();
      server?.stop();
      rmSync(tmp, { recursive: true, force: true });
    }
  }

  console.log(`\nGET /api/users/ through the service, ${count} users over ${DOMAINS} domains, p50 / p95 ms (rows):\n`);
  const names = Object.keys(Object.values(results)[0] ?? {});
  console.log(['case'.padEnd(46), ...dbs.map((d) => d.padStart(24))].join(''));
  for (const name of names) {
    const cells = dbs.map((d) => {
      const r = results[d][name];
      return `${r.p50} / ${r.p95} (${r.rows})`.padStart(24);
    });
    console.log([name.padEnd(46), ...cells].join(''));
  }
  console.log(
    `\n${os.cpus().length} CPUs, load average ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}
