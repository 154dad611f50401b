// First: the test helpers it loads make jest able to load kysely.
import { D1, migratorFor, withEmptyDatabase } from '../test/migrations';
import { sql } from 'kysely';

// 0027: every existing user gets their e-mail as their one address (position 0), source local;
// one owner per address from then on; down and up again keep it so.

const insertUser = (id: string, email: string) =>
  sql`insert into users (id, username, email, first_name, last_name, password_hash, role, domain_id, is_external,
      is_active, mfa_enabled, date_joined, mfa_required)
    values (${id}, ${id}, ${email}, '', '', 'x', 'user', null, 0, 1, 0, ${D1}, 0)`;

test('0027 backfills each user’s e-mail as their primary address; an address has one owner', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0026_history_append_only')).error).toBeUndefined();
    await insertUser('u1', 'ann@a.example').execute(handle.db);
    await insertUser('u2', 'bob@b.example').execute(handle.db);
    expect((await m.migrateTo('0027_user_addresses')).error).toBeUndefined();
    const rows = await sql<{ address: string; user_id: string; position: number }>`
      select address, user_id, position from user_addresses order by address`.execute(handle.db);
    expect(rows.rows.map((r) => ({ ...r, position: Number(r.position) }))).toEqual([
      { address: 'ann@a.example', user_id: 'u1', position: 0 },
      { address: 'bob@b.example', user_id: 'u2', position: 0 },
    ]);
    const sources = await sql<{ source: string }>`select distinct source from users`.execute(handle.db);
    expect(sources.rows).toEqual([{ source: 'local' }]);
    const taken = await sql`insert into user_addresses (address, user_id, position) values ('ann@a.example', 'u2', 1)`
      .execute(handle.db)
      .then(
        () => '',
        (err: unknown) => String((err as { message?: unknown }).message),
      );
    expect(taken).not.toBe('');
    expect((await m.migrateTo('0026_history_append_only')).error).toBeUndefined();
    expect((await m.migrateTo('0027_user_addresses')).error).toBeUndefined();
    const again = await sql<{ n: number }>`select count(*) as n from user_addresses`.execute(handle.db);
    expect(Number(again.rows[0]!.n)).toBe(2);
  }));
