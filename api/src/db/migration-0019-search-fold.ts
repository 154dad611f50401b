import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically, isSqlite } from './migration-helpers';

/**
 * The quarantine search finds what people type: "felicitations" finds "Félicitations" (case and
 * accents folded), and a message by its client IP (an exact match, through an index).
 *
 * SQLite: the FTS5 trigram table is rebuilt with `remove_diacritics 1` (it already folds case); the
 * row-by-row match uses qc_fold(), a function the api registers on each connection.
 * PostgreSQL: qc_fold(text) = lower(unaccent(text)), IMMUTABLE (unaccent with its dictionary named
 * is), with trigram indexes on the folded subject and senders; unaccent is a trusted extension.
 */
export const m0019_search_fold: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, up);
  },
  async down(db: Kysely<unknown>) {
    await atomically(db, down);
  },
};

async function up(db: Kysely<unknown>) {
  await db.schema.createIndex('qm_ip_address').on('quarantine_messages').column('ip_address').execute();
  if (isSqlite(db)) {
    await sql`create virtual table quarantine_search_folded using fts5(
        message_id unindexed, recipient unindexed, domain unindexed, body,
        tokenize = 'trigram remove_diacritics 1')`.execute(db);
    await sql`insert into quarantine_search_folded (message_id, recipient, domain, body)
        select message_id, recipient, domain, body from quarantine_search`.execute(db);
    await sql`drop table quarantine_search`.execute(db);
    await sql`alter table quarantine_search_folded rename to quarantine_search`.execute(db);
    return;
  }
  await sql`create extension if not exists unaccent with schema public`.execute(db);
  const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
      join pg_namespace n on n.oid = e.extnamespace where e.extname = 'unaccent'`.execute(db);
  // Dollar-quoted body (no user input): unaccent with its dictionary named is immutable.
  const schema = JSON.stringify(rows[0]!.schema);
  await sql
    .raw(
      `create or replace function qc_fold(text) returns text language sql immutable parallel safe strict
      as $fold$ select lower(${schema}.unaccent('${schema}.unaccent'::regdictionary, $1)) $fold$`,
    )
    .execute(db);
  const { rows: trgm } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
      join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const ops = sql.raw(`${JSON.stringify(trgm[0]!.schema)}.gin_trgm_ops`);
  for (const column of ['subject', 'sender', 'envelope_from']) {
    await sql`create index ${sql.raw(`qm_${column}_fold_trgm`)} on quarantine_messages
        using gin (qc_fold(${sql.ref(column)}) ${ops})`.execute(db);
  }
}

async function down(db: Kysely<unknown>) {
  await db.schema.dropIndex('qm_ip_address').execute();
  if (isSqlite(db)) {
    await sql`create virtual table quarantine_search_plain using fts5(
        message_id unindexed, recipient unindexed, domain unindexed, body, tokenize = 'trigram')`.execute(db);
    await sql`insert into quarantine_search_plain (message_id, recipient, domain, body)
        select message_id, recipient, domain, body from quarantine_search`.execute(db);
    await sql`drop table quarantine_search`.execute(db);
    await sql`alter table quarantine_search_plain rename to quarantine_search`.execute(db);
    return;
  }
  for (const column of ['subject', 'sender', 'envelope_from']) {
    await db.schema.dropIndex(`qm_${column}_fold_trgm`).execute();
  }
  await sql`drop function qc_fold(text)`.execute(db);
}
