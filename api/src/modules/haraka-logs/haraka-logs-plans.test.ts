import { createTestEnv, type TestEnv } from '../../test/helpers'; // first: it makes jest able to load kysely
import { sql } from 'kysely';
import { loadConfig } from '../../config';
import { openMigratedDatabase, type DatabaseHandle } from '../../db/database';
import { explainQuery, type PlanNode, type QueryPlan } from '../../test/query-plan';
import { DAY_MS, utcDay } from '../statistics/statistics.repository';
import {
  countsQuery,
  dayCountsQuery,
  insertLogLines,
  oldLinesQuery,
  searchLogsQuery,
  uuidLogsQuery,
  type LogFilter,
} from './haraka-logs.repository';
import { toRow } from './haraka-logs.service';

/**
 * Query plans of the Haraka log reads on a seeded set (DESIGN §5: "always bound log searches by
 * time"): the windowed list walks (ts, id) in order, a uuid is an equality on conn_uuid, the
 * retention takes the oldest lines by ts, the charts read the rollups' primary key. SQLite is
 * asserted as the app runs it (no ANALYZE); PostgreSQL after ANALYZE, on the planner's own choice.
 */
/* eslint-disable jest/no-conditional-expect */

const LINES = 60_000;
const NOW = utcDay(Date.now()) + 12 * 3600_000;
const CONNECTIONS = 6_000;
const uuidOf = (c: number) =>
  `${c.toString(16).toUpperCase().padStart(8, '0')}-AAAA-4BBB-8CCC-${String(c).padStart(12, '0')}`;
const WORDS = ['connect', 'helo', 'mail from', 'rcpt to', 'queue code=OK', 'disconnect', 'score=3', 'dkim pass'];

let env: TestEnv;
let handle: DatabaseHandle;

beforeAll(async () => {
  env = await createTestEnv();
  handle = await openMigratedDatabase(loadConfig(env.env, env.tmpDir).database);
  const rows = [];
  for (let i = 0; i < LINES; i++) {
    const c = i % CONNECTIONS;
    const ts = NOW - Math.floor((i * 30 * DAY_MS) / LINES);
    rows.push(
      toRow({
        id: `boot:${i}`,
        ts: new Date(ts).toISOString(),
        level: ['INFO', 'INFO', 'INFO', 'NOTICE', 'WARN', 'ERROR'][i % 6]!,
        hostname: `mx${i % 3}.example`,
        uuid: i % 10 === 0 ? null : i % 4 === 0 ? uuidOf(c) : `${uuidOf(c)}.${1 + (i % 3)}`,
        origin: ['core', 'rspamd', 'qconsole', 'dnsbl'][i % 4]!,
        message: `${WORDS[i % WORDS.length]} line ${i}`,
      })!,
    );
  }
  for (let i = 0; i < rows.length; i += 5000) await insertLogLines(handle.db, rows.slice(i, i + 5000));
  if (handle.dialect === 'postgres') await sql`analyze`.execute(handle.db);
}, 120_000);
afterAll(async () => {
  await handle.close();
  await env.cleanup();
});

const sqlite = () => handle.dialect === 'sqlite';
const explain = (q: Parameters<typeof explainQuery>[1]) => explainQuery(handle, q, 'default');
const DAY_WINDOW: LogFilter = { from: NOW - DAY_MS, to: NOW };

function expectPgIndex(plan: QueryPlan, index: string | RegExp) {
  const used = plan.nodes.some((n: PlanNode) =>
    typeof index === 'string' ? n.index === index : index.test(n.index ?? ''),
  );
  expect([String(index), plan.text, used]).toEqual([String(index), plan.text, true]);
  const seq = plan.nodes.filter((n) => n.type === 'Seq Scan' && n.relation === 'haraka_logs');
  expect([plan.text, seq]).toEqual([plan.text, []]);
}
const noPgSort = (plan: QueryPlan) =>
  expect([plan.text, plan.nodes.map((n) => n.type)]).toEqual([plan.text, expect.not.arrayContaining(['Sort'])]);

describe('haraka log query plans', () => {
  test('the windowed list (first and deep pages) walks (ts, id) newest first: no scan, no sort', async () => {
    for (const after of [null, { ts: NOW - 3600_000, id: 'ZZZZ' }]) {
      const plan = await explain(searchLogsQuery(handle.db, handle.dialect, DAY_WINDOW, after, 51));
      if (sqlite()) {
        expect(plan.text).toMatch(/SEARCH haraka_logs USING INDEX haraka_logs_ts \(ts>\? AND ts<\?\)/);
        expect(plan.text).not.toMatch(/TEMP B-TREE|SCAN haraka_logs/);
      } else {
        expectPgIndex(plan, 'haraka_logs_ts');
        noPgSort(plan);
      }
    }
  });

  test('a text search is bounded by the window (SQLite: LIKE along the ts index; PostgreSQL: an index, no scan)', async () => {
    const plan = await explain(
      searchLogsQuery(handle.db, handle.dialect, { ...DAY_WINDOW, q: 'queue code' }, null, 51),
    );
    if (sqlite()) expect(plan.text).toMatch(/SEARCH haraka_logs USING INDEX haraka_logs_ts \(ts>\? AND ts<\?\)/);
    else expectPgIndex(plan, /^haraka_logs_(ts|message_trgm)$/);
  });

  test('the list filtered by uuid, severity or hostname uses that column’s index within the window', async () => {
    const cases: [LogFilter, RegExp][] = [
      [{ ...DAY_WINDOW, uuid: uuidOf(42) }, /haraka_logs_conn \(conn_uuid=\? AND ts>\? AND ts<\?\)/],
      [{ ...DAY_WINDOW, uuid: `${uuidOf(42)}.1` }, /haraka_logs_conn \(conn_uuid=\? AND ts>\? AND ts<\?\)/],
      [{ ...DAY_WINDOW, severities: ['ERROR'] }, /haraka_logs_severity \(severity=\? AND ts>\? AND ts<\?\)/],
      [{ ...DAY_WINDOW, hostname: 'mx1.example' }, /haraka_logs_hostname \(hostname=\? AND ts>\? AND ts<\?\)/],
    ];
    for (const [filter, index] of cases) {
      const plan = await explain(searchLogsQuery(handle.db, handle.dialect, filter, null, 51));
      if (sqlite()) {
        expect(plan.text).toMatch(index);
        expect(plan.text).not.toMatch(/TEMP B-TREE/);
      } else {
        expectPgIndex(plan, /^haraka_logs_(conn|severity|hostname|ts)$/);
      }
    }
  });

  // PostgreSQL may fetch a connection's few rows by bitmap and sort them: cheaper, still no scan.
  test('the lines of a connection or a transaction: an equality on conn_uuid (SQLite: in order, no sort)', async () => {
    for (const uuid of [uuidOf(42), `${uuidOf(42)}.2`]) {
      const plan = await explain(uuidLogsQuery(handle.db, uuid, 5001));
      if (sqlite()) {
        expect(plan.text).toMatch(/SEARCH haraka_logs USING INDEX haraka_logs_conn \(conn_uuid=\?\)/);
        expect(plan.text).not.toMatch(/TEMP B-TREE/);
      } else {
        expectPgIndex(plan, 'haraka_logs_conn');
      }
    }
  });

  test('retention takes the oldest lines by ts; the charts read the rollups by (dim, day)', async () => {
    const purge = await explain(oldLinesQuery(NOW - 20 * DAY_MS, 5000));
    if (sqlite()) expect(purge.text).toMatch(/SEARCH haraka_logs USING (COVERING )?INDEX haraka_logs_ts \(ts<\?\)/);
    else expectPgIndex(purge, 'haraka_logs_ts');
    for (const byDay of [true, false]) {
      const plan = await explainQuery(
        handle,
        countsQuery(handle.db, 'day', NOW - 365 * DAY_MS, NOW, byDay),
        'no-seqscan',
      );
      if (sqlite())
        expect(plan.text).toMatch(
          /SEARCH haraka_log_counts USING (COVERING )?INDEX sqlite_autoindex_haraka_log_counts_1 \(dim=\? AND day>\? AND day<\?\)/,
        );
      else expect(plan.nodes.some((n) => n.index === 'haraka_log_counts_pk')).toBe(true);
    }
    // The per-day chart reads its rows as kept: a range of the primary key, nothing grouped or sorted.
    const days = await explainQuery(handle, dayCountsQuery(handle.db, NOW - 365 * DAY_MS, NOW), 'no-seqscan');
    if (sqlite()) {
      expect(days.text).toMatch(
        /SEARCH haraka_log_counts USING (COVERING )?INDEX sqlite_autoindex_haraka_log_counts_1 \(dim=\? AND day>\? AND day<\?\)/,
      );
      expect(days.text).not.toMatch(/TEMP B-TREE/);
    } else {
      expect(days.nodes.some((n) => n.index === 'haraka_log_counts_pk')).toBe(true);
      expect(days.nodes.some((n) => /Sort|Aggregate/.test(n.type))).toBe(false);
    }
  });
});
