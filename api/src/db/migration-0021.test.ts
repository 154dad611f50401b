// First: the test helpers it loads make jest able to load kysely.
import { D1, insertFixture, introspectSchema, migratorFor, withEmptyDatabase } from '../test/migrations';
import { sql } from 'kysely';
import { textHitIds } from '../modules/quarantine/list.repository';

// 0021: mail stored before it is found by its attachment names and URLs (backfilled from the names
// and URLs each message already kept, in batches), on both databases (the scope is applied by the list, see list-search-extra.test.ts).

test('0021 makes existing mail findable by attachment name and URL (purged raw too); down removes it', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0020_statistics_tops')).error).toBeUndefined();
    await insertFixture(
      handle,
      [
        ['m1', D1, 2],
        ['m2', D1 + 1, 3],
        ['m3', D1 + 2, 4],
      ],
      [
        ['m1', 'ann@a.example', 'pending', D1, D1],
        ['m2', 'bob@b.example', 'pending', D1 + 1, D1 + 1],
        ['m3', 'ann@a.example', 'pending', D1 + 2, D1 + 2],
      ],
    );
    const attachments = JSON.stringify([{ name: 'Facture-Été.pdf', type: 'application/pdf', size: 3 }]);
    await sql`update quarantine_messages set attachments = ${attachments},
      urls = ${JSON.stringify(['https://login.evil.example/reset'])} where id = 'm1'`.execute(handle.db);
    // Purged raw: its names and URLs are still kept, so it is found too.
    await sql`update quarantine_messages set attachments = ${attachments}, raw_purged_at = ${D1} where id = 'm2'`.execute(
      handle.db,
    );
    await sql`update quarantine_messages set urls = 'not json' where id = 'm3'`.execute(handle.db);
    if (handle.dialect === 'sqlite') {
      await sql`insert into quarantine_search (message_id, recipient, domain, body)
        select id, '', '', coalesce(subject, '') || char(10) || sender || char(10) || envelope_from
        from quarantine_messages`.execute(handle.db);
      await sql`insert into quarantine_search (message_id, recipient, domain, body)
        select message_id, recipient, domain, recipient from quarantine_recipients`.execute(handle.db);
    }
    const hits = async (q: string) => {
      const r = await textHitIds(handle.db, { kind: 'all' }, q, 100);
      return [...new Set(r.ids)].sort();
    };

    expect((await m.migrateTo('0021_search_attachments_urls')).error).toBeUndefined();

    expect(await hits('facture-ete')).toEqual(['m1', 'm2']);
    expect(await hits('evil.example')).toEqual(['m1']);
    const extra = await sql<{ id: string; search_extra: string }>`select id, search_extra from quarantine_messages
      order by id`.execute(handle.db);
    expect(extra.rows).toEqual([
      { id: 'm1', search_extra: 'Facture-Été.pdf\nhttps://login.evil.example/reset' },
      { id: 'm2', search_extra: 'Facture-Été.pdf' },
      { id: 'm3', search_extra: '' },
    ]);

    expect((await m.migrateTo('0020_statistics_tops')).error).toBeUndefined();
    const schema = await introspectSchema(handle);
    expect(schema.tables.quarantine_messages!.join()).not.toContain('search_extra');
    expect(Object.keys(schema.indexes).join()).not.toContain('search_extra');
  }));
