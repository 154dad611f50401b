import { createTestEnv, postgresOnly } from '../test/helpers'; // first: it makes jest able to load kysely
import { sql } from 'kysely';
import { loadConfig } from '../config';
import { openMigratedDatabase, type DatabaseHandle } from './database';
import { precompiled } from './precompiled';

let handle: DatabaseHandle;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  const env = await createTestEnv();
  cleanup = env.cleanup;
  handle = await openMigratedDatabase(loadConfig(env.env, env.tmpDir).database);
  await sql`create table pairs (a text not null, b text not null, kind text not null)`.execute(handle.db);
  await sql`insert into pairs values ('1', 'x', 'kept'), ('1', 'y', 'kept'), ('2', 'x', 'kept'), ('1', 'x', 'other')`.execute(
    handle.db,
  );
});

afterAll(async () => {
  await handle.close();
  await cleanup();
});

// Arguments used in another order than given, beside a constant of the query.
const pairsOf = precompiled(
  'test_pairs',
  (db, b: string, a: string) =>
    sql<{ a: string; b: string }>`select a, b from pairs where a = ${a} and kind = ${'kept'} and b = ${b}`,
);

test('each argument lands in its own place, the query constants stay, every call with its own values', async () => {
  expect(await pairsOf(handle.db, 'x', '1')).toEqual([{ a: '1', b: 'x' }]);
  expect(await pairsOf(handle.db, 'y', '1')).toEqual([{ a: '1', b: 'y' }]);
  expect(await pairsOf(handle.db, 'x', '2')).toEqual([{ a: '2', b: 'x' }]);
  expect(await pairsOf(handle.db, 'y', '2')).toEqual([]);
});

test('inside a transaction too', async () => {
  await handle.db.transaction().execute(async (trx) => {
    await sql`insert into pairs values ('3', 'z', 'kept')`.execute(trx);
    expect(await pairsOf(trx, 'z', '3')).toEqual([{ a: '3', b: 'z' }]);
  });
});

test('an argument the query changes is refused (it would be sent as its placeholder)', async () => {
  const changed = precompiled('test_changed', (db, a: string) => sql`select a from pairs where a = ${a.toUpperCase()}`);
  await expect(changed(handle.db, '1')).rejects.toThrow(/not a parameter/);
});

test('a name is used once', () => {
  expect(() => precompiled('test_pairs', () => sql`select 1`)).toThrow(/used twice/);
});

postgresOnly('PostgreSQL prepares it once per connection, under its name', async () => {
  await handle.db.transaction().execute(async (trx) => {
    // A transaction keeps one connection: its prepared statements are visible to it.
    await pairsOf(trx, 'x', '1');
    await pairsOf(trx, 'y', '2');
    const { rows } = await sql<{ name: string; statement: string }>`
      select name, statement from pg_prepared_statements where name = 'qc_test_pairs'`.execute(trx);
    expect(rows).toHaveLength(1);
    expect(rows[0]!.statement).toContain('from pairs where a = $1 and kind = $2 and b = $3');
  });
});
