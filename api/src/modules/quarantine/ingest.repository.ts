import { sql } from 'kysely';
import type { Db, DbExecutor } from '../../db/database';
import type { QuarantineMessagesTable } from '../../db/schema';
import { normaliseAddress, recipientDomain } from '../../lib/addresses';
import type { Outcome } from '../../lib/group-commit';
import { newId } from '../../lib/ids';
import { addDaily, applyDailyDeltas, riskField, type DailyDeltas } from '../statistics/statistics.repository';
import { addTops, applyTopsDeltas, scoringSymbols, type TopsDeltas } from '../statistics/tops.repository';
import { addDelta, applyCountDeltas, type CountDeltas } from './quarantine-counters';
import { chunks, isSqlite } from './quarantine-scope';

/** The parsed fields beyond the minimal ones (all optional: tests may store bare messages). */
export type MessageDetails = Partial<
  Pick<
    QuarantineMessagesTable,
    | 'envelope_from'
    | 'required_score'
    | 'header_date'
    | 'helo'
    | 'ip_address'
    | 'country'
    | 'sender_domain'
    | 'mime_user'
    | 'mime_domain'
    | 'dkim'
    | 'spf'
    | 'dedup_key'
    | 'attachments'
    | 'urls'
    | 'symbols'
    | 'headers'
    | 'body_text'
    | 'body_html'
    | 'body_truncated'
    | 'envelope_to'
    | 'search_extra'
  >
>;

export interface NewQuarantinedMessage {
  uuid?: string | null;
  receivedAt: number;
  sender: string;
  subject: string | null;
  score: number | null;
  action: string;
  size: number;
  messageId?: string | null;
  recipients: string[];
  details?: MessageDetails;
  /** The original bytes (quarantine_raw). */
  raw?: { data: Buffer; sha256: string };
}

/** A message not stored because one with its uuid or dedup_key (or id) already is. */
export class DuplicateMessageError extends Error {
  constructor() {
    super('A message with this uuid or content is already stored.');
    this.name = 'DuplicateMessageError';
  }
}

/**
 * Stores a message, its raw bytes, one pending row per distinct recipient, the text index (SQLite),
 * the counters and the day's statistics — all in one transaction: when this resolves, the mail is
 * durable. A uuid or dedup_key seen before: DuplicateMessageError (nothing is written).
 */
export async function insertQuarantinedMessage(db: Db, msg: NewQuarantinedMessage): Promise<string> {
  const [outcome] = await insertQuarantinedMessages(db, [msg]);
  if (!outcome?.ok) throw outcome?.error;
  return outcome.value;
}

/** Multi-row statements stay far below SQLite's and PostgreSQL's bound-parameter limits. */
const MESSAGES_PER_STATEMENT = 32;

/**
 * Stores messages in one transaction (the ingest's group commit: one fsync for all) with a fixed
 * number of statements whatever their count. A message whose uuid or dedup_key is already stored
 * (or another in the same batch) is skipped by `on conflict do nothing` and reported as a
 * DuplicateMessageError in its outcome; the others commit with their counters and statistics.
 */
export async function insertQuarantinedMessages(db: Db, msgs: NewQuarantinedMessage[]): Promise<Outcome<string>[]> {
  const now = Date.now();
  const items = msgs.map((msg) => ({
    msg,
    id: newId(msg.receivedAt),
    recipients: [...new Set(msg.recipients.map(normaliseAddress))],
  }));
  return db.transaction().execute(async (trx) => {
    const stored = new Set<string>();
    for (const batch of chunks(items, MESSAGES_PER_STATEMENT)) {
      const rows = await trx
        .insertInto('quarantine_messages')
        .values(batch.map(({ msg, id, recipients }) => messageRow(msg, id, recipients.length, now)))
        .onConflict((oc) => oc.doNothing())
        .returning('id')
        .execute();
      for (const row of rows) stored.add(row.id);
    }
    const written = items.filter((item) => stored.has(item.id));
    for (const batch of chunks(
      written.filter((item) => item.msg.raw),
      MESSAGES_PER_STATEMENT,
    )) {
      await trx
        .insertInto('quarantine_raw')
        .values(batch.map(({ msg, id }) => ({ message_id: id, sha256: msg.raw!.sha256, data: msg.raw!.data })))
        .execute();
    }
    const recipientRows = written.flatMap(({ msg, id, recipients }) =>
      recipients.map((recipient) => ({
        message_id: id,
        recipient,
        domain: recipientDomain(recipient),
        status: 'pending' as const,
        received_at: msg.receivedAt,
        updated_at: now,
        delivery_id: null,
      })),
    );
    for (const batch of chunks(recipientRows)) await trx.insertInto('quarantine_recipients').values(batch).execute();
    if (isSqlite(trx)) await indexForSearch(trx, written);

    const counts: CountDeltas = new Map();
    const daily: DailyDeltas = new Map();
    for (const { msg, recipients } of written) {
      const risk = riskField(msg.score);
      for (const r of recipients) {
        addDelta(counts, recipientDomain(r), 'pending', 1);
        addDaily(daily, r, msg.receivedAt, 'quarantined');
        if (risk) addDaily(daily, r, msg.receivedAt, risk);
      }
    }
    await applyCountDeltas(trx, counts);
    await applyDailyDeltas(trx, daily);
    // The statistics' top senders, recipients and symbols (issue 23 #21).
    const tops: TopsDeltas = new Map();
    for (const { msg, recipients } of written) {
      const symbols = scoringSymbols(msg.details?.symbols);
      addTops(tops, { receivedAt: msg.receivedAt, sender: msg.sender, symbols }, recipients);
    }
    await applyTopsDeltas(trx, tops);
    return items.map(({ id }): Outcome<string> =>
      stored.has(id) ? { ok: true, value: id } : { ok: false, error: new DuplicateMessageError() },
    );
  });
}

function messageRow(msg: NewQuarantinedMessage, id: string, recipientCount: number, now: number) {
  const details = msg.details ?? {};
  return {
    id,
    uuid: msg.uuid ?? null,
    received_at: msg.receivedAt,
    sender: msg.sender,
    subject: msg.subject,
    score: msg.score,
    action: msg.action,
    size: msg.size,
    message_id: msg.messageId ?? null,
    created_at: now,
    envelope_from: details.envelope_from ?? '',
    required_score: details.required_score ?? null,
    header_date: details.header_date ?? null,
    helo: details.helo ?? null,
    ip_address: details.ip_address ?? null,
    country: details.country ?? null,
    sender_domain: details.sender_domain ?? null,
    mime_user: details.mime_user ?? null,
    mime_domain: details.mime_domain ?? null,
    dkim: details.dkim ?? null,
    spf: details.spf ?? null,
    dedup_key: details.dedup_key ?? null,
    recipient_count: recipientCount,
    attachments: details.attachments ?? '[]',
    urls: details.urls ?? '[]',
    symbols: details.symbols ?? '[]',
    headers: details.headers ?? '[]',
    body_text: details.body_text ?? null,
    body_html: details.body_html ?? null,
    body_truncated: details.body_truncated ?? 0,
    envelope_to: details.envelope_to ?? null,
    search_extra: details.search_extra ?? '',
  };
}

/**
 * SQLite FTS5 trigram rows: one per message for its text (and its attachment names and URLs, column
 * `extra`), one per recipient (scoped matches).
 */
async function indexForSearch(
  trx: DbExecutor,
  written: { msg: NewQuarantinedMessage; id: string; recipients: string[] }[],
) {
  const rows = written.flatMap(({ msg, id, recipients }) => [
    sql`(${id}, '', '', ${[msg.subject ?? '', msg.sender, msg.details?.envelope_from ?? ''].join('\n')}, ${msg.details?.search_extra ?? ''})`,
    ...recipients.map((r) => sql`(${id}, ${r}, ${recipientDomain(r)}, ${r}, '')`),
  ]);
  for (const batch of chunks(rows, 200)) {
    await sql`insert into quarantine_search (message_id, recipient, domain, body, extra) values ${sql.join(batch)}`.execute(
      trx,
    );
  }
}

export async function findIdByUuid(db: DbExecutor, uuid: string): Promise<string | undefined> {
  const row = await db.selectFrom('quarantine_messages').select('id').where('uuid', '=', uuid).executeTakeFirst();
  return row?.id;
}

export async function findIdByDedupKey(db: DbExecutor, key: string): Promise<string | undefined> {
  const row = await db.selectFrom('quarantine_messages').select('id').where('dedup_key', '=', key).executeTakeFirst();
  return row?.id;
}

/**
 * Keeps a sender's retry uuid beside the message stored earlier under its first uuid, so the
 * retry's logs (GET /api/haraka/logs/{uuid}/) lead to the message. A uuid already kept: nothing.
 */
/** The retry uuids kept beside a message, oldest first. */
export async function retryUuidsOf(db: DbExecutor, messageId: string): Promise<string[]> {
  const rows = await db
    .selectFrom('quarantine_message_uuids')
    .select('uuid')
    .where('message_id', '=', messageId)
    .orderBy('created_at')
    .orderBy('uuid')
    .execute();
  return rows.map((r) => r.uuid);
}

export async function rememberRetryUuid(db: DbExecutor, messageId: string, uuid: string): Promise<void> {
  await db
    .insertInto('quarantine_message_uuids')
    .values({ uuid, message_id: messageId, created_at: Date.now() })
    .onConflict((oc) => oc.column('uuid').doNothing())
    .execute();
}
