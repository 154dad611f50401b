// Rspamd rules benchmark: prints figures, asserts nothing (DESIGN §8).
//
//   npm run node -- bench/rspamd/run.mjs [--entries 100000] [--db sqlite|postgres|sqlite,postgres]
//                             [--changes 20] [--watch 1,5] [--skip-build] [--skip-live]
//
// 1. Map build: a fresh database (the api's migrations) seeded in SQL with N domain filters (exact,
//    wildcard, regex over the four actions) and N control-panel filters, then the map route itself
//    (GET /api/rspamd/maps/<map>, app.inject): the first answer (query + build of every map of the
//    list), the next one (cached), a 304, and a rebuild after a change; the query and the pure build
//    apart. PostgreSQL is a throwaway server on 55437.
// 2. Save → live: the real api (SQLite) and the real mail stack (Rspamd, Haraka, Redis on loopback).
//    For each polling setting (Rspamd's map_watch_interval = the api's Expires, in seconds: 1 is the
//    loopback stack's, 5 docker-compose's), --changes times: a new domain filter is saved (POST
//    /api/rspamd/filters/domains/ as the admin), then /checkv2 on Rspamd's normal worker is asked
//    every 100 ms until the verdict carries the filter's symbol and token. Median and max.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { arg, ROOT } from '../lib/server.mjs';
import { importApi as api, runUnderTsx } from '../lib/under-tsx.mjs';
import { startPostgres } from '../quarantine/pg.mjs';

const round = (ms) => Math.round(ms * 10) / 10;
const stats = (values) => {
  const s = [...values].sort((a, b) => a - b);
  return { n: s.length, min: s[0], median: s[Math.floor((s.length - 1) / 2)], max: s[s.length - 1] };
};
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

await runUnderTsx(import.meta.url, main);

async function main() {
  if (!arg('skip-build', false)) {
    for (const db of String(arg('db', 'sqlite,postgres')).split(','))
      await buildBench(db, Number(arg('entries', 100_000)));
  }
  if (!arg('skip-live', false)) {
    for (const watch of String(arg('watch', '1,5')).split(',').map(Number))
      await liveBench(watch, Number(arg('changes', 20)));
  }
}

async function buildBench(kind, entries) {
  const { loadConfig } = await api('config.ts');
  const { openMigratedDatabase } = await api('db/database.ts');
  const { buildApp } = await api('app.ts');
  const { buildFilterMaps } = await api('modules/rspamd-maps/map-builder.ts');
  const { enabledFilters } = await api('modules/rspamd-maps/maps.repository.ts');

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'qc-bench-rspamd-'));
  const pg = kind === 'postgres' ? startPostgres({ port: 55437 }) : null;
  const token = randomBytes(18).toString('hex');
  const env = {
    QC_DATA_DIR: dataDir,
    QC_SECRET_KEY: randomBytes(32).toString('base64url'),
    QC_LOG_LEVEL: 'silent',
    QC_RSPAMD_MAPS_TOKEN: token,
    ...(pg ? { QC_DATABASE_URL: pg.url } : {}),
  };
  const config = loadConfig(env, dataDir);
  const database = await openMigratedDatabase(config.database);
  const { db } = database;
  try {
    const now = Date.now();
    const actions = ['reject', 'accept', 'add_header', 'quarantine'];
    const id = (prefix, i) => `${prefix}${String(i).padStart(24, '0')}`;
    const t0 = performance.now();
    for (let start = 0; start < entries; start += 2000) {
      const rows = [];
      const apanel = [];
      for (let i = start; i < Math.min(entries, start + 2000); i++) {
        const kindOf = i % 5; // 3/5 exact, 1/5 wildcard, 1/5 regex
        const value =
          kindOf < 3 ? `d${i}.example` : kindOf === 3 ? `*.w${i}.example` : `/^(mx|smtp)${i}\\.r\\.example$/i`;
        const pattern_type = kindOf < 3 ? 'exact' : kindOf === 3 ? 'wildcard' : 'regex';
        const base = { enabled: 1, created_at: now, updated_at: now, description: 'bench' };
        rows.push({ ...base, id: id('F', i), type: 'domains', value, pattern_type, action: actions[i % 4] });
        apanel.push({
          ...base,
          id: id('A', i),
          owner_id: null,
          from_pattern: `*@s${i}.example`,
          to_pattern: `u${i}@corp.example`,
          action: 'discard',
        });
      }
      await db.insertInto('rspamd_filters').values(rows).execute();
      await db.insertInto('apanel_filters').values(apanel).execute();
    }
    const seedMs = performance.now() - t0;

    const q0 = performance.now();
    const rows = await enabledFilters(db, 'domains');
    const queryMs = performance.now() - q0;
    const b0 = performance.now();
    const maps = buildFilterMaps('domains', 1, rows);
    const pureMs = performance.now() - b0;

    const app = await buildApp(config, { database });
    await app.ready();
    const auth = { authorization: `Basic ${Buffer.from(`rspamd:${token}`).toString('base64')}` };
    const get = async (map, headers = {}) => {
      const s = performance.now();
      const res = await app.inject({ method: 'GET', url: `/api/rspamd/maps/${map}`, headers: { ...auth, ...headers } });
      return { ms: performance.now() - s, res };
    };
    const cold = await get('filters-domains-exact-reject');
    const warm = await get('filters-domains-regex-accept');
    const notModified = await get('filters-domains-exact-reject', { 'if-none-match': cold.res.headers.etag });
    await db
      .updateTable('rspamd_lists')
      .set({ version: 99, changed_at: Date.now() })
      .where('name', '=', 'filters-domains')
      .execute();
    const rebuilt = await get('filters-domains-exact-reject');
    const apanelCold = await get('apanel-filters.json');
    const bytes = [...maps.values()].reduce((sum, b) => sum + Buffer.byteLength(b), 0);
    console.log(
      JSON.stringify({
        bench: 'map build',
        db: kind,
        version: pg?.version,
        entries,
        seedMs: round(seedMs),
        domains: {
          queryMs: round(queryMs),
          pureBuildMs: round(pureMs),
          routeFirstMs: round(cold.ms),
          routeCachedMs: round(warm.ms),
          route304Ms: round(notModified.ms),
          routeAfterChangeMs: round(rebuilt.ms),
          maps: maps.size,
          bytes,
          status: [cold.res.statusCode, warm.res.statusCode, notModified.res.statusCode, rebuilt.res.statusCode],
        },
        apanel: { routeFirstMs: round(apanelCold.ms), bytes: Buffer.byteLength(apanelCold.res.body) },
      }),
    );
    await app.close();
  } finally {
    await database.close().catch(() => {});
    pg?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function liveBench(watch, changes) {
  const require = createRequire(path.join(ROOT, 'mailstack/package.json'));
  const { startMailStack, startSink } = require('./index.js');
  const { freePort, request } = require('./lib/net.js');
  const { startRealApi, TOKEN } = require('./test/helpers.js');
  const { rulesClient } = require('./test/rules.js');
  const mapsToken = randomBytes(18).toString('hex');
  const api = await startRealApi({ port: await freePort(), token: TOKEN, mapsToken, mapsExpires: watch });
  const sink = await startSink();
  let stack;
  try {
    stack = await startMailStack({
      apiUrl: api.url,
      ingestToken: TOKEN,
      nextHop: `127.0.0.1:${sink.port}`,
      maps: { token: mapsToken },
      mapWatchInterval: watch,
    });
    await api.login();
    const rules = rulesClient(api);
    const probe = async (domain) => {
      const res = await request(`${stack.rspamd.url}/checkv2`, {
        method: 'POST',
        headers: { IP: '127.0.0.1', Hostname: 'localhost', From: `x@${domain}`, Rcpt: 'bob@example.com' },
        body: `From: <x@${domain}>\r\nSubject: bench\r\n\r\nhello\r\n`,
      });
      return JSON.parse(res.body).symbols?.QC_FILTER_DOMAINS_REJECT_EXACT?.options ?? [];
    };
    await sleep(3000); // the first fetches after the start
    const times = [];
    for (let i = 0; i < changes; i++) {
      await sleep(Math.floor(Math.random() * watch * 1000)); // saves fall anywhere in the polling cycle
      const domain = `bench-${i}-${randomBytes(3).toString('hex')}.example`;
      const t0 = Date.now();
      const id = await rules.create('filter', 'domains', {
        value: domain,
        pattern_type: 'exact',
        action: 'reject',
        description: 'bench',
      });
      let live = false;
      while (!live && Date.now() - t0 < 60_000) {
        live = (await probe(domain)).includes(`filter:${id}`);
        if (!live) await sleep(100);
      }
      times.push(live ? Date.now() - t0 : Infinity);
    }
    console.log(
      JSON.stringify({
        bench: 'save → live in Rspamd',
        mapWatchIntervalS: watch,
        expiresS: watch,
        savedVia: 'POST /api/rspamd/filters/domains/',
        ms: stats(times),
        all: times,
      }),
    );
  } finally {
    await stack?.stop();
    await sink.close();
    await api.close();
  }
}
