// First: the test helpers it loads make jest able to load kysely.
import { introspectSchema, migratorFor, withEmptyDatabase } from '../test/migrations';
import { postgresOnly, sqliteOnly } from '../test/helpers';
import { sql } from 'kysely';
import type { DatabaseHandle } from './database';

/** pg_attribute.attcompression of a column: 'l' lz4, 'p' pglz, '' the server's default. */
async function compression(handle: DatabaseHandle, table: string, column: string): Promise<string> {
  const { rows } = await sql<{ c: string }>`select attcompression::text as c from pg_attribute
    where attrelid = ${table}::regclass and attname = ${column}`.execute(handle.db);
  return rows[0]?.c ?? '?';
}

postgresOnly('0006: raw bytes and bodies are lz4-compressed on PostgreSQL; undone by down', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0006_lz4_bodies')).error).toBeUndefined();
    expect(await compression(handle, 'quarantine_raw', 'data')).toBe('l');
    expect(await compression(handle, 'quarantine_messages', 'body_html')).toBe('l');
    expect((await m.migrateDown()).error).toBeUndefined();
    expect(await compression(handle, 'quarantine_raw', 'data')).toBe('');
    expect((await m.migrateToLatest()).error).toBeUndefined();
  }),
);

sqliteOnly('0006 changes nothing on SQLite (no column compression there)', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0005_recipient_statistics')).error).toBeUndefined();
    const before = await introspectSchema(handle);
    expect((await m.migrateUp()).results?.map((r) => [r.migrationName, r.status])).toEqual([
      ['0006_lz4_bodies', 'Success'],
    ]);
    expect(await introspectSchema(handle)).toEqual(before);
  }),
);
