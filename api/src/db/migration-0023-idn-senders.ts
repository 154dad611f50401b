import { sql, type Kysely, type RawBuilder } from 'kysely';
import type { Migration } from 'kysely/migration';
import { domainToALabel, withALabelDomain } from '../lib/addresses';
import { applyTopsDeltas, type TopsDeltas } from '../modules/statistics/tops.repository';
import type { Database } from './schema';
import { atomically, isSqlite } from './migration-helpers';

/**
 * Issue 21 item 5, the senders (as 0018 did for the recipients): the ingest now stores the envelope
 * and header From addresses with their domain as A-label (local part as written) and sender_domain
 * as the A-label, lower case; a sender filter turns `bücher.example` into `xn--bcher-kva.example`.
 * Mail stored before kept the U-label spellings and so escaped that filter. This rewrites them as
 * the ingest now writes them, with what is built from them: the message's search row (SQLite; on
 * PostgreSQL the search reads the columns themselves) and the top-senders rollup (a U-label item
 * merged into its A-label one, counts added).
 *
 * The ingest's own helpers convert (@qc/contracts), so old and new rows are one form. Only rows with
 * a non-ASCII character are read (a database without any is left as it is); a name that is no IDN
 * (`bad_ü.example`) stays as stored, as at ingest.
 */

const BATCH = 500;
const NON_ASCII = /[^\x00-\x7f]/;

/** A text with a non-ASCII character (characters differ from bytes), usable as a prefilter. */
function nonAscii(db: Kysely<unknown>, column: string): RawBuilder<boolean> {
  return isSqlite(db)
    ? sql<boolean>`length(${sql.ref(column)}) <> length(cast(${sql.ref(column)} as blob))`
    : sql<boolean>`octet_length(${sql.ref(column)}) <> char_length(${sql.ref(column)})`;
}

/** sender_domain as the ingest computes it: the A-label, lower case (as stored when it does not convert). */
function senderDomain(domain: string | null): string | null {
  if (domain === null || !NON_ASCII.test(domain)) return domain;
  return domainToALabel(domain) ?? domain.toLowerCase();
}

interface MessageRow {
  id: string;
  subject: string | null;
  sender: string;
  envelope_from: string;
  sender_domain: string | null;
}

async function rewriteMessages(db: Kysely<unknown>): Promise<void> {
  const sqlite = isSqlite(db);
  let after = '';
  for (;;) {
    const { rows } = await sql<MessageRow>`select id, subject, sender, envelope_from, sender_domain
      from quarantine_messages where id > ${after}
        and (${nonAscii(db, 'sender')} or ${nonAscii(db, 'envelope_from')} or ${nonAscii(db, 'sender_domain')})
      order by id limit ${BATCH}`.execute(db);
    for (const row of rows) {
      const sender = withALabelDomain(row.sender);
      const envelopeFrom = withALabelDomain(row.envelope_from);
      const domain = senderDomain(row.sender_domain);
      if (sender === row.sender && envelopeFrom === row.envelope_from && domain === row.sender_domain) continue;
      await sql`update quarantine_messages set sender = ${sender}, envelope_from = ${envelopeFrom},
        sender_domain = ${domain} where id = ${row.id}`.execute(db);
      if (sqlite && (sender !== row.sender || envelopeFrom !== row.envelope_from)) {
        // The message's row of the trigram table, built as the ingest builds it (its `extra` kept).
        const body = [row.subject ?? '', sender, envelopeFrom].join('\n');
        await sql`update quarantine_search set body = ${body}
          where message_id = ${row.id} and recipient = ''`.execute(db);
      }
    }
    if (rows.length < BATCH) break;
    after = rows[rows.length - 1]!.id;
  }
}

/** The top senders: each U-label item moves to its A-label key, added to what that key already has. */
async function mergeTopSenders(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<{
    scope: string;
    scope_id: string;
    day: number | string;
    item: string;
    n: number | string;
  }>`
    select scope, scope_id, day, item, n from quarantine_tops
    where kind = 'sender' and ${nonAscii(db, 'item')}`.execute(db);
  const deltas: TopsDeltas = new Map();
  for (const row of rows) {
    // The rollup's item is the sender trimmed, lower case (addTops): the same of the new form.
    const item = withALabelDomain(row.item).toLowerCase();
    if (item === row.item) continue;
    await sql`delete from quarantine_tops where scope = ${row.scope} and scope_id = ${row.scope_id}
      and kind = 'sender' and day = ${row.day} and item = ${row.item}`.execute(db);
    const key = [row.scope, row.scope_id, 'sender', Number(row.day), item].join('\u0000');
    deltas.set(key, (deltas.get(key) ?? 0) + Number(row.n));
  }
  if (deltas.size) await applyTopsDeltas(db as unknown as Kysely<Database>, deltas);
}

export const m0023_idn_senders: Migration = {
  async up(db: Kysely<unknown>) {
    await atomically(db, async (db) => {
      await rewriteMessages(db);
      await mergeTopSenders(db);
    });
  },
  // Nothing in the schema to undo, and the U-label spelling is not kept: the A-label form is what
  // every version reads (a sender filter of any version finds `xn--bcher-kva.example`).
  async down() {},
};
