// First: the test helpers it loads make jest able to load kysely.
import { D1, DAY, insertFixture, migratorFor, withEmptyDatabase } from '../test/migrations';
import { QuarantineListQuery } from '@qc/contracts';
import { sql } from 'kysely';
import type { DatabaseHandle } from './database';
import type { SessionContextRow } from '../modules/auth/auth.repository';
import { listQuarantine } from '../modules/quarantine/quarantine.service';
import { rebuildTops } from '../modules/statistics/tops.repository';

// 0023: the senders the ingest stored with a U-label domain (x@bücher.example) move to the A-label
// form (x@xn--bcher-kva.example), as the ingest stores them now, with their search rows and the
// top-senders rollup; a sender filter then finds the older mail too.

const A = 'xn--bcher-kva.example';

const messages = (handle: DatabaseHandle) =>
  handle.db
    .selectFrom('quarantine_messages')
    .select(['id', 'sender', 'envelope_from', 'sender_domain', 'mime_domain'])
    .orderBy('id')
    .execute();
const tops = (handle: DatabaseHandle) =>
  handle.db
    .selectFrom('quarantine_tops')
    .select(['scope', 'scope_id', 'kind', 'day', 'item', 'n'])
    .orderBy('scope')
    .orderBy('scope_id')
    .orderBy('kind')
    .orderBy('day')
    .orderBy('item')
    .execute()
    .then((rows) => rows.map((r) => ({ ...r, day: Number(r.day), n: Number(r.n) })));
const searchRows = async (handle: DatabaseHandle) =>
  (
    await sql<{ message_id: string; recipient: string; body: string; extra: string }>`
      select message_id, recipient, body, extra from quarantine_search order by message_id, recipient`.execute(
      handle.db,
    )
  ).rows;

const admin = { sessionId: 's', familyId: 'f', user: { role: 'admin' } as SessionContextRow };
const bySender = async (handle: DatabaseHandle, sender: string) =>
  (await listQuarantine({ db: handle.db }, admin, QuarantineListQuery.parse({ sender }))).results
    .map((r) => r.id)
    .sort();

test('0023 moves U-label senders to the A-label form with their search rows and top senders', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0022_system_rule_patterns_unique')).error).toBeUndefined();
    await insertFixture(
      handle,
      [
        ['m1', D1 + 3600_000, 2],
        ['m2', D1 + 7200_000, 16],
        ['m3', D1 + 9000_000, 5],
        ['m4', D1 + DAY, 7],
        ['m5', D1 + DAY + 60_000, 8],
      ],
      [
        ['m1', 'ann@a.example', 'pending', D1 + 3600_000, D1 + 3600_000],
        ['m2', 'ann@a.example', 'pending', D1 + 7200_000, D1 + 7200_000],
        ['m2', 'bob@a.example', 'pending', D1 + 7200_000, D1 + 7200_000],
        ['m3', 'ann@a.example', 'pending', D1 + 9000_000, D1 + 9000_000],
        ['m4', 'bob@a.example', 'pending', D1 + DAY, D1 + DAY],
        ['m5', 'ann@a.example', 'pending', D1 + DAY + 60_000, D1 + DAY + 60_000],
      ],
    );
    // As the ingest stored them before: the domains as written (sender_domain lower case).
    const before: [string, string, string, string | null, string | null][] = [
      // [id, sender (header From), envelope_from, sender_domain, mime_domain]
      ['m1', 'X@Bücher.example', 'X@Bücher.example', 'bücher.example', 'Bücher.example'],
      ['m2', 'x@bücher.example', 'bounce@bücher.example', 'bücher.example', 'bücher.example'],
      // Already the A-label form (the same sender as m2 in the tops): counts add up.
      ['m3', `x@${A}`, `x@${A}`, A, A],
      // Null envelope sender: sender_domain came from the header From.
      ['m4', 'zoé@bücher.example', '', 'bücher.example', 'bücher.example'],
      // Untouched: a non-ASCII local part with an ASCII domain, and a name that is no IDN.
      ['m5', 'rené@Plain.example', 'x@bad_ü.example', 'bad_ü.example', 'Plain.example'],
    ];
    for (const [id, sender, envelopeFrom, senderDomain, mimeDomain] of before) {
      await sql`update quarantine_messages set sender = ${sender}, envelope_from = ${envelopeFrom},
        sender_domain = ${senderDomain}, mime_domain = ${mimeDomain}, subject = ${`Subject ${id}`},
        search_extra = ${id === 'm1' ? 'Facture.pdf' : ''} where id = ${id}`.execute(handle.db);
    }
    const sqlite = handle.dialect === 'sqlite';
    if (sqlite) {
      await sql`insert into quarantine_search (message_id, recipient, domain, body, extra)
        select id, '', '', coalesce(subject, '') || char(10) || sender || char(10) || envelope_from, search_extra
        from quarantine_messages`.execute(handle.db);
      await sql`insert into quarantine_search (message_id, recipient, domain, body, extra)
        select message_id, recipient, domain, recipient, '' from quarantine_recipients`.execute(handle.db);
    }
    await rebuildTops(handle.db);
    const topsBefore = await tops(handle);
    expect(topsBefore).toContainEqual({
      scope: 'global',
      scope_id: '*',
      kind: 'sender',
      day: D1,
      item: 'x@bücher.example',
      n: 3,
    });
    // Before: an address filter (turned to the A-label, the form stored now) misses the older mail.
    expect(await bySender(handle, 'x@bücher.example')).toEqual(['m3']);

    expect((await m.migrateTo('0023_idn_senders')).error).toBeUndefined();

    expect(await messages(handle)).toEqual([
      { id: 'm1', sender: `X@${A}`, envelope_from: `X@${A}`, sender_domain: A, mime_domain: 'Bücher.example' },
      { id: 'm2', sender: `x@${A}`, envelope_from: `bounce@${A}`, sender_domain: A, mime_domain: 'bücher.example' },
      { id: 'm3', sender: `x@${A}`, envelope_from: `x@${A}`, sender_domain: A, mime_domain: A },
      { id: 'm4', sender: `zoé@${A}`, envelope_from: '', sender_domain: A, mime_domain: 'bücher.example' },
      {
        id: 'm5',
        sender: 'rené@Plain.example',
        envelope_from: 'x@bad_ü.example',
        sender_domain: 'bad_ü.example',
        mime_domain: 'Plain.example',
      },
    ]);

    // A sender filter through the service finds the older mail, by domain and by address.
    expect(await bySender(handle, 'bücher.example')).toEqual(['m1', 'm2', 'm3', 'm4']);
    expect(await bySender(handle, 'x@bücher.example')).toEqual(['m1', 'm2', 'm3']);
    expect(await bySender(handle, 'bad_ü.example')).toEqual(['m5']);

    // SQLite's trigram rows (PostgreSQL searches the columns): rebuilt from the new columns, `extra` kept.
    const expectedSearch = sqlite
      ? (
          await sql<{ message_id: string; recipient: string; body: string; extra: string }>`
            select id as message_id, '' as recipient,
              coalesce(subject, '') || char(10) || sender || char(10) || envelope_from as body, search_extra as extra
            from quarantine_messages
            union all select message_id, recipient, recipient, '' from quarantine_recipients
            order by message_id, recipient`.execute(handle.db)
        ).rows
      : null;
    expect(sqlite ? await searchRows(handle) : null).toEqual(expectedSearch);
    const search = sqlite ? await searchRows(handle) : null;
    expect(search?.find((r) => r.message_id === 'm1' && r.recipient === '')?.extra).toBe(
      sqlite ? 'Facture.pdf' : undefined,
    );
    const hits = sqlite
      ? await sql<{ message_id: string }>`select distinct message_id from quarantine_search
          where quarantine_search match ${'"bcher-kva"'} order by message_id`.execute(handle.db)
      : null;
    expect(hits?.rows.map((r) => r.message_id)).toEqual(sqlite ? ['m1', 'm2', 'm3', 'm4'] : undefined);

    // The top senders: the U-label items merged into their A-label keys, as a recount gives them.
    const merged = await tops(handle);
    expect(merged).toContainEqual({ scope: 'global', scope_id: '*', kind: 'sender', day: D1, item: `x@${A}`, n: 4 });
    expect(merged.filter((r) => r.kind === 'sender').map((r) => r.item)).not.toContain('x@bücher.example');
    expect(merged).toContainEqual({
      scope: 'global',
      scope_id: '*',
      kind: 'sender',
      day: D1 + DAY,
      item: 'rené@plain.example',
      n: 1,
    });
    // Only the sender items changed: the recipient and symbol items are as they were.
    expect(merged.filter((r) => r.kind !== 'sender')).toEqual(topsBefore.filter((r) => r.kind !== 'sender'));
    await rebuildTops(handle.db);
    expect(await tops(handle)).toEqual(merged);

    // Undone: nothing in the schema to remove; the rows stay in the form every version reads.
    expect((await m.migrateDown()).error).toBeUndefined();
    expect((await messages(handle))[0]!.sender).toBe(`X@${A}`);
  }));

test('0023 leaves a database without a U-label sender as it was', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0022_system_rule_patterns_unique')).error).toBeUndefined();
    await insertFixture(handle, [['m1', D1, 2]], [['m1', 'ann@a.example', 'pending', D1, D1]]);
    await sql`update quarantine_messages set sender = 'Élodie <e@Shop.example>', envelope_from = 'E@Shop.example',
      sender_domain = 'shop.example'`.execute(handle.db);
    if (handle.dialect === 'sqlite') {
      await sql`insert into quarantine_search (message_id, recipient, domain, body, extra)
        values ('m1', '', '', 'stale body', '')`.execute(handle.db);
    }
    await rebuildTops(handle.db);
    const snapshot = async () => ({
      messages: await messages(handle),
      tops: await tops(handle),
      search: handle.dialect === 'sqlite' ? await searchRows(handle) : null,
    });
    const before = await snapshot();

    expect((await m.migrateTo('0023_idn_senders')).error).toBeUndefined();
    expect(await snapshot()).toEqual(before);
  }));
