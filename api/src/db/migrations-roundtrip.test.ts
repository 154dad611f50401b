// First: the test helpers it loads make jest able to load kysely.
import { introspectSchema, migratorFor, withEmptyDatabase, type SchemaSnapshot } from '../test/migrations';
import { migrationProvider } from './migrations';

test(
  'every migration’s down restores the schema its up started from, down to nothing and back up',
  () =>
    withEmptyDatabase(async (handle) => {
      const m = await migratorFor(handle);
      const names = Object.keys(await migrationProvider.getMigrations()).sort();
      const empty = await introspectSchema(handle);
      expect(empty).toEqual({ tables: {}, indexes: {}, other: [] });

      // The schema after each up (index i: after names[i]).
      const after: SchemaSnapshot[] = [];
      for (const name of names) {
        const { error, results } = await m.migrateUp();
        expect([name, error, results?.map((r) => r.migrationName)]).toEqual([name, undefined, [name]]);
        after.push(await introspectSchema(handle));
      }
      expect(Object.keys(after.at(-1)!.tables)).toContain('quarantine_messages');

      // Each down, last first, must leave exactly the schema the previous up left (or none at all).
      for (let i = names.length - 1; i >= 0; i--) {
        const { error } = await m.migrateDown();
        expect([names[i], error]).toEqual([names[i], undefined]);
        expect([`after down of ${names[i]}`, await introspectSchema(handle)]).toEqual([
          `after down of ${names[i]}`,
          i === 0 ? empty : after[i - 1],
        ]);
      }

      const { error } = await m.migrateToLatest();
      expect(error).toBeUndefined();
      expect(await introspectSchema(handle)).toEqual(after.at(-1));
    }),
  // Sixteen migrations up, down and up again, with a schema introspection after each: ~5 s on
  // PostgreSQL on a loaded 2-core machine (jest's default is 5 s).
  60_000,
);
