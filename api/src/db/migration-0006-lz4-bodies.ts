import { sql, SqliteAdapter, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// PostgreSQL only: the raw message and the stored bodies are compressed with lz4 instead of pglz
// (TOAST). pglz spent most of the server's time on 50 KB messages (durable ingest 260 → 338 msg/s
// with 10 posters). Values written before keep their compression. A server built without lz4 keeps
// pglz: the method must be listed by default_toast_compression.

const COLUMNS: [table: string, column: string][] = [
  ['quarantine_raw', 'data'],
  ['quarantine_messages', 'body_text'],
  ['quarantine_messages', 'body_html'],
  ['quarantine_messages', 'headers'],
];

async function setCompression(db: Kysely<unknown>, method: 'lz4' | 'default'): Promise<void> {
  if (db.getExecutor().adapter instanceof SqliteAdapter) return;
  if (method === 'lz4') {
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_settings
      where name = 'default_toast_compression' and 'lz4' = any(enumvals)`.execute(db);
    if (!rows[0]?.n) return;
  }
  for (const [table, column] of COLUMNS) {
    await sql`alter table ${sql.table(table)} alter column ${sql.ref(column)} set compression ${sql.raw(method)}`.execute(
      db,
    );
  }
}

export const m0006_lz4_bodies: Migration = {
  up: (db) => setCompression(db, 'lz4'),
  down: (db) => setCompression(db, 'default'),
};
