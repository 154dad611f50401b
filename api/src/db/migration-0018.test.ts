// First: the test helpers it loads make jest able to load kysely.
import { D1, DAY, dailyRows, insertFixture, migratorFor, withEmptyDatabase } from '../test/migrations';
import { sql } from 'kysely';
import type { DatabaseHandle } from './database';
import { insertDailyRollup } from './migration-0005-recipient-statistics';
import { rebuildStatistics } from '../modules/statistics/statistics.repository';

// 0018: the recipients the ingest stored with a U-label domain (bücher.example) move to the A-label
// form (xn--bcher-kva.example), the one of the console's domains, with every row keyed by them.

const A = 'xn--bcher-kva.example';

/** The counters and the rollup as the code of 0017 kept them (the same SQL as stats:rebuild). */
async function countAsBefore(handle: DatabaseHandle) {
  await sql`insert into quarantine_counts (scope, scope_id, status, n)
    select 'domain', domain, status, count(*) from quarantine_recipients group by domain, status`.execute(handle.db);
  await sql`insert into quarantine_counts (scope, scope_id, status, n)
    select 'global', '*', status, sum(n) from quarantine_counts where scope = 'domain' group by status`.execute(
    handle.db,
  );
  await insertDailyRollup(handle.db);
}

const counters = (handle: DatabaseHandle) =>
  handle.db
    .selectFrom('quarantine_counts')
    .select(['scope', 'scope_id', 'status', 'n'])
    .where('n', '<>', 0)
    .orderBy('scope')
    .orderBy('scope_id')
    .orderBy('status')
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, n: Number(r.n) })));
const numeric = (rows: Record<string, unknown>[]) =>
  rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, typeof v === 'string' ? v : Number(v)])));
const recipients = (handle: DatabaseHandle) =>
  handle.db
    .selectFrom('quarantine_recipients')
    .select(['message_id', 'recipient', 'domain', 'status'])
    .orderBy('message_id')
    .orderBy('recipient')
    .execute();

test('0018 moves U-label recipients to the A-label form with their search rows, counters, rollup, readers and spellings', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0017_notifications')).error).toBeUndefined();
    await insertFixture(
      handle,
      [
        ['m1', D1 + 3600_000, 2],
        ['m2', D1 + DAY, 16],
      ],
      [
        ['m1', 'ann@bücher.example', 'pending', D1 + 3600_000, D1 + 3600_000],
        ['m1', 'bob@a.example', 'pending', D1 + 3600_000, D1 + 3600_000],
        ['m2', 'zoé@bücher.example', 'released', D1 + DAY, D1 + 2 * DAY],
        // Already in the A-label form (a user's own address typed that way): the same mailbox as ann@bücher…
        ['m2', `ann@${A}`, 'deleted', D1 + DAY, D1 + 2 * DAY],
        // …and a name that is no IDN stays as it is.
        ['m2', 'x@bad_ü.example', 'pending', D1 + DAY, D1 + DAY],
      ],
    );
    await sql`update quarantine_messages set recipient_count = 2, envelope_to = ${JSON.stringify(['Ann@bücher.example'])}
      where id = 'm1'`.execute(handle.db);
    await sql`update quarantine_messages set recipient_count = 3 where id = 'm2'`.execute(handle.db);
    if (handle.dialect === 'sqlite') {
      await sql`insert into quarantine_search (message_id, recipient, domain, body)
        select message_id, recipient, domain, recipient from quarantine_recipients`.execute(handle.db);
    }
    await countAsBefore(handle);
    await sql`insert into history (id, created_at, actor_email, actor_role, action, result)
      values ('h1', ${D1}, 'root@admin.example', 'admin', 'download', 'success')`.execute(handle.db);
    await sql`insert into history_audience (audience, created_at, history_id)
      values ('d:bücher.example', ${D1}, 'h1'), ('d:a.example', ${D1}, 'h1')`.execute(handle.db);

    expect((await m.migrateTo('0018_idn_addresses')).error).toBeUndefined();

    expect(await recipients(handle)).toEqual([
      { message_id: 'm1', recipient: `ann@${A}`, domain: A, status: 'pending' },
      { message_id: 'm1', recipient: 'bob@a.example', domain: 'a.example', status: 'pending' },
      { message_id: 'm2', recipient: `ann@${A}`, domain: A, status: 'deleted' },
      { message_id: 'm2', recipient: 'x@bad_ü.example', domain: 'bad_ü.example', status: 'pending' },
      { message_id: 'm2', recipient: `zoé@${A}`, domain: A, status: 'released' },
    ]);
    const messages = await handle.db
      .selectFrom('quarantine_messages')
      .select(['id', 'recipient_count', 'envelope_to'])
      .orderBy('id')
      .execute();
    expect(messages).toEqual([
      { id: 'm1', recipient_count: 2, envelope_to: JSON.stringify([`Ann@${A}`]) },
      { id: 'm2', recipient_count: 3, envelope_to: null },
    ]);
    // SQLite's search table (PostgreSQL searches the rows themselves): moved too, trigram index included.
    const sqlite = handle.dialect === 'sqlite';
    const search = sqlite
      ? (
          await sql<{ message_id: string; recipient: string; domain: string; body: string }>`
            select message_id, recipient, domain, body from quarantine_search order by message_id, recipient`.execute(
            handle.db,
          )
        ).rows
      : null;
    const rows = await recipients(handle);
    expect(search).toEqual(
      sqlite
        ? rows.map((r) => ({ message_id: r.message_id, recipient: r.recipient, domain: r.domain, body: r.recipient }))
        : null,
    );
    const hits = sqlite
      ? await sql<{ n: number }>`select count(*) as n from quarantine_search
          where quarantine_search match ${'"bcher-kva"'}`.execute(handle.db)
      : null;
    expect(hits && Number(hits.rows[0]!.n)).toBe(sqlite ? 3 : null);
    const readers = await handle.db.selectFrom('history_audience').select('audience').orderBy('audience').execute();
    expect(readers.map((r) => r.audience)).toEqual(['d:a.example', `d:${A}`]);

    // The counters and the rollup are what a recount of the moved rows gives.
    const moved = { counters: await counters(handle), daily: numeric(await dailyRows(handle)) };
    expect(moved.counters).toContainEqual({ scope: 'domain', scope_id: A, status: 'pending', n: 1 });
    expect(JSON.stringify(moved)).not.toContain('bücher');
    await rebuildStatistics(handle.db);
    expect({ counters: await counters(handle), daily: numeric(await dailyRows(handle)) }).toEqual(moved);
  }));

test('0018: a message that had both spellings of one mailbox keeps the A-label row only', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0017_notifications')).error).toBeUndefined();
    await insertFixture(
      handle,
      [['m1', D1, 20]],
      [
        ['m1', 'ann@bücher.example', 'pending', D1, D1],
        ['m1', `ann@${A}`, 'pending', D1, D1],
      ],
    );
    await sql`update quarantine_messages set recipient_count = 2`.execute(handle.db);
    await countAsBefore(handle);

    expect((await m.migrateTo('0018_idn_addresses')).error).toBeUndefined();
    expect(await recipients(handle)).toEqual([
      { message_id: 'm1', recipient: `ann@${A}`, domain: A, status: 'pending' },
    ]);
    const count = await handle.db.selectFrom('quarantine_messages').select('recipient_count').executeTakeFirstOrThrow();
    expect(Number(count.recipient_count)).toBe(1);
    expect(await counters(handle)).toEqual([
      { scope: 'domain', scope_id: A, status: 'pending', n: 1 },
      { scope: 'global', scope_id: '*', status: 'pending', n: 1 },
    ]);
    // Undone: nothing in the schema to remove; the rows stay in the form every version reads.
    expect((await m.migrateDown()).error).toBeUndefined();
    expect(await recipients(handle)).toHaveLength(1);
  }));
