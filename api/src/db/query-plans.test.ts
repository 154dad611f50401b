import { createTestEnv, postgresOnly, type TestEnv } from '../test/helpers'; // first: it makes jest able to load kysely
import { sql, type Compilable, type RawBuilder } from 'kysely';
import { explainQuery, type PlanNode } from '../test/query-plan';
import { loadConfig } from '../config';
import { newId } from '../lib/ids';
import { listHistoryQuery, readerKey } from '../modules/history/history.repository';
import { fillHistoryAudience } from './migration-0012-history-audience';
import {
  firstRecipientsQuery,
  visibleRecipientsQuery,
  listPageQuery,
  listKeysQuery,
  senderHitIds,
  senderHitsQuery,
  statusCountsQuery,
  textHitsQuery,
} from '../modules/quarantine/list.repository';
import type { Scope } from '../modules/quarantine/quarantine-scope';
import { purgeCandidatesQuery } from '../modules/retention/retention.repository';
import { DAY_MS, dailyForScopeQuery, rebuildStatistics, utcDay } from '../modules/statistics/statistics.repository';
import { openMigratedDatabase, type DatabaseHandle } from './database';

/**
 * Query plans on a seeded data set (DESIGN §5): each list scope, the text search, the statistics, the
 * history and the retention scan use their index. SQLite is planned as the app runs it (no ANALYZE):
 * its plans are fixed by the query shape, so they are asserted exactly. PostgreSQL plans by cost
 * after ANALYZE: on 20k rows a sequential scan (or a hash of a small table) is sometimes genuinely
 * cheaper, so per scope the plans are taken with enable_seqscan off, which shows that the query's
 * shape is served by the scope's index; the keyset walks whose choice must hold at any size (the
 * admin's and the largest domain's pages) are asserted on the planner's own choice.
 */

// Each test asserts the plan of the database the run uses: the api project runs this file once on
// SQLite and once on PostgreSQL, so each run takes exactly one branch of every `if (sqlite())` and
// every branch runs in `npm test`. Split per dialect, the shared seeding and scopes would be repeated.
/* eslint-disable jest/no-conditional-expect */

const MESSAGES = 20_000;
const DOMAINS = 40;
const NOW = utcDay(Date.now()) + 12 * 3600_000;
/** About a quarter of the mail (the Zipf head), and about 3 %. */
const HEAVY_DOMAIN = 'd0.example';
const DOMAIN = 'd5.example';
/** A user who gets one mail in 40 (500 rows a year): a heavy spam target. */
const USER = 'heavy@d0.example';
const HISTORY = 20_000;
const HASH = (i: number) => (i * 2654435761) % 4294967296;
/** Zipf-like: d0 gets about a quarter of the mail. */
const domainOf = (i: number) => Math.floor(DOMAINS * (HASH(i) / 4294967296) ** 2.5);
const WORDS = ['invoice', 'meeting', 'prize', 'parcel', 'account', 'offer', 'update', 'notice', 'report', 'hello'];

let env: TestEnv;
let handle: DatabaseHandle;

async function seed() {
  const { db } = handle;
  const messages: unknown[][] = [];
  const recipients: unknown[][] = [];
  for (let i = 0; i < MESSAGES; i++) {
    const h = HASH(i + 1);
    const receivedAt = NOW - Math.floor((i * 365 * DAY_MS) / MESSAGES) - (h % 60_000);
    const id = newId(receivedAt);
    const age = (NOW - receivedAt) / DAY_MS;
    const subject = `${WORDS[h % WORDS.length]} number Q${(i * 7919) % 10_000_019}`;
    messages.push([
      id,
      receivedAt,
      `sender${h % 500}@spam${h % 50}.example`,
      subject,
      (h % 2000) / 100,
      'reject',
      2000,
    ]);
    const roll = (h >> 8) % 100;
    const status =
      age > 30 ? (roll < 88 ? 'deleted' : roll < 95 ? 'released' : 'pending') : roll < 70 ? 'pending' : 'released';
    const addresses = [`u${h % 100}@d${domainOf(i)}.example`];
    if (i % 5 === 0) addresses.push(`u${(h >> 4) % 100}@d${domainOf(i + 7)}.example`);
    if (i % 40 === 0) addresses.push(USER);
    for (const address of addresses) {
      const domain = address.slice(address.indexOf('@') + 1);
      recipients.push([
        id,
        address,
        domain,
        status,
        receivedAt,
        status === 'pending' ? receivedAt : receivedAt + 3600_000,
      ]);
    }
  }
  const insert = async (table: string, columns: string[], rows: unknown[][]) => {
    for (let i = 0; i < rows.length; i += 500) {
      const values = rows.slice(i, i + 500).map((r) => sql`(${sql.join(r)})`);
      await sql`insert into ${sql.table(table)} (${sql.join(columns.map((c) => sql.ref(c)))}) values ${sql.join(values)}`.execute(
        db,
      );
    }
  };
  await insert(
    'quarantine_messages',
    ['id', 'received_at', 'sender', 'subject', 'score', 'action', 'size'].concat(['created_at']),
    messages.map((m) => [...m, NOW]),
  );
  // Unique (message, recipient): a second recipient that hashed onto the first is dropped.
  const seen = new Set<string>();
  await insert(
    'quarantine_recipients',
    ['message_id', 'recipient', 'domain', 'status', 'received_at', 'updated_at'],
    recipients.filter((r) => !seen.has(`${r[0]}\n${r[1]}`) && seen.add(`${r[0]}\n${r[1]}`)),
  );
  const history: unknown[][] = [];
  for (let i = 0; i < HISTORY; i++) {
    const created = NOW - Math.floor((i * 365 * DAY_MS) / HISTORY);
    const actor = i % 5 === 0 ? 7 : i % 300; // actor7 acts a fifth of the time
    const d = actor === 7 ? 0 : domainOf(i);
    history.push([
      newId(created),
      created,
      `actor${actor}`,
      `user${actor}@d${d}.example`,
      'user',
      `d${d}.example`,
      'delete',
      'x',
      'success',
    ]);
  }
  await insert(
    'history',
    ['id', 'created_at', 'actor_id', 'actor_email', 'actor_role', 'actor_domain', 'action', 'email_id', 'result'],
    history,
  );
  await fillHistoryAudience(db);
  if (handle.dialect === 'sqlite') {
    await sql`insert into quarantine_search (message_id, recipient, domain, body)
      select id, '', '', coalesce(subject, '') || char(10) || sender || char(10) || envelope_from from quarantine_messages`.execute(
      db,
    );
    await sql`insert into quarantine_search (message_id, recipient, domain, body)
      select message_id, recipient, domain, recipient from quarantine_recipients`.execute(db);
  }
  await rebuildStatistics(db);
  if (handle.dialect === 'postgres') await sql`analyze`.execute(db);
}

beforeAll(async () => {
  env = await createTestEnv();
  handle = await openMigratedDatabase(loadConfig(env.env, env.tmpDir).database);
  // history.actor_id references users: the seeded actors must exist.
  for (let i = 0; i < 300; i++) {
    await handle.db
      .insertInto('users')
      .values({
        id: `actor${i}`,
        username: `actor${i}`,
        email: `actor${i}@seed.example`,
        password_hash: 'x',
        role: 'user',
        date_joined: NOW,
      } as never)
      .execute();
  }
  await seed();
}, 120_000);
afterAll(async () => {
  await handle.close();
  await env.cleanup();
});

/** PostgreSQL: with enable_seqscan off unless `planner: 'default'`. */
const explain = (query: Compilable | RawBuilder<unknown>, options: { planner?: 'default' | 'no-seqscan' } = {}) =>
  explainQuery(handle, query, options.planner ?? 'no-seqscan');

const BIG_TABLES = /^(quarantine_messages|quarantine_recipients|history|history_audience|quarantine_daily)$/;

/** PostgreSQL: the plan reads each of `indexes` (a name or a pattern) and scans no big table sequentially. */
function expectPgIndex(plan: { nodes: PlanNode[]; text: string }, ...indexes: (string | RegExp)[]) {
  for (const index of indexes) {
    const used = plan.nodes.some((n) => (typeof index === 'string' ? n.index === index : index.test(n.index ?? '')));
    expect([String(index), plan.text, used]).toEqual([String(index), plan.text, true]);
  }
  const seq = plan.nodes.filter((n) => n.type === 'Seq Scan' && BIG_TABLES.test(n.relation ?? ''));
  expect([plan.text, seq]).toEqual([plan.text, []]);
}

/** PostgreSQL: rows come in index order, the LIMIT stops the scan (no sort of the table). */
function expectPgOrdered(plan: { nodes: PlanNode[]; text: string }) {
  expect([plan.text, plan.nodes.map((n) => n.type)]).toEqual([plan.text, expect.not.arrayContaining(['Sort'])]);
}

const sqlite = () => handle.dialect === 'sqlite';
const HELD = ['pending', 'releasing', 'release_failed', 'release_unknown'] as const;
const CURSOR = { received_at: NOW - 200 * DAY_MS, message_id: 'ZZZZZZZZZZ' };
const YEAR = [utcDay(NOW) - 364 * DAY_MS, utcDay(NOW)] as const;

describe.each([
  // PostgreSQL may also take a user's rows of some statuses by (recipient, status, updated_at), then sort them.
  [
    'user',
    { kind: 'recipient', addresses: [USER] } as Scope,
    'qr_recipient_date',
    /^qr_recipient_(date|status_updated)$/,
  ],
  ['domain_admin', { kind: 'domain', domain: DOMAIN } as Scope, 'qr_domain_date', /^qr_domain_date$/],
  ['admin', { kind: 'all' } as Scope, 'qr_date', /^qr_date$/],
])('list, %s scope', (_role, scope, index, pgIndex) => {
  test('first and deep keyset pages walk the scope’s index in order (no sort)', async () => {
    for (const after of [null, CURSOR]) {
      for (const statuses of [[...HELD], null]) {
        const plan = await explain(listKeysQuery(handle.db, scope, { statuses }, after, 51));
        if (sqlite()) {
          expect(plan.text).toMatch(new RegExp(`USING COVERING INDEX ${index}\\b`));
          expect(plan.text).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
        } else {
          expectPgIndex(plan, pgIndex);
        }
      }
    }
  });

  test('a page’s messages are read by primary key after the keyset walk (no scan, no second sort of the table)', async () => {
    const plan = await explain(listPageQuery(handle.db, scope, { statuses: [...HELD] }, null, 51));
    if (sqlite()) {
      expect(plan.text).toMatch(new RegExp(`USING COVERING INDEX ${index}\\b`));
      expect(plan.text).toMatch(/SEARCH m USING INDEX sqlite_autoindex_quarantine_messages_1 \(id=\?\)/);
      expect(plan.text).not.toMatch(/SCAN m\b/);
    } else {
      expectPgIndex(plan, pgIndex, 'quarantine_messages_pkey');
    }
  });

  test('a deep page seeks to the cursor (an index range), it does not walk from the newest row', async () => {
    const plan = await explain(listKeysQuery(handle.db, scope, { statuses: null }, CURSOR, 51));
    if (sqlite())
      expect(plan.text).toMatch(new RegExp(`SEARCH r USING COVERING INDEX ${index} \\(.*received_at<\\?\\)`));
    else expect(plan.conds.some((c) => /received_at/.test(c))).toBe(true);
  });

  test('the page’s recipients and statuses are read by primary key, not through the scope’s index', async () => {
    const ids = ['A', 'B', 'C'];
    for (const query of [
      visibleRecipientsQuery(handle.db, ids, scope),
      firstRecipientsQuery(handle.db, ids, scope, 20),
      statusCountsQuery(handle.db, ids, scope, NOW),
    ]) {
      const plan = await explain(query);
      if (sqlite()) {
        expect(plan.text).toMatch(
          /SEARCH quarantine_recipients USING INDEX (sqlite_autoindex_quarantine_recipients_1|qr_pk) \(message_id=\?/,
        );
      } else {
        expectPgIndex(plan, 'qr_pk');
      }
    }
  });

  test('filters on the message (score, action, dates) probe it by primary key along the index', async () => {
    const f = { statuses: null, scoreMin: 10, action: 'reject', dateFrom: NOW - 90 * DAY_MS };
    const plan = await explain(listKeysQuery(handle.db, scope, f, null, 51));
    if (sqlite()) {
      expect(plan.text).toMatch(new RegExp(`USING (COVERING )?INDEX ${index}\\b`));
      expect(plan.text).toMatch(/SEARCH m USING INDEX sqlite_autoindex_quarantine_messages_1 \(id=\?\)/);
      expect(plan.text).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    } else {
      expectPgIndex(plan, pgIndex, 'quarantine_messages_pkey');
    }
  });

  test('search: the trigram index for hits first; a common term is tested along the keyset scan', async () => {
    const hits = await explain(textHitsQuery(handle.db, scope, 'Q1234567', 4001));
    if (sqlite()) expect(hits.text).toMatch(/SCAN quarantine_search VIRTUAL TABLE INDEX/);
    else expectPgIndex(hits, 'qm_subject_fold_trgm', 'qm_sender_fold_trgm', 'qm_envelope_from_fold_trgm');
    // A Haraka uuid or a client IP: exact, by index (issue 23).
    const byIp = await explain(textHitsQuery(handle.db, scope, '198.51.100.23', 4001));
    if (sqlite()) expect(byIp.text).toMatch(/USING INDEX qm_ip_address \(ip_address=\?\)/);
    else expectPgIndex(byIp, 'qm_ip_address');
    // A Message-ID is also looked up exactly, by its own index.
    const byMessageId = await explain(textHitsQuery(handle.db, scope, '<a1b2c3@mail.example>', 4001));
    if (sqlite()) expect(byMessageId.text).toMatch(/SEARCH m USING INDEX qm_message_id \(<expr>=\?\)/);
    else expectPgIndex(byMessageId, 'qm_message_id', 'qm_subject_fold_trgm');

    const many = await explain(listKeysQuery(handle.db, scope, { statuses: [...HELD], q: 'invoice' }, null, 51));
    if (sqlite()) {
      expect(many.text).toMatch(new RegExp(`(SCAN|SEARCH) r USING (COVERING )?INDEX ${index}\\b`));
      expect(many.text).toMatch(/SEARCH t USING INDEX sqlite_autoindex_quarantine_messages_1 \(id=\?\)/);
      expect(many.text).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    } else {
      expectPgIndex(many, pgIndex, 'quarantine_messages_pkey');
    }

    const few = await explain(
      listKeysQuery(handle.db, scope, { statuses: null, q: 'Q1234567', textIds: ['A', 'B', 'C'] }, null, 51),
    );
    if (sqlite()) {
      expect(few.text).toMatch(
        /SEARCH r USING (COVERING )?INDEX (sqlite_autoindex_quarantine_recipients_1|qr_pk) \(message_id=\?/,
      );
    } else {
      expectPgIndex(few, 'qr_pk');
    }
  });

  // SQLite tests the sender along the scope's index (the filters test above).
  postgresOnly(
    'a sender on PostgreSQL: the trigram indexes for hits first, then their rows by primary key',
    async () => {
      const hits = await explain(senderHitsQuery(handle.db, '@spam7.', 4001));
      expectPgIndex(hits, 'qm_sender_trgm', 'qm_envelope_from_trgm');
      const f = { statuses: null, sender: '@spam7.', senderIds: ['A', 'B', 'C'] };
      const few = await explain(listKeysQuery(handle.db, scope, f, null, 51));
      expectPgIndex(few, 'qr_pk');
      expect(few.nodes.filter((n) => n.relation === 'quarantine_messages')).toEqual([]); // the ids stand for the sender
      // Complete up to the limit; one hit more and the sender is tested along the keyset walk instead.
      const { ids } = await senderHitIds(handle.db, '@spam7.', 100_000);
      expect(ids.length).toBeGreaterThan(2);
      expect((await senderHitIds(handle.db, '@spam7.', ids.length)).complete).toBe(true);
      expect(await senderHitIds(handle.db, '@spam7.', ids.length - 1)).toEqual({ ids: [], complete: false });
    },
  );
});

test('a user with several addresses: a keyset page per address along its index range, merged', async () => {
  const scope: Scope = { kind: 'recipient', addresses: [USER, 'u1@d0.example', 'u2@d1.example'] };
  for (const after of [null, CURSOR]) {
    for (const statuses of [[...HELD], null]) {
      const plan = await explain(listKeysQuery(handle.db, scope, { statuses }, after, 51));
      if (sqlite()) {
        const seeks = plan.text.match(/SEARCH r USING COVERING INDEX qr_recipient_date \(recipient=\?/g) ?? [];
        expect([plan.text, seeks.length]).toEqual([plan.text, scope.addresses.length]);
        expect(plan.text).not.toMatch(/SCAN r\b/);
      } else {
        expectPgIndex(plan, /^qr_recipient_(date|status_updated)$/);
      }
    }
  }
});

test('PostgreSQL’s own choice for the big scopes: an ordered keyset walk that stops at the LIMIT', async () => {
  const scopes: Scope[] = [{ kind: 'all' }, { kind: 'domain', domain: HEAVY_DOMAIN }];
  for (const scope of scopes) {
    for (const f of [
      { statuses: [...HELD] },
      { statuses: null },
      { statuses: null, scoreMin: 10, dateFrom: NOW - 90 * DAY_MS },
      // A common term, tested per row (never a hashed scan of every message). For one domain the
      // planner may instead take its few held rows here by bitmap and sort them: not asserted.
      ...(scope.kind === 'all' ? [{ statuses: [...HELD], q: 'invoice' }] : []),
    ]) {
      for (const after of [null, CURSOR]) {
        const plan = await explain(listKeysQuery(handle.db, scope, f, after, 51), { planner: 'default' });
        if (sqlite()) {
          expect(plan.text).toMatch(/USING (COVERING )?INDEX (qr_date|qr_domain_date)\b/);
          expect(plan.text).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
        } else {
          // The largest domain (a quarter of the mail) may walk the global date index just as well.
          expectPgIndex(plan, /^(qr_date|qr_domain_date)$/);
          expectPgOrdered(plan);
        }
      }
    }
  }
});

test('statistics: every scope (admin, domain_admin, user) reads the rollup by primary key', async () => {
  for (const [scope, id] of [
    ['global', '*'],
    ['domain', HEAVY_DOMAIN],
    ['recipient', USER],
  ] as const) {
    const plan = await explain(dailyForScopeQuery(scope, id, ...YEAR));
    if (sqlite()) {
      expect(plan.text).toMatch(
        /SEARCH quarantine_daily USING INDEX sqlite_autoindex_quarantine_daily_1 \(scope=\? AND scope_id=\? AND day>\? AND day<\?\)/,
      );
    } else {
      expectPgIndex(plan, 'quarantine_daily_pk');
    }
  }
});

test('history: every scope seeks its (…, created_at, id) index to the cursor', async () => {
  for (const scope of [
    { kind: 'all' },
    { kind: 'readers', keys: [readerKey.domain(DOMAIN)] },
    // A user: actor7 (who did a fifth of everything) and an address, one page each, merged.
    { kind: 'readers', keys: [readerKey.user('actor7'), readerKey.address('user7@d0.example')] },
  ] as const) {
    const after = { createdAt: NOW - 100 * DAY_MS, id: 'ZZZZ' };
    const plan = await explain(listHistoryQuery(handle.db, scope, {}, after, 51));
    // Several keys: each is a page of its own range, then at most 51 rows each are merged and sorted.
    const merged = scope.kind === 'readers' && scope.keys.length > 1;
    if (sqlite()) {
      if (scope.kind === 'all') expect(plan.text).toMatch(/SEARCH h USING INDEX history_date \(created_at<\?\)/);
      else {
        const seeks = plan.text.match(/SEARCH a USING PRIMARY KEY \(audience=\? AND created_at<\?\)/g) ?? [];
        expect(seeks).toHaveLength(scope.keys.length);
      }
      expect(plan.text).not.toMatch(/SCAN (a|h)\b/);
      if (!merged) expect(plan.text).not.toMatch(/TEMP B-TREE FOR ORDER BY/);
    } else {
      expectPgIndex(plan, scope.kind === 'all' ? 'history_date' : 'history_audience_pk');
      expect(plan.conds.some((c) => /created_at/.test(c))).toBe(true);
      const planned = await explain(listHistoryQuery(handle.db, scope, {}, after, 51), { planner: 'default' });
      if (merged) expect(planned.nodes.filter((n) => n.type === 'Limit').length).toBeGreaterThanOrEqual(3);
      else expectPgOrdered(planned);
    }
  }
});

test('retention: the next batch is a range of the partial index of mail not purged yet (created_at checked in it)', async () => {
  const plan = await explain(purgeCandidatesQuery(NOW - 30 * DAY_MS, 500));
  if (sqlite()) {
    expect(plan.text).toMatch(/SEARCH quarantine_messages USING INDEX qm_retention \(received_at<\?\)/);
    expect(plan.text).not.toMatch(/TEMP B-TREE/);
  } else {
    expectPgIndex(plan, 'qm_retention');
  }
  // The plan above only names the index: its key columns and predicate are read from the catalogue.
  if (sqlite()) {
    const columns = await sql<{
      name: string;
    }>`select name from pragma_index_info('qm_retention') order by seqno`.execute(handle.db);
    expect(columns.rows.map((r) => r.name)).toEqual(['received_at', 'created_at']);
    const { rows } = await sql<{ sql: string }>`select sql from sqlite_master where name = 'qm_retention'`.execute(
      handle.db,
    );
    expect(rows[0]?.sql).toMatch(/where\s+"raw_purged_at" is null$/i);
  } else {
    const { rows } = await sql<{ indexdef: string }>`select indexdef from pg_indexes
      where schemaname = current_schema() and indexname = 'qm_retention'`.execute(handle.db);
    expect(rows.map((r) => r.indexdef.replace(/^.* USING /, ''))).toEqual([
      'btree (received_at, created_at) WHERE (raw_purged_at IS NULL)',
    ]);
  }
});
