// First: the test helpers it loads make jest able to load kysely.
import { migratorFor, withEmptyDatabase } from '../test/migrations';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

test("0009 files an admin's history rows under no domain; other roles' rows keep theirs", () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0008_message_id_index')).error).toBeUndefined();
    const db = handle.db as unknown as Kysely<Database>;
    const row = (id: string, role: 'admin' | 'domain_admin' | 'user') => ({
      id,
      created_at: 1,
      actor_id: null,
      actor_email: `${id}@a.example`,
      actor_role: role,
      actor_domain: 'a.example',
      action: 'download' as const,
      email_id: 'E',
      result: 'success' as const,
      code: null,
      ip_address: null,
    });
    await db
      .insertInto('history')
      .values([row('h1', 'admin'), row('h2', 'domain_admin'), row('h3', 'user')])
      .execute();
    expect((await m.migrateToLatest()).error).toBeUndefined();
    const rows = await db.selectFrom('history').select(['id', 'actor_domain']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'h1', actor_domain: null },
      { id: 'h2', actor_domain: 'a.example' },
      { id: 'h3', actor_domain: 'a.example' },
    ]);
  }));
