// First: the test helpers it loads make jest able to load kysely.
import { migratorFor, withEmptyDatabase } from '../test/migrations';
import { sql } from 'kysely';

test('0010 adds quarantine_messages.envelope_to (null for the mail stored before); undone by down', () =>
  withEmptyDatabase(async (handle) => {
    const m = await migratorFor(handle);
    expect((await m.migrateTo('0010_envelope_to')).error).toBeUndefined();
    const read = () => sql`select envelope_to from quarantine_messages`.execute(handle.db);
    expect((await read()).rows).toEqual([]);
    expect((await m.migrateDown()).error).toBeUndefined();
    // The error's message, not toThrow: better-sqlite3's errors may come from another realm than jest's Error.
    expect(
      await read().then(
        () => 'still there',
        (err: Error) => err.message,
      ),
    ).toMatch(/envelope_to/);
    expect((await m.migrateToLatest()).error).toBeUndefined();
  }));
