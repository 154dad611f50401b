import { bearer, type TestApp } from '../../test/helpers';
import { ingestOk, meta, mime, startQuarantineSuite, type QuarantineSuite } from '../../test/quarantine';
import { countQuery } from './list-sort.repository';

/** Sorting, keyset paging in every order, and the result count of GET /api/quarantine/ (issue 23). */
let suite: QuarantineSuite;
let t: TestApp;
let tokens: Record<string, string>;
const T0 = Date.parse('2026-11-01T12:00:00Z');

interface Item {
  id: string;
  received_at: string;
  sender: string;
  score: number | null;
  size: number;
}
interface Page {
  results: Item[];
  next_cursor: string | null;
  total?: { count: number; exact: boolean };
}

beforeAll(async () => {
  suite = await startQuarantineSuite([
    ['root@admin.example', 'admin', undefined],
    ['boss@a.example', 'domain_admin', 'a.example'],
    ['ann@a.example', 'user', 'a.example'],
  ]);
  ({ t, tokens } = suite);
  // Ties everywhere: 3 dates, 4 scores (and none), 3 senders differing by case, 2 body lengths;
  // some messages to two recipients of one domain (the domain admin must see them once).
  const senders = ['Zed@x.example', 'alice@x.example', 'ALICE@x.example', 'bob@x.example'];
  const scores = [12.5, 3.3, null, -1, 12.5];
  for (let i = 0; i < 17; i++) {
    const rcpt = i % 3 === 0 ? ['ann@a.example', 'bea@a.example'] : i % 3 === 1 ? ['ann@a.example'] : ['cy@b.example'];
    const score = scores[i % scores.length];
    await ingestOk(
      t,
      meta({
        received_at: new Date(T0 + (i % 3) * 60_000).toISOString(),
        rcpt_to: rcpt,
        mail_from: 'bounce@x.example',
        rspamd: score === null ? null : { action: 'reject', score },
      }),
      mime({ from: senders[i % senders.length]!, subject: `M${i}`, body: i % 2 ? 'short' : 'a longer body here' }),
    );
  }
});
afterAll(() => suite.close());

async function page(email: string, query: string): Promise<Page> {
  const res = await t.app.inject({ method: 'GET', url: `/api/quarantine/?${query}`, headers: bearer(tokens[email]!) });
  expect(res.statusCode).toBe(200);
  return res.json();
}

/** Every page of a sort, 4 rows at a time, following next_cursor. */
async function walk(email: string, sort: string, order: string): Promise<{ items: Item[]; firstTotal: Page['total'] }> {
  const items: Item[] = [];
  let cursor: string | null = null;
  let firstTotal: Page['total'];
  for (let n = 0; n < 50; n++) {
    const p = await page(
      email,
      `status=all&page_size=4&sort=${sort}&order=${order}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
    if (n === 0) firstTotal = p.total;
    else expect(p.total).toBeUndefined();
    items.push(...p.results);
    cursor = p.next_cursor;
    if (!cursor) return { items, firstTotal };
  }
  throw new Error('the walk did not end');
}

const keyOf: Record<string, (i: Item) => number | string> = {
  date: (i) => Date.parse(i.received_at),
  score: (i) => i.score ?? -Infinity,
  sender: (i) => i.sender.toLowerCase(),
  size: (i) => i.size,
};

describe('sort and keyset paging', () => {
  const users = ['root@admin.example', 'boss@a.example', 'ann@a.example'];
  const expected: Record<string, number> = { 'root@admin.example': 17, 'boss@a.example': 12, 'ann@a.example': 12 };
  for (const email of users) {
    for (const sort of ['date', 'score', 'sender', 'size']) {
      for (const order of ['desc', 'asc']) {
        test(`${email}: by ${sort} ${order}, every row exactly once, in order, ties by id`, async () => {
          const { items, firstTotal } = await walk(email, sort, order);
          const ids = items.map((i) => i.id);
          expect(new Set(ids).size).toBe(ids.length);
          expect(ids.length).toBe(expected[email]);
          expect(firstTotal).toEqual({ count: expected[email], exact: true });
          const sign = order === 'desc' ? -1 : 1;
          for (let k = 1; k < items.length; k++) {
            const [a, b] = [items[k - 1]!, items[k]!];
            const [ka, kb] = [keyOf[sort]!(a), keyOf[sort]!(b)];
            const cmp = ka < kb ? -1 : ka > kb ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
            expect([sort, order, k, cmp * sign]).toEqual([sort, order, k, -1]);
          }
        }, 60_000);
      }
    }
  }

  test('one sort over all pages: the same set as by date', async () => {
    const byDate = (await walk('boss@a.example', 'date', 'desc')).items.map((i) => i.id).sort();
    const byScore = (await walk('boss@a.example', 'score', 'asc')).items.map((i) => i.id).sort();
    expect(byScore).toEqual(byDate);
  }, 60_000);

  test('a cursor of another sort, or garbage, is a 400 naming the cursor', async () => {
    const first = await page('root@admin.example', 'status=all&page_size=2&sort=score');
    expect(first.next_cursor).not.toBeNull();
    for (const query of [
      `sort=size&cursor=${first.next_cursor}`,
      `sort=score&order=asc&cursor=${first.next_cursor}`,
      `cursor=${first.next_cursor}`,
      `sort=score&cursor=${Buffer.from('score.desc.{.X1').toString('base64url')}`,
      `sort=size&cursor=${Buffer.from('size.desc."big".X1').toString('base64url')}`,
    ]) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/quarantine/?status=all&${query}`,
        headers: bearer(tokens['root@admin.example']!),
      });
      expect([query, res.statusCode, res.json().errors]).toEqual([query, 400, { cursor: 'Invalid cursor.' }]);
    }
  });

  test('an unknown sort or order is a 400', async () => {
    for (const query of ['sort=subject', 'order=up']) {
      const res = await t.app.inject({
        method: 'GET',
        url: `/api/quarantine/?${query}`,
        headers: bearer(tokens['root@admin.example']!),
      });
      expect(res.statusCode).toBe(400);
    }
  });

  test('a cursor made before sorting existed (date, newest first) still works', async () => {
    const first = await page('root@admin.example', 'status=all&page_size=5');
    const second = await page('root@admin.example', `status=all&page_size=5&cursor=${first.next_cursor}`);
    const [last] = first.results.slice(-1);
    const legacy = Buffer.from(`${Date.parse(last!.received_at)}.${last!.id}`).toString('base64url');
    expect(first.next_cursor).toBe(legacy);
    expect(second.results[0]!.id).not.toBe(last!.id);
  });
});

describe('result count', () => {
  test('the count follows the filters; it stops reading at its bound', async () => {
    const p = await page('root@admin.example', 'status=all&score_min=12&page_size=1');
    expect(p.total).toEqual({ count: 7, exact: true });
    const none = await page('root@admin.example', 'status=all&q=nothing-matches-this&page_size=1');
    expect(none.total).toEqual({ count: 0, exact: true });
    const { rows } = await countQuery(t.db, { kind: 'all' }, { statuses: null }, 5).execute(t.db);
    expect(Number(rows[0]!.n)).toBe(5);
    const domain = await countQuery(t.db, { kind: 'domain', domain: 'a.example' }, { statuses: null }, 100).execute(
      t.db,
    );
    expect(Number(domain.rows[0]!.n)).toBe(12);
  });
});
