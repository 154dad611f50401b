import { createTestEnv, type TestEnv } from '../../test/helpers'; // first: it makes jest able to load kysely
import { sql, type Compilable } from 'kysely';
import { explainQuery, type PlanNode } from '../../test/query-plan';
import { loadConfig } from '../../config';
import { openMigratedDatabase, type DatabaseHandle } from '../../db/database';
import { newId } from '../../lib/ids';
import { listUsersQuery, userHitsQuery, type UserCursor, type UserListFilters } from './users.repository';

/**
 * Query plans of the users list and search (issue 16) on a seeded set of 20,000 users in 40
 * domains, on the database the run uses (the api project runs this file on SQLite and on
 * PostgreSQL). The list walks the index of its ordering (and of the domain, for a domain_admin) and
 * stops at the LIMIT: no table scan, no sort. The search's hits are index ranges. SQLite is planned
 * as the app runs it (no ANALYZE): its plans follow the query's shape. PostgreSQL's are taken after
 * ANALYZE with the planner's own choice for the keyset walks (they must hold at any size), and
 * with enable_seqscan off for the search hits (on 20k rows a scan may honestly be cheaper).
 */

/* eslint-disable jest/no-conditional-expect */

const USERS = 20_000;
const DOMAINS = 40;
const BASE = Date.UTC(2023, 0, 1);
const FIRST = ['anna', 'bruno', 'chloé', 'david', 'emma', 'farid', 'gaëlle', 'hugo', 'inès', 'jules'];
const LAST = ['martin', 'bernard', 'dubois', 'thomas', 'robert', 'richard', 'petit', 'durand', 'leroy', 'moreau'];
const HASH = (i: number) => (i * 2654435761) % 4294967296;

let env: TestEnv;
let handle: DatabaseHandle;
const domainIds: string[] = [];

beforeAll(async () => {
  env = await createTestEnv();
  handle = await openMigratedDatabase(loadConfig(env.env, env.tmpDir).database);
  const { db } = handle;
  for (let d = 0; d < DOMAINS; d++) {
    const id = newId(BASE + d);
    domainIds.push(id);
    await db
      .insertInto('domains')
      .values({ id, name: `d${d}.example`, description: '', created_at: BASE, updated_at: BASE })
      .execute();
  }
  const rows = [];
  for (let i = 0; i < USERS; i++) {
    const h = HASH(i + 1);
    const joined = BASE + i * 60_000;
    rows.push({
      id: newId(joined),
      username: `${FIRST[h % 10]}.${LAST[Math.floor(h / 16) % 10]}${i}`,
      email: `${FIRST[Math.floor(h / 256) % 10]}${i}@d${i % DOMAINS}.example`,
      first_name: FIRST[h % 10]!.replace(/^./, (c) => c.toUpperCase()),
      last_name: LAST[Math.floor(h / 16) % 10]!.toUpperCase(),
      password_hash: 'x',
      role: i % 500 === 0 ? 'admin' : i % 97 === 0 ? 'domain_admin' : 'user',
      domain_id: domainIds[i % DOMAINS]!,
      is_external: 0,
      is_active: h % 10 ? 1 : 0,
      mfa_enabled: h % 3 ? 0 : 1,
      mfa_required: 0,
      date_joined: joined,
    });
  }
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('users')
      .values(rows.slice(i, i + 500) as never)
      .execute();
  }
  if (handle.dialect === 'postgres') await sql`analyze`.execute(db);
}, 120_000);
afterAll(async () => {
  await handle.close();
  await env.cleanup();
});

const explain = (query: Compilable, planner: 'default' | 'no-seqscan' = 'default') =>
  explainQuery(handle, query, planner);

const sqlite = () => handle.dialect === 'sqlite';
/** The e-mail's unique index: SQLite names it after the table, PostgreSQL after the constraint. */
const emailIndex = () => (sqlite() ? 'sqlite_autoindex_users_2' : 'users_email_key');

function expectWalk(plan: { text: string; nodes: PlanNode[] }, index: string) {
  if (sqlite()) {
    expect(plan.text).toMatch(new RegExp(`(SCAN|SEARCH) u USING INDEX ${index}\\b`));
    expect(plan.text).not.toMatch(/TEMP B-TREE/);
  } else {
    expect([plan.text, plan.nodes.some((n) => n.index === index)]).toEqual([plan.text, true]);
    // The domains table (a few rows, joined for their names) may be read whole; users never.
    const bad = plan.nodes.filter((n) => n.type === 'Sort' || (n.type === 'Seq Scan' && n.relation === 'users'));
    expect([plan.text, bad]).toEqual([plan.text, []]);
  }
}

const ADMIN: UserListFilters = {};
const DOMAIN_ADMIN = (): UserListFilters => ({ domainId: domainIds[5]!, role: 'user' });
const CURSORS: Record<string, UserCursor> = {
  email: { email: 'emma5000@d0.example' },
  date_joined: { dateJoined: BASE + 9_000 * 60_000, id: 'ZZZZZZZZZZZZZZZZZZZZZZZZZZ' },
};

describe('the list walks the index of its ordering, first page and deep pages alike', () => {
  test.each([
    ['email', (): string => emailIndex()],
    ['-email', (): string => emailIndex()],
    ['date_joined', (): string => 'users_date_joined'],
    ['-date_joined', (): string => 'users_date_joined'],
  ] as const)('admin, %s', async (ordering, index) => {
    for (const after of [null, CURSORS[ordering.replace('-', '')]!]) {
      for (const filters of [ADMIN, { isActive: true, mfa: 'disabled' } as UserListFilters]) {
        expectWalk(await explain(listUsersQuery(handle.db, filters, ordering, after, 51)), index());
      }
    }
  });

  test.each([
    ['email', 'users_domain_email'],
    ['-email', 'users_domain_email'],
    ['date_joined', 'users_domain_date_joined'],
    ['-date_joined', 'users_domain_date_joined'],
  ] as const)('domain_admin (one domain’s users), %s', async (ordering, index) => {
    for (const after of [null, CURSORS[ordering.replace('-', '')]!]) {
      expectWalk(await explain(listUsersQuery(handle.db, DOMAIN_ADMIN(), ordering, after, 51)), index);
    }
  });

  test('a deep page seeks to the cursor (an index range), it does not walk from the first row', async () => {
    const byEmail = await explain(listUsersQuery(handle.db, ADMIN, 'email', CURSORS.email!, 51));
    const byDate = await explain(listUsersQuery(handle.db, ADMIN, '-date_joined', CURSORS.date_joined!, 51));
    if (sqlite()) {
      expect(byEmail.text).toMatch(/SEARCH u USING INDEX sqlite_autoindex_users_2 \(email>\?\)/);
      expect(byDate.text).toMatch(/SEARCH u USING INDEX users_date_joined \(date_joined<\?\)/);
    } else {
      expectWalk(byEmail, 'users_email_key');
      expectWalk(byDate, 'users_date_joined');
    }
  });
});

describe('search', () => {
  test('the hits are a union of index ranges: e-mail, lower(username), lower(first_name), lower(last_name)', async () => {
    for (const term of ['emma', 'Gaëlle', 'moreau']) {
      const plan = await explain(userHitsQuery(handle.db, term, 1001), 'no-seqscan');
      if (sqlite()) {
        for (const index of [
          'sqlite_autoindex_users_2',
          'users_username_lower',
          'users_first_name_lower',
          'users_last_name_lower',
        ]) {
          expect([index, plan.text]).toEqual([
            index,
            expect.stringMatching(new RegExp(`SEARCH users USING (COVERING )?INDEX ${index} \\(`)),
          ]);
        }
        expect(plan.text).not.toMatch(/SCAN users\b/);
      } else {
        for (const index of [
          'users_email_key',
          'users_username_lower',
          'users_first_name_lower',
          'users_last_name_lower',
        ]) {
          expect([index, plan.text, plan.nodes.some((n) => n.index === index)]).toEqual([index, plan.text, true]);
        }
        expect(plan.nodes.filter((n) => n.type === 'Seq Scan')).toEqual([]);
      }
    }
  });

  test('a rare term’s page is read by primary key among its hits (a small sort of those only)', async () => {
    const hitIds = ['A', 'B', 'C'];
    const plan = await explain(listUsersQuery(handle.db, { hitIds }, 'email', null, 51));
    if (sqlite()) {
      expect(plan.text).toMatch(/SEARCH u USING INDEX sqlite_autoindex_users_1 \(id=\?\)/);
      expect(plan.text).not.toMatch(/SCAN u\b/);
    } else {
      expect([plan.text, plan.nodes.some((n) => n.index === 'users_pkey')]).toEqual([plan.text, true]);
      expect(plan.nodes.filter((n) => n.type === 'Seq Scan' && n.relation === 'users')).toEqual([]);
    }
  });

  test('a common term is tested along the ordered walk (no sort)', async () => {
    expectWalk(await explain(listUsersQuery(handle.db, { q: 'a' }, 'email', null, 51)), emailIndex());
    // One domain's users: the walk of its index; PostgreSQL may instead take that domain's few
    // hundred rows by bitmap and sort them (cheaper at that size): not asserted there.
    const domain = await explain(listUsersQuery(handle.db, { ...DOMAIN_ADMIN(), q: 'a' }, 'email', null, 51));
    if (sqlite()) expectWalk(domain, 'users_domain_email');
    else expect(domain.nodes.filter((n) => n.type === 'Seq Scan' && n.relation === 'users')).toEqual([]);
  });
});
