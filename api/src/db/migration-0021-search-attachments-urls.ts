import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically, isSqlite } from './migration-helpers';

/**
 * The quarantine search also finds a message by an attachment's name or a URL of its body
 * (issue 23 #3): "facture-ete" finds "Facture-Été.pdf", "evil.example" a link to
 * https://login.evil.example/reset. Not the body's other words: only those two, which people
 * remember and paste.
 *
 * quarantine_messages.search_extra holds the names and URLs, one a line (searchExtra, bounded).
 * SQLite: a column `extra` of the FTS5 trigram table (its message row; the table is rebuilt, as
 * in 0019). PostgreSQL: a trigram index on qc_fold(search_extra).
 *
 * Backfill: from the names and URLs each message already keeps (the `attachments` and `urls`
 * columns, extracted at ingest since 0003), so mail whose raw is purged is found too and no raw
 * is decompressed or parsed again. In keyset batches: memory stays bounded.
 */
export const m0021_search_attachments_urls: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, up);
  },
  async down(db: Kysely<unknown>) {
    await atomically(db, down);
  },
};

export const SEARCH_EXTRA_LIMITS = { names: 100, urls: 200, chars: 300 } as const;

const cut = (v: string) => [...v.slice(0, SEARCH_EXTRA_LIMITS.chars * 2)].slice(0, SEARCH_EXTRA_LIMITS.chars).join('');

/** The searchable attachment names and URLs of a message, one a line (bounded, empty names dropped). */
export function searchExtra(names: readonly string[], urls: readonly string[]): string {
  const kept = names
    .map((n) => n.trim())
    .filter(Boolean)
    .slice(0, SEARCH_EXTRA_LIMITS.names)
    .map(cut);
  return kept.concat(urls.slice(0, SEARCH_EXTRA_LIMITS.urls).map(cut)).join('\n');
}

/** searchExtra of the stored JSON columns (anything malformed counts as nothing). */
export function searchExtraOfStored(attachments: string, urls: string): string {
  const array = (json: string): unknown[] => {
    try {
      const v: unknown = JSON.parse(json);
      return Array.isArray(v) ? v : [];
    } catch {
      return [];
    }
  };
  const names = array(attachments).map((a) =>
    typeof a === 'object' && a !== null && typeof (a as { name?: unknown }).name === 'string'
      ? (a as { name: string }).name
      : '',
  );
  return searchExtra(
    names,
    array(urls).filter((u): u is string => typeof u === 'string'),
  );
}

const BATCH = 500;

async function up(db: Kysely<unknown>) {
  await sql`alter table quarantine_messages add column search_extra text not null default ''`.execute(db);
  let after = '';
  for (;;) {
    const { rows } = await sql<{ id: string; attachments: string; urls: string }>`select id, attachments, urls
        from quarantine_messages where id > ${after} order by id limit ${BATCH}`.execute(db);
    for (const row of rows) {
      const extra = searchExtraOfStored(row.attachments, row.urls);
      if (extra) await sql`update quarantine_messages set search_extra = ${extra} where id = ${row.id}`.execute(db);
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
  if (isSqlite(db)) {
    await sql`create virtual table quarantine_search_extra using fts5(
        message_id unindexed, recipient unindexed, domain unindexed, body, extra,
        tokenize = 'trigram remove_diacritics 1')`.execute(db);
    await sql`insert into quarantine_search_extra (message_id, recipient, domain, body, extra)
        select s.message_id, s.recipient, s.domain, s.body, case when s.recipient = '' then m.search_extra else '' end
        from quarantine_search s left join quarantine_messages m on m.id = s.message_id`.execute(db);
    await sql`drop table quarantine_search`.execute(db);
    await sql`alter table quarantine_search_extra rename to quarantine_search`.execute(db);
    return;
  }
  const { rows: trgm } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
      join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
  const ops = sql.raw(`${JSON.stringify(trgm[0]!.schema)}.gin_trgm_ops`);
  await sql`create index qm_search_extra_fold_trgm on quarantine_messages
      using gin (qc_fold(search_extra) ${ops})`.execute(db);
}

async function down(db: Kysely<unknown>) {
  if (isSqlite(db)) {
    await sql`create virtual table quarantine_search_prev using fts5(
        message_id unindexed, recipient unindexed, domain unindexed, body,
        tokenize = 'trigram remove_diacritics 1')`.execute(db);
    await sql`insert into quarantine_search_prev (message_id, recipient, domain, body)
        select message_id, recipient, domain, body from quarantine_search`.execute(db);
    await sql`drop table quarantine_search`.execute(db);
    await sql`alter table quarantine_search_prev rename to quarantine_search`.execute(db);
  } else {
    await db.schema.dropIndex('qm_search_extra_fold_trgm').execute();
  }
  await sql`alter table quarantine_messages drop column search_extra`.execute(db);
}
