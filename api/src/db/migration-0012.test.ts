// First: the test helpers it loads make jest able to load kysely.
import { migratorFor, withEmptyDatabase } from '../test/migrations';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

test('0012 gives the history written before it its readers: actors, their domains, the addresses and domains of the mail they acted on', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0011_retention_index')).error).toBeUndefined();
    const db = handle.db as unknown as Kysely<Database>;
    for (const [id, email] of [
      ['U-ann', 'ann@a.example'],
      ['U-bob', 'bob@b.example'],
      ['U-boss', 'boss@a.example'],
      ['U-root', 'root@a.example'],
    ]) {
      await db
        .insertInto('users')
        .values({ id, username: id, email, password_hash: 'x', role: 'user', date_joined: 1 } as never)
        .execute();
    }
    await db
      .insertInto('quarantine_messages')
      .values({
        id: 'E',
        received_at: 1,
        sender: 's@x.example',
        action: 'reject',
        size: 1,
        created_at: 1,
        envelope_from: 's@x.example',
        recipient_count: 2,
        attachments: '[]',
        urls: '[]',
        symbols: '[]',
        headers: '[]',
      } as never)
      .execute();
    await db
      .insertInto('quarantine_recipients')
      .values(
        ['ann@a.example', 'bob@b.example'].map((recipient) => ({
          message_id: 'E',
          recipient,
          domain: recipient.split('@')[1]!,
          status: 'pending' as const,
          received_at: 1,
          updated_at: 1,
          delivery_id: null,
        })),
      )
      .execute();
    const row = (id: string, actor: string, role: 'admin' | 'domain_admin' | 'user', domain: string | null) => ({
      id,
      created_at: 7,
      actor_id: `U-${actor}`,
      actor_email: `${actor}@${actor === 'bob' ? 'b' : 'a'}.example`,
      actor_role: role,
      actor_domain: domain,
      action: 'download' as const,
      email_id: 'E',
      result: 'success' as const,
      code: null,
      ip_address: null,
    });
    await db
      .insertInto('history')
      .values([
        row('h-ann', 'ann', 'user', 'a.example'),
        row('h-boss', 'boss', 'domain_admin', 'A.example'),
        row('h-root', 'root', 'admin', null),
      ])
      .execute();

    expect((await m.migrateToLatest()).error).toBeUndefined();
    const readers = await db
      .selectFrom('history_audience')
      .selectAll()
      .orderBy('history_id')
      .orderBy('audience')
      .execute();
    const of = (id: string) =>
      readers.filter((r) => r.history_id === id).map((r) => [r.audience, Number(r.created_at)]);
    expect(of('h-ann')).toEqual([
      ['d:a.example', 7],
      ['r:ann@a.example', 7],
      ['u:U-ann', 7],
    ]);
    // A domain_admin acted on their domain's copy only: bob's address and domain do not read it.
    expect(of('h-boss')).toEqual([
      ['d:a.example', 7],
      ['r:ann@a.example', 7],
      ['u:U-boss', 7],
    ]);
    expect(of('h-root')).toEqual([
      ['d:a.example', 7],
      ['d:b.example', 7],
      ['r:ann@a.example', 7],
      ['r:bob@b.example', 7],
      ['u:U-root', 7],
    ]);
  }));

test('0012 is all or nothing on SQLite: stopped half-way, the next start migrates cleanly', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0011_retention_index')).error).toBeUndefined();
    const db = handle.db as unknown as Kysely<Database>;
    // The step after the backfill fails: the index it drops is not there.
    await db.schema.dropIndex('history_domain_date').execute();
    expect((await m.migrateToLatest()).error).toBeDefined();
    const tables = (await db.introspection.getTables()).map((t) => t.name);
    expect(tables).not.toContain('history_audience');
    await db.schema
      .createIndex('history_domain_date')
      .on('history')
      .columns(['actor_domain', 'created_at desc', 'id desc'])
      .execute();
    expect((await m.migrateToLatest()).error).toBeUndefined();
  }));
