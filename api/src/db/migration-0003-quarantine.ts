import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { atomically, isSqlite } from './migration-helpers';

// Issue 4: quarantine ingest, list, detail, release, delete, history. Portable DDL except the text
// search (DESIGN §5): an FTS5 trigram table on SQLite, pg_trgm GIN indexes on PostgreSQL.

const MESSAGE_COLUMNS: [string, 'text' | 'bigint' | 'integer' | 'double precision', string | number | null][] = [
  ['envelope_from', 'text', ''],
  ['required_score', 'double precision', null],
  ['header_date', 'bigint', null],
  ['helo', 'text', null],
  ['ip_address', 'text', null],
  ['country', 'text', null],
  ['sender_domain', 'text', null],
  ['mime_user', 'text', null],
  ['mime_domain', 'text', null],
  ['dkim', 'text', null],
  ['spf', 'text', null],
  // sha256 of (envelope, sha256 of the bytes): a re-sent message under a new Haraka uuid is found again.
  ['dedup_key', 'text', null],
  ['recipient_count', 'integer', 0],
  // JSON arrays (never objects: no prototype keys), written and read by the repository only.
  ['attachments', 'text', '[]'],
  ['urls', 'text', '[]'],
  ['symbols', 'text', '[]'],
  ['headers', 'text', '[]'],
  ['body_text', 'text', null],
  ['body_html', 'text', null],
  ['body_truncated', 'integer', 0],
];

const STATUS_CHECK = sql`status in ('pending', 'releasing', 'released', 'release_failed', 'release_unknown', 'deleted')`;

async function createRecipientIndexes(db: Kysely<unknown>) {
  // DESIGN §5: keyset on (received_at, id) per recipient, per domain and overall; status is carried in
  // the index so the list's status filter is answered from the index alone.
  await db.schema
    .createIndex('qr_recipient_date')
    .on('quarantine_recipients')
    .columns(['recipient', 'received_at desc', 'message_id desc', 'status'])
    .execute();
  await db.schema
    .createIndex('qr_domain_date')
    .on('quarantine_recipients')
    .columns(['domain', 'received_at desc', 'message_id desc', 'status'])
    .execute();
  await db.schema
    .createIndex('qr_date')
    .on('quarantine_recipients')
    .columns(['received_at desc', 'message_id desc', 'status'])
    .execute();
}

export const m0003_quarantine: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      for (const [name, type, def] of MESSAGE_COLUMNS) {
        await db.schema
          .alterTable('quarantine_messages')
          .addColumn(name, type, (c) => (def === null ? c : c.notNull().defaultTo(def)))
          .execute();
      }
      await sql`update quarantine_messages set recipient_count =
        (select count(*) from quarantine_recipients r where r.message_id = quarantine_messages.id)`.execute(db);
      await db.schema.createIndex('qm_dedup').on('quarantine_messages').column('dedup_key').unique().execute();

      // The original bytes, as received (BLOB on SQLite, bytea on PostgreSQL).
      await db.schema
        .createTable('quarantine_raw')
        .addColumn('message_id', 'text', (c) => c.primaryKey().references('quarantine_messages.id').onDelete('cascade'))
        .addColumn('sha256', 'text', (c) => c.notNull())
        .addColumn('data', 'bytea', (c) => c.notNull())
        .execute();

      // One row per release attempt; its id is also the claim token of the recipient rows it sends to.
      await db.schema
        .createTable('quarantine_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('message_id', 'text', (c) => c.notNull().references('quarantine_messages.id').onDelete('cascade'))
        .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('actor_email', 'text', (c) => c.notNull())
        .addColumn('started_at', 'bigint', (c) => c.notNull())
        .addColumn('finished_at', 'bigint')
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('response', 'text')
        .addColumn('accepted', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('rejected', 'text', (c) => c.notNull().defaultTo('[]'))
        .addCheckConstraint(
          'qd_outcome',
          sql`outcome in ('in_progress', 'released', 'partially_released', 'relay_refused', 'relay_unreachable', 'release_unknown')`,
        )
        .execute();
      await db.schema
        .createIndex('qd_message')
        .on('quarantine_deliveries')
        .columns(['message_id', 'started_at'])
        .execute();

      // Recipient rows get the release_unknown status and the last delivery attempt. A CHECK cannot be
      // altered on SQLite, so the table is rebuilt (the same portable way on both).
      await db.schema
        .createTable('quarantine_recipients_next')
        .addColumn('message_id', 'text', (c) => c.notNull().references('quarantine_messages.id').onDelete('cascade'))
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        // While status = 'releasing': the claim (the delivery attempt's id); afterwards its last attempt.
        .addColumn('delivery_id', 'text')
        .addPrimaryKeyConstraint('qr_pk', ['message_id', 'recipient'])
        .addCheckConstraint('qr_status_check', STATUS_CHECK)
        .execute();
      await sql`insert into quarantine_recipients_next
        (message_id, recipient, domain, status, received_at, updated_at, delivery_id)
        select message_id, recipient, domain, status, received_at, updated_at, null from quarantine_recipients`.execute(
        db,
      );
      await db.schema.dropTable('quarantine_recipients').execute();
      await db.schema.alterTable('quarantine_recipients_next').renameTo('quarantine_recipients').execute();
      await createRecipientIndexes(db);

      // Append-only audit trail (spec §3 "History entry"); kept when the mail is purged.
      await db.schema
        .createTable('history')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'bigint', (c) => c.notNull())
        .addColumn('actor_id', 'text', (c) => c.references('users.id').onDelete('set null'))
        .addColumn('actor_email', 'text', (c) => c.notNull())
        .addColumn('actor_role', 'text', (c) => c.notNull())
        .addColumn('actor_domain', 'text')
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('email_id', 'text', (c) => c.notNull())
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('code', 'text')
        .addColumn('ip_address', 'text')
        .addCheckConstraint('history_action', sql`action in ('download', 'release', 'delete')`)
        .addCheckConstraint('history_result', sql`result in ('success', 'failure')`)
        .execute();
      await db.schema.createIndex('history_date').on('history').columns(['created_at desc', 'id desc']).execute();
      await db.schema
        .createIndex('history_actor_date')
        .on('history')
        .columns(['actor_id', 'created_at desc', 'id desc'])
        .execute();
      await db.schema
        .createIndex('history_domain_date')
        .on('history')
        .columns(['actor_domain', 'created_at desc', 'id desc'])
        .execute();

      if (isSqlite(db)) {
        // One row per message (body: subject, sender, envelope sender; recipient '') and one per
        // recipient (body: the address), so a recipient match can be limited to the caller's scope.
        await sql`create virtual table quarantine_search using fts5(
          message_id unindexed, recipient unindexed, domain unindexed, body, tokenize = 'trigram')`.execute(db);
        await sql`insert into quarantine_search (message_id, recipient, domain, body)
          select id, '', '', coalesce(subject, '') || char(10) || sender || char(10) || envelope_from
          from quarantine_messages`.execute(db);
        await sql`insert into quarantine_search (message_id, recipient, domain, body)
          select message_id, recipient, domain, recipient from quarantine_recipients`.execute(db);
      } else {
        // pg_trgm is a trusted extension (the database owner may create it). Installed once per
        // database, in public unless it already is elsewhere; its operator class is schema-qualified.
        await sql`create extension if not exists pg_trgm with schema public`.execute(db);
        const { rows } = await sql<{ schema: string }>`select n.nspname as schema from pg_extension e
          join pg_namespace n on n.oid = e.extnamespace where e.extname = 'pg_trgm'`.execute(db);
        const ops = sql.raw(`${JSON.stringify(rows[0]!.schema)}.gin_trgm_ops`);
        await sql`create index qm_subject_trgm on quarantine_messages using gin (subject ${ops})`.execute(db);
        await sql`create index qm_sender_trgm on quarantine_messages using gin (sender ${ops})`.execute(db);
        await sql`create index qm_envelope_from_trgm on quarantine_messages using gin (envelope_from ${ops})`.execute(
          db,
        );
        await sql`create index qr_recipient_trgm on quarantine_recipients using gin (recipient ${ops})`.execute(db);
      }
    });
  },

  async down(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      if (isSqlite(db)) await sql`drop table quarantine_search`.execute(db);
      else {
        for (const index of ['qm_subject_trgm', 'qm_sender_trgm', 'qm_envelope_from_trgm']) {
          await db.schema.dropIndex(index).execute();
        }
      }
      await db.schema.dropTable('history').execute();
      await db.schema
        .createTable('quarantine_recipients_prev')
        .addColumn('message_id', 'text', (c) => c.notNull())
        .addColumn('recipient', 'text', (c) => c.notNull())
        .addColumn('domain', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('received_at', 'bigint', (c) => c.notNull())
        .addColumn('updated_at', 'bigint', (c) => c.notNull())
        // The names 0001 gave them (PostgreSQL keeps a constraint's name when its table is renamed).
        .addPrimaryKeyConstraint('quarantine_recipients_pk', ['message_id', 'recipient'])
        .addForeignKeyConstraint(
          'quarantine_recipients_message_id_fkey',
          ['message_id'],
          'quarantine_messages',
          ['id'],
          (fk) => fk.onDelete('cascade'),
        )
        .addCheckConstraint(
          'qr_status',
          sql`status in ('pending', 'releasing', 'released', 'release_failed', 'deleted')`,
        )
        .execute();
      await sql`insert into quarantine_recipients_prev
        select message_id, recipient, domain,
          case when status = 'release_unknown' then 'releasing' else status end, received_at, updated_at
        from quarantine_recipients`.execute(db);
      await db.schema.dropTable('quarantine_recipients').execute();
      await db.schema.alterTable('quarantine_recipients_prev').renameTo('quarantine_recipients').execute();
      await db.schema
        .createIndex('qr_recipient_date')
        .on('quarantine_recipients')
        .columns(['recipient', 'received_at desc', 'message_id desc'])
        .execute();
      await db.schema
        .createIndex('qr_domain_date')
        .on('quarantine_recipients')
        .columns(['domain', 'received_at desc', 'message_id desc'])
        .execute();
      await db.schema.dropTable('quarantine_deliveries').execute();
      await db.schema.dropTable('quarantine_raw').execute();
      await db.schema.dropIndex('qm_dedup').execute();
      for (const [name] of [...MESSAGE_COLUMNS].reverse()) {
        await db.schema.alterTable('quarantine_messages').dropColumn(name).execute();
      }
    });
  },
};
