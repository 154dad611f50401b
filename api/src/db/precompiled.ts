import { CompiledQuery, SqliteAdapter, type Compilable, type RawBuilder } from 'kysely';
import type { DbExecutor } from './database';

/** SQL text → statement name, for the queries PostgreSQL runs as named prepared statements. */
const preparedNames = new Map<string, string>();
const names = new Set<string>();

/** The name under which PostgreSQL prepares this SQL text, if it is a precompiled query's. */
export function preparedStatementName(text: string): string | undefined {
  return preparedNames.get(text);
}

interface Compiled {
  sql: string;
  /** For each parameter of the SQL: which argument it is, or -1 for a constant of the query. */
  slots: number[];
  constants: readonly unknown[];
}

/**
 * A query of fixed shape on a hot path (every request): Kysely builds and compiles it once per
 * dialect, then only its arguments change. On PostgreSQL it runs as a named prepared statement,
 * parsed and planned once per connection: keep it to lookups whose generic plan is the right one
 * (a primary key), not to queries whose best plan depends on the values.
 */
export function precompiled<A extends string[], R>(
  name: string,
  build: (db: DbExecutor, ...args: A) => Compilable<R> | RawBuilder<R>,
): (db: DbExecutor, ...args: A) => Promise<R[]> {
  if (names.has(name)) throw new Error(`precompiled query name used twice: ${name}`);
  names.add(name);
  const byDialect = new Map<'sqlite' | 'postgres', Compiled>();
  return async (db, ...args) => {
    const dialect = db.getExecutor().adapter instanceof SqliteAdapter ? 'sqlite' : 'postgres';
    let compiled = byDialect.get(dialect);
    if (!compiled) {
      // Built with markers in place of the arguments, to learn where each one lands.
      const markers = args.map((_, i) => `\u0000argument ${i}\u0000`) as A;
      // A raw sql`` needs the database to compile; a query builder ignores the argument.
      const query = (build(db, ...markers) as { compile(db: DbExecutor): CompiledQuery<R> }).compile(db);
      const slots = query.parameters.map((p) => markers.indexOf(p as string));
      // An argument the builder changed (a pattern, a lower-cased copy) would be sent as its marker.
      if (markers.some((_, i) => !slots.includes(i)))
        throw new Error(`precompiled ${name}: an argument is not a parameter`);
      compiled = { sql: query.sql, slots, constants: query.parameters };
      byDialect.set(dialect, compiled);
      if (dialect === 'postgres') preparedNames.set(query.sql, `qc_${name}`);
    }
    const { constants, slots } = compiled;
    const parameters = slots.map((slot, i) => (slot < 0 ? constants[i] : args[slot]));
    const { rows } = await db.executeQuery<R>(CompiledQuery.raw(compiled.sql, parameters));
    return rows;
  };
}
