import { sql, SqliteAdapter, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { Db, DbExecutor } from '../../db/database';
import { MESSAGE_ID_INDEXED_CHARS } from '../../db/migration-0008-message-id-index';
import type {
  CountScope,
  DeliveryOutcome,
  QuarantineDeliveriesTable,
  QuarantineMessagesTable,
  RecipientStatus,
} from '../../db/schema';
import { recipientDomain } from '../../lib/addresses';
import type { Outcome } from '../../lib/group-commit';
import { newId } from '../../lib/ids';
import { insertHistory, readerKey, type MailHistoryRow } from '../history/history.repository';
import {
  addDaily,
  applyDailyDeltas,
  riskField,
  type DailyDeltas,
  type DailyField,
} from '../statistics/statistics.repository';

/** Which recipient rows a caller sees (DESIGN §4 "Per recipient"). */
export type Scope =
  { kind: 'all' } | { kind: 'domain'; domain: string } | { kind: 'recipient'; address: string } | { kind: 'none' };

/** Rows per multi-row INSERT: far below SQLite's and PostgreSQL's bound-parameter limits. */
const BATCH = 500;

const isSqlite = (db: DbExecutor) => db.getExecutor().adapter instanceof SqliteAdapter;

function chunks<T>(items: T[], size = BATCH): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/**
 * The scope as a condition on a quarantine_recipients alias (or on the search table's columns).
 * `noIndex` (SQLite): a unary + keeps the planner off that column's index.
 */
function scopeSql(scope: Scope, alias?: string, noIndex = false): RawBuilder<SqlBool> {
  const col = (name: string) => {
    const ref = sql.ref(alias ? `${alias}.${name}` : name);
    return noIndex ? sql`+${ref}` : ref;
  };
  switch (scope.kind) {
    case 'all':
      return sql<SqlBool>`1 = 1`;
    case 'domain':
      return sql<SqlBool>`${col('domain')} = ${scope.domain}`;
    case 'recipient':
      return sql<SqlBool>`${col('recipient')} = ${scope.address}`;
    default:
      return sql<SqlBool>`1 = 0`;
  }
}

/**
 * The rows of given messages are read by primary key (message_id, recipient). On SQLite (no
 * statistics) the scope's column is hidden from the planner (unary +): else it may pick the
 * (domain, …) index and read the whole domain to find a page's rows.
 */
const byMessageScope = (db: DbExecutor, scope: Scope) => scopeSql(scope, undefined, isSqlite(db));

/** Case-insensitive substring match, the user's text taken literally (no wildcards). */
function containsSql(db: DbExecutor, ref: string, value: string): RawBuilder<SqlBool> {
  const pattern = `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return isSqlite(db)
    ? sql<SqlBool>`${sql.ref(ref)} like ${pattern} escape '\\'`
    : sql<SqlBool>`${sql.ref(ref)} ilike ${pattern}`;
}

// ---------------------------------------------------------------------------------------------
// Counters (dashboard read model), kept in the writer's transaction.

type CountKey = `${CountScope}\u0000${string}\u0000${RecipientStatus}`;
export type CountDeltas = Map<CountKey, number>;

function addDelta(deltas: CountDeltas, domain: string, status: RecipientStatus, d: number) {
  for (const key of [`global\u0000*\u0000${status}`, `domain\u0000${domain}\u0000${status}`] as CountKey[]) {
    deltas.set(key, (deltas.get(key) ?? 0) + d);
  }
}

/**
 * Applies counter deltas inside the caller's transaction in multi-row upserts (a counter row per
 * domain touched, plus the global one: one statement but for the largest batches). Rows in sorted key order so concurrent PostgreSQL writers
 * lock counter rows in the same order (no deadlock).
 */
async function applyCountDeltas(trx: DbExecutor, deltas: CountDeltas): Promise<void> {
  const rows = [...deltas.keys()].sort().flatMap((key) => {
    const n = deltas.get(key)!;
    if (n === 0) return [];
    const [scope, scope_id, status] = key.split('\u0000') as [CountScope, string, RecipientStatus];
    return [{ scope, scope_id, status, n }];
  });
  for (const batch of chunks(rows)) {
    await trx
      .insertInto('quarantine_counts')
      .values(batch)
      .onConflict((oc) =>
        oc.columns(['scope', 'scope_id', 'status']).doUpdateSet({ n: sql`quarantine_counts.n + excluded.n` }),
      )
      .execute();
  }
}

/** The rollup column a move into `status` counts in (released and deleted are counted on the day of the change). */
const DAILY_OF: Partial<Record<RecipientStatus, DailyField>> = { released: 'released', deleted: 'deleted' };

export { recipientDomain };

// ---------------------------------------------------------------------------------------------
// Ingest

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
    recipients: [...new Set(msg.recipients.map((r) => r.trim().toLowerCase()))],
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
  };
}

/** SQLite FTS5 trigram rows: one per message for its text, one per recipient (scoped matches). */
async function indexForSearch(
  trx: DbExecutor,
  written: { msg: NewQuarantinedMessage; id: string; recipients: string[] }[],
) {
  const rows = written.flatMap(({ msg, id, recipients }) => [
    sql`(${id}, '', '', ${[msg.subject ?? '', msg.sender, msg.details?.envelope_from ?? ''].join('\n')})`,
    ...recipients.map((r) => sql`(${id}, ${r}, ${recipientDomain(r)}, ${r})`),
  ]);
  for (const batch of chunks(rows, 200)) {
    await sql`insert into quarantine_search (message_id, recipient, domain, body) values ${sql.join(batch)}`.execute(
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

// ---------------------------------------------------------------------------------------------
// List

export interface ListFilters {
  /** Recipient statuses to match (any visible recipient in one of them); null = any status. */
  statuses: RecipientStatus[] | null;
  q?: string;
  /** The ids a 3+ character `q` matches, when few (found first); else the match is a subquery. */
  textIds?: string[];
  sender?: string;
  /** PostgreSQL: the ids `sender` matches, when few (found first); else it is tested along the scan. */
  senderIds?: string[];
  recipient?: string;
  action?: string;
  scoreMin?: number;
  scoreMax?: number;
  dateFrom?: number;
  dateTo?: number;
}

export interface ListKey {
  received_at: number;
  message_id: string;
}

/** Shorter terms have no trigram: they are matched with LIKE on the rows the keyset scan reads. */
export const TRIGRAM_MIN = 3;
/**
 * A text search with at most this many hits is answered hits first (the trigram index finds them,
 * then only their rows are sorted); with more, the scope's index is walked in keyset order and each
 * row's message is tested, which finds a page quickly because hits are then frequent.
 */
export const HITS_FIRST_MAX = 2000;
/**
 * On PostgreSQL a sender filter matching at most this many messages is answered hits first too.
 * Otherwise the planner may walk the date index for a sender whose mail is old (a past campaign)
 * and read every newer row: 300 ms at 1M rows. Hits spread evenly break even at about 3,000.
 * SQLite tests the sender along the scope's index at 7 ms: no probe there.
 */
export const SENDER_HITS_FIRST_MAX = 4000;

/**
 * One keyset page of the messages the caller may see, newest first: (received_at, id) strictly
 * after `after`. Driven by the scope's index on quarantine_recipients ((recipient|domain|-),
 * received_at DESC, message_id DESC, status); message filters join quarantine_messages. No OFFSET,
 * no count. A text search of 3+ characters first asks the trigram index (FTS5 on SQLite, pg_trgm
 * GIN on PostgreSQL) for at most HITS_FIRST_MAX + 1 hits: few hits are read by primary key and
 * sorted; many are matched row by row along the keyset scan (which stops after one page). On
 * PostgreSQL a sender filter of 3+ characters is probed the same way (SENDER_HITS_FIRST_MAX).
 */
export async function listPage(
  db: DbExecutor,
  scope: Scope,
  f: ListFilters,
  after: ListKey | null,
  limit: number,
): Promise<ListMessageRow[]> {
  if (f.q !== undefined && f.q.length >= TRIGRAM_MIN && !f.textIds) {
    const hits = await textHitIds(db, scope, f.q, HITS_FIRST_MAX);
    if (hits.complete && !hits.ids.length) return [];
    if (hits.complete) f = { ...f, textIds: hits.ids };
  }
  if (f.sender !== undefined && f.sender.length >= TRIGRAM_MIN && !f.senderIds && !isSqlite(db)) {
    const hits = await senderHitIds(db, f.sender, SENDER_HITS_FIRST_MAX);
    if (hits.complete && !hits.ids.length) return [];
    if (hits.complete) f = { ...f, senderIds: hits.ids };
  }
  const { rows } = await listPageQuery(db, scope, f, after, limit).execute(db);
  return rows.map((r) => ({ ...r, received_at: Number(r.received_at) }));
}

/** The page's keys, then their messages by primary key: one statement, one round trip (query-plan test). */
export function listPageQuery(db: DbExecutor, scope: Scope, f: ListFilters, after: ListKey | null, limit: number) {
  return sql<ListMessageRow>`select m.id, m.received_at, m.sender, m.subject, m.score, m.action, m.size,
      m.recipient_count, m.raw_purged_at
    from (${listKeysQuery(db, scope, f, after, limit)}) k join quarantine_messages m on m.id = k.message_id
    order by k.received_at desc, k.message_id desc`;
}

/** The keys of listPage's page (exported for the query-plan test). */
export function listKeysQuery(
  db: DbExecutor,
  scope: Scope,
  f: ListFilters,
  after: ListKey | null,
  limit: number,
): RawBuilder<ListKey> {
  const senderTested = f.sender !== undefined && !f.senderIds;
  const needsMessage = senderTested || f.action !== undefined || f.scoreMin !== undefined || f.scoreMax !== undefined;
  // Few text hits: their rows by primary key, then sorted. SQLite has no statistics to see that, so
  // the other indexed columns are hidden from its planner (unary +).
  const hitsFirst = f.textIds !== undefined && isSqlite(db);
  const receivedAt = hitsFirst ? sql`+r.received_at` : sql`r.received_at`;
  const conditions: Expression<SqlBool>[] = [scopeSql(scope, 'r', hitsFirst)];
  if (f.statuses) conditions.push(sql<SqlBool>`r.status in (${sql.join(f.statuses)})`);
  if (f.dateFrom !== undefined) conditions.push(sql<SqlBool>`${receivedAt} >= ${f.dateFrom}`);
  if (f.dateTo !== undefined) conditions.push(sql<SqlBool>`${receivedAt} <= ${f.dateTo}`);
  if (f.recipient !== undefined) conditions.push(containsSql(db, 'r.recipient', f.recipient));
  if (f.action !== undefined) conditions.push(sql<SqlBool>`m.action = ${f.action}`);
  if (f.scoreMin !== undefined) conditions.push(sql<SqlBool>`m.score >= ${f.scoreMin}`);
  if (f.scoreMax !== undefined) conditions.push(sql<SqlBool>`m.score <= ${f.scoreMax}`);
  if (f.senderIds) conditions.push(sql<SqlBool>`r.message_id in (${sql.join(f.senderIds)})`);
  else if (senderTested) conditions.push(senderSql(db, 'm', f.sender!));
  if (f.textIds) {
    conditions.push(sql<SqlBool>`r.message_id in (${sql.join(f.textIds)})`);
  } else if (f.q !== undefined) {
    // Many hits (or a term too short for trigrams): tested on each row the keyset scan reads — the
    // message's subject and senders (by primary key), and this (visible) recipient's address. A
    // scalar subquery, not EXISTS: PostgreSQL may turn an EXISTS into a hashed subplan, which reads
    // and matches every message before the first row (a full scan, whatever the LIMIT).
    const text = ['t.subject', 't.sender', 't.envelope_from'].map((c) => containsSql(db, c, f.q!));
    const messageIds = messageIdForms(f.q);
    if (messageIds) text.push(messageIdSql('t', messageIds));
    conditions.push(
      sql<SqlBool>`(coalesce((select ${sql.join(text, sql` or `)} from quarantine_messages t where t.id = r.message_id), false)
        or ${containsSql(db, 'r.recipient', f.q)})`,
    );
  }
  if (after) {
    // PostgreSQL takes a row comparison as one index range. SQLite needs the redundant `<=` to seek
    // to the cursor: with the OR alone it walks the index from the newest row (O(depth)).
    conditions.push(
      isSqlite(db)
        ? sql<SqlBool>`${receivedAt} <= ${after.received_at} and (${receivedAt} < ${after.received_at} or (${receivedAt} = ${after.received_at} and r.message_id < ${after.message_id}))`
        : sql<SqlBool>`(r.received_at, r.message_id) < (${after.received_at}, ${after.message_id})`,
    );
  }
  // A user has one row per message (the primary key is (message_id, recipient)): no DISTINCT needed.
  const distinct = scope.kind === 'recipient' ? sql`` : sql`distinct`;
  const join = needsMessage ? sql`join quarantine_messages m on m.id = r.message_id` : sql``;
  return sql<ListKey>`select ${distinct} r.received_at, r.message_id
    from quarantine_recipients r ${join}
    where ${sql.join(conditions, sql` and `)}
    order by r.received_at desc, r.message_id desc
    limit ${limit}`;
}

/**
 * A search term that looks like a Message-ID ("<id@host>", with or without its angle brackets) in
 * the forms it may be stored in; null for any other term. Matched exactly (index qm_message_id).
 */
export function messageIdForms(q: string): [string, string] | null {
  const core = q.trim().replace(/^<(.*)>$/, '$1');
  return /^[^\s<>@]+@[^\s<>@]+$/.test(core) ? [`<${core}>`, core] : null;
}

/** The message's Message-ID is one of `forms`: through the index of its first characters (qm_message_id). */
function messageIdSql(alias: string, forms: readonly string[]): RawBuilder<SqlBool> {
  // substr counts characters (code points) on both databases; a JS string slice counts UTF-16 units.
  const prefixes = forms.map((f) => [...f].slice(0, MESSAGE_ID_INDEXED_CHARS).join(''));
  const column = sql.ref(`${alias}.message_id`);
  return sql<SqlBool>`(substr(${column}, 1, ${sql.lit(MESSAGE_ID_INDEXED_CHARS)}) in (${sql.join(prefixes)})
    and ${column} in (${sql.join(forms)}))`;
}

/**
 * The ids of messages whose subject or senders, or one of whose recipients in scope, contain `q`, or
 * whose Message-ID is `q`
 * (3+ characters), from the trigram indexes — complete when there are at most `limit` (else only
 * `complete: false`: the index read stops early for a common term).
 */
export async function textHitIds(
  db: DbExecutor,
  scope: Scope,
  q: string,
  limit: number,
): Promise<{ ids: string[]; complete: boolean }> {
  // A message can be hit more than once (its text and each recipient): read a margin, count unique ids.
  const cap = limit * 2 + 1;
  const { rows } = await textHitsQuery(db, scope, q, cap).execute(db);
  const ids = [...new Set(rows.map((r) => r.message_id))];
  return rows.length < cap && ids.length <= limit ? { ids, complete: true } : { ids: [], complete: false };
}

/** The SQL of textHitIds (exported for the query-plan test): the trigram indexes, at most `cap` rows. */
export function textHitsQuery(
  db: DbExecutor,
  scope: Scope,
  q: string,
  cap: number,
): RawBuilder<{ message_id: string }> {
  const forms = messageIdForms(q);
  const byMessageId = forms
    ? sql`union all select id as message_id from quarantine_messages m where ${messageIdSql('m', forms)}`
    : sql``;
  if (isSqlite(db)) {
    const phrase = `"${q.replaceAll('"', '""')}"`;
    return sql`select message_id from quarantine_search
      where quarantine_search match ${phrase} and (recipient = '' or ${scopeSql(scope)})
    ${byMessageId}
    limit ${cap}`;
  }
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql`select id as message_id from quarantine_messages
      where subject ilike ${pattern} or sender ilike ${pattern} or envelope_from ilike ${pattern}
    union all
    select message_id from quarantine_recipients where recipient ilike ${pattern} and ${scopeSql(scope)}
    ${byMessageId}
    limit ${cap}`;
}

/** The message's header or envelope sender contains `value` (case-insensitive on PostgreSQL). */
function senderSql(db: DbExecutor, alias: string, value: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${containsSql(db, `${alias}.sender`, value)} or ${containsSql(db, `${alias}.envelope_from`, value)})`;
}

/** The ids of the messages whose sender contains `sender` (3+ characters), when at most `limit`. */
export async function senderHitIds(
  db: DbExecutor,
  sender: string,
  limit: number,
): Promise<{ ids: string[]; complete: boolean }> {
  const { rows } = await senderHitsQuery(db, sender, limit + 1).execute(db);
  return rows.length <= limit ? { ids: rows.map((r) => r.id), complete: true } : { ids: [], complete: false };
}

/** The SQL of senderHitIds (exported for the query-plan test): the senders' trigram indexes on PostgreSQL. */
export function senderHitsQuery(db: DbExecutor, sender: string, cap: number): RawBuilder<{ id: string }> {
  return sql`select m.id from quarantine_messages m where ${senderSql(db, 'm', sender)} limit ${cap}`;
}

export type ListMessageRow = Pick<
  QuarantineMessagesTable,
  'id' | 'received_at' | 'sender' | 'subject' | 'score' | 'action' | 'size' | 'recipient_count' | 'raw_purged_at'
>;

/**
 * Every recipient row the caller sees of the given messages, by primary key, in (message, address)
 * order. Unbounded per message: for messages known to have few recipients (see listQuarantine).
 */
export async function visibleRecipients(db: DbExecutor, ids: string[], scope: Scope): Promise<RecipientRow[]> {
  if (!ids.length) return [];
  const { rows } = await visibleRecipientsQuery(db, ids, scope).execute(db);
  return rows.map((r) => ({ ...r, updated_at: Number(r.updated_at) }));
}

/** The SQL of visibleRecipients (exported for the query-plan test). */
export function visibleRecipientsQuery(db: DbExecutor, ids: string[], scope: Scope) {
  return sql<RecipientRow>`select message_id, recipient, status, updated_at from quarantine_recipients
    where message_id in (${sql.join(ids)}) and ${byMessageScope(db, scope)}
    order by message_id, recipient`;
}

export interface RecipientRow {
  message_id: string;
  recipient: string;
  status: RecipientStatus;
  updated_at: number;
}

/** The first `perMessage` recipients (by address) the caller sees of each message. */
export async function firstRecipients(
  db: DbExecutor,
  ids: string[],
  scope: Scope,
  perMessage: number,
): Promise<RecipientRow[]> {
  if (!ids.length) return [];
  const { rows } = await firstRecipientsQuery(db, ids, scope, perMessage).execute(db);
  return rows.map((r) => ({ ...r, updated_at: Number(r.updated_at) }));
}

/** Subjects of those messages the caller sees (through any recipient of theirs), by id. */
export async function visibleSubjects(
  db: DbExecutor,
  ids: string[],
  scope: Scope,
): Promise<Map<string, string | null>> {
  const visible = [...new Set((await firstRecipients(db, ids, scope, 1)).map((r) => r.message_id))];
  if (!visible.length) return new Map();
  const rows = await db
    .selectFrom('quarantine_messages')
    .select(['id', 'subject'])
    .where('id', 'in', visible)
    .execute();
  return new Map(rows.map((r) => [r.id, r.subject]));
}

/** The SQL of firstRecipients (exported for the query-plan test). */
export function firstRecipientsQuery(db: DbExecutor, ids: string[], scope: Scope, perMessage: number) {
  return sql<RecipientRow>`select message_id, recipient, status, updated_at from (
      select message_id, recipient, status, updated_at,
        row_number() over (partition by message_id order by recipient) as rn
      from quarantine_recipients
      where message_id in (${sql.join(ids)}) and ${byMessageScope(db, scope)}
    ) t where rn <= ${perMessage}
    order by message_id, recipient`;
}

export interface StatusCount {
  message_id: string;
  status: RecipientStatus;
  n: number;
}

/**
 * Recipient rows the caller sees, per message and status. A claim older than `staleBefore`
 * (the process died mid-release) counts as release_unknown.
 */
export async function statusCounts(
  db: DbExecutor,
  ids: string[],
  scope: Scope,
  staleBefore: number,
): Promise<StatusCount[]> {
  if (!ids.length) return [];
  const { rows } = await statusCountsQuery(db, ids, scope, staleBefore).execute(db);
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/** The SQL of statusCounts (exported for the query-plan test). */
export function statusCountsQuery(db: DbExecutor, ids: string[], scope: Scope, staleBefore: number) {
  return sql<StatusCount>`select message_id, s as status, count(*) as n from (
      select message_id,
        case when status = 'releasing' and updated_at < ${staleBefore} then 'release_unknown' else status end as s
      from quarantine_recipients
      where message_id in (${sql.join(ids)}) and ${byMessageScope(db, scope)}
    ) t group by message_id, s`;
}

// ---------------------------------------------------------------------------------------------
// Detail, raw

export type MessageRow = QuarantineMessagesTable;

export async function findMessage(db: DbExecutor, id: string): Promise<MessageRow | undefined> {
  return db.selectFrom('quarantine_messages').selectAll().where('id', '=', id).executeTakeFirst();
}

export async function messageExists(db: DbExecutor, id: string): Promise<boolean> {
  return !!(await db.selectFrom('quarantine_messages').select('id').where('id', '=', id).executeTakeFirst());
}

/** Whether this actor had this refusal of this action on this e-mail recorded since `since`. */
export async function refusedSince(db: DbExecutor, row: HistoryRow, since: number): Promise<boolean> {
  if (!row.actor_id) return false;
  const found = await db
    .selectFrom('history')
    .select('id')
    .where('actor_id', '=', row.actor_id)
    .where('created_at', '>=', since)
    .where('email_id', '=', row.email_id)
    .where('action', '=', row.action)
    .where('code', '=', row.code)
    .executeTakeFirst();
  return !!found;
}

export async function findRaw(db: DbExecutor, id: string): Promise<Buffer | undefined> {
  const row = await db.selectFrom('quarantine_raw').select('data').where('message_id', '=', id).executeTakeFirst();
  return row ? Buffer.from(row.data) : undefined;
}

/** Whether the original bytes are still stored (a primary-key probe, no bytes read). */
export async function hasRaw(db: DbExecutor, id: string): Promise<boolean> {
  const row = await db
    .selectFrom('quarantine_raw')
    .select('message_id')
    .where('message_id', '=', id)
    .executeTakeFirst();
  return row !== undefined;
}

export type DeliveryRow = QuarantineDeliveriesTable;

/** The latest release attempt that concerned a recipient the caller sees. */
export async function lastDelivery(db: DbExecutor, id: string, scope: Scope): Promise<DeliveryRow | undefined> {
  const { rows } = await sql<DeliveryRow>`select d.* from quarantine_deliveries d
    where d.id in (select delivery_id from quarantine_recipients
      where message_id = ${id} and delivery_id is not null and ${byMessageScope(db, scope)})
    order by d.started_at desc, d.id desc limit 1`.execute(db);
  const row = rows[0];
  return row
    ? {
        ...row,
        started_at: Number(row.started_at),
        finished_at: row.finished_at === null ? null : Number(row.finished_at),
      }
    : undefined;
}

// ---------------------------------------------------------------------------------------------
/**
 * Appends an audit row with its readers: its actor, the actor's domain, and the addresses and
 * domains of the recipients of that mail within the actor's scope (those the action was about).
 */
export async function recordHistory(db: DbExecutor, row: HistoryRow, scope: Scope): Promise<void> {
  const { rows } = await sql<{ recipient: string; domain: string }>`select recipient, domain
    from quarantine_recipients r
    where r.message_id = ${row.email_id} and ${scopeSql(scope, 'r', isSqlite(db))}`.execute(db);
  const readers = new Set<string>();
  if (row.actor_id) readers.add(readerKey.user(row.actor_id));
  if (row.actor_domain) readers.add(readerKey.domain(row.actor_domain));
  for (const r of rows) {
    readers.add(readerKey.address(r.recipient));
    readers.add(readerKey.domain(r.domain));
  }
  await insertHistory(db, row, [...readers]);
}

// Status changes: compare-and-set per source status, counters and history in the same transaction.

type HistoryRow = MailHistoryRow;

/** Moves the caller's rows of one message from each of `from` to `to`; returns the rows moved. */
async function moveScoped(
  trx: DbExecutor,
  messageId: string,
  scope: Scope,
  from: { status: RecipientStatus; staleBefore?: number }[],
  to: RecipientStatus,
  now: number,
  deliveryId: string | null | undefined,
  deltas: CountDeltas,
  daily: DailyDeltas,
): Promise<{ recipient: string; domain: string }[]> {
  // Sources are never released/deleted (terminal), so no day has to be taken back.
  const field = DAILY_OF[to];
  const moved: { recipient: string; domain: string }[] = [];
  for (const source of from) {
    let query = trx
      .updateTable('quarantine_recipients')
      .set(
        deliveryId === undefined
          ? { status: to, updated_at: now }
          : { status: to, updated_at: now, delivery_id: deliveryId },
      )
      .where('message_id', '=', messageId)
      .where('status', '=', source.status)
      .where(byMessageScope(trx, scope));
    if (source.staleBefore !== undefined) query = query.where('updated_at', '<', source.staleBefore);
    const rows = await query.returning(['recipient', 'domain']).execute();
    for (const r of rows) {
      addDelta(deltas, r.domain, source.status, -1);
      addDelta(deltas, r.domain, to, 1);
      if (field) addDaily(daily, r.recipient, now, field);
      moved.push(r);
    }
  }
  return moved;
}

export interface ClaimInput {
  messageId: string;
  scope: Scope;
  /** Source statuses; `staleBefore` on 'releasing' takes over claims older than that. */
  from: { status: RecipientStatus; staleBefore?: number }[];
  actorId: string;
  actorEmail: string;
  now: number;
}

/**
 * Claims the caller's releasable rows of a message for one delivery attempt (status → releasing,
 * delivery_id → the attempt). Compare-and-set: of two racing calls, the rows go to one; the other
 * claims nothing. Returns the attempt's id and the claimed rows (none: nothing was written).
 */
export async function claimForRelease(
  db: Db,
  input: ClaimInput,
): Promise<{ deliveryId: string; claimed: { recipient: string; domain: string }[] }> {
  const deliveryId = newId(input.now);
  const empty = Symbol('nothing claimed');
  try {
    return await db.transaction().execute(async (trx) => {
      await trx
        .insertInto('quarantine_deliveries')
        .values({
          id: deliveryId,
          message_id: input.messageId,
          actor_id: input.actorId,
          actor_email: input.actorEmail,
          started_at: input.now,
          finished_at: null,
          outcome: 'in_progress',
          response: null,
          accepted: '[]',
          rejected: '[]',
        })
        .execute();
      const deltas: CountDeltas = new Map();
      const claimed = await moveScoped(
        trx,
        input.messageId,
        input.scope,
        input.from,
        'releasing',
        input.now,
        deliveryId,
        deltas,
        new Map(), // releasing is not a statistic
      );
      if (!claimed.length) throw empty; // rolls the attempt row back
      await applyCountDeltas(trx, deltas);
      return { deliveryId, claimed };
    });
  } catch (err) {
    if (err === empty) return { deliveryId, claimed: [] };
    throw err;
  }
}

export interface FinishInput {
  messageId: string;
  deliveryId: string;
  outcome: DeliveryOutcome;
  response: string | null;
  accepted: string[];
  rejected: string[];
  /** New status of each claimed recipient still held by this attempt. */
  statusOf: (recipient: string) => RecipientStatus;
  claimed: string[];
  now: number;
  history: HistoryRow;
  /** The releaser's scope: whose mail the history row is about. */
  scope: Scope;
}

/**
 * Records a delivery attempt's outcome on the attempt, the recipient rows it still holds, the
 * counters, the day's statistics and the history.
 */
export async function finishRelease(db: Db, input: FinishInput): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const finished = await trx
      .updateTable('quarantine_deliveries')
      .set({
        outcome: input.outcome,
        finished_at: input.now,
        response: input.response,
        accepted: JSON.stringify(input.accepted),
        rejected: JSON.stringify(input.rejected),
      })
      .where('id', '=', input.deliveryId)
      .where('finished_at', 'is', null)
      .executeTakeFirst();
    // Already recorded: a retry after a commit whose answer was lost (the connection dropped).
    if (!Number(finished.numUpdatedRows)) return;
    const byStatus = new Map<RecipientStatus, string[]>();
    for (const r of input.claimed) {
      const s = input.statusOf(r);
      byStatus.set(s, [...(byStatus.get(s) ?? []), r]);
    }
    const deltas: CountDeltas = new Map();
    const daily: DailyDeltas = new Map();
    for (const [to, recipients] of byStatus) {
      const field = DAILY_OF[to];
      // One status for all: no address list needed (the claim token selects the rows).
      const groups = byStatus.size === 1 ? [null] : chunks(recipients);
      for (const group of groups) {
        let query = trx
          .updateTable('quarantine_recipients')
          .set({ status: to, updated_at: input.now })
          .where('message_id', '=', input.messageId)
          .where('delivery_id', '=', input.deliveryId)
          .where('status', '=', 'releasing');
        if (group) query = query.where('recipient', 'in', group);
        const rows = await query.returning(['recipient', 'domain']).execute();
        for (const r of rows) {
          addDelta(deltas, r.domain, 'releasing', -1);
          addDelta(deltas, r.domain, to, 1);
          if (field) addDaily(daily, r.recipient, input.now, field);
        }
      }
    }
    await applyCountDeltas(trx, deltas);
    await applyDailyDeltas(trx, daily);
    await recordHistory(trx, input.history, input.scope);
  });
}

/**
 * Soft delete: the caller's held rows (pending, release_failed, release_unknown, and claims older
 * than `staleBefore`, shown as release_unknown: a release whose process died) → deleted, with the
 * counters, the day's statistics and (when a row moved) the history row, in one transaction.
 * Returns how many rows moved.
 */
export async function softDelete(
  db: Db,
  messageId: string,
  scope: Scope,
  now: number,
  staleBefore: number,
  history: HistoryRow,
): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const deltas: CountDeltas = new Map();
    const daily: DailyDeltas = new Map();
    const moved = await moveScoped(
      trx,
      messageId,
      scope,
      [
        { status: 'pending' },
        { status: 'release_failed' },
        { status: 'release_unknown' },
        { status: 'releasing', staleBefore },
      ],
      'deleted',
      now,
      undefined,
      deltas,
      daily,
    );
    await applyCountDeltas(trx, deltas);
    await applyDailyDeltas(trx, daily);
    if (moved.length) await recordHistory(trx, history, scope);
    return moved.length;
  });
}

/**
 * Moves one recipient row from `from` to `to` (compare-and-set, so two racing callers cannot both
 * succeed) and keeps the counters and the statistics in the same transaction. Returns whether the
 * row moved.
 */
export async function transitionRecipient(
  db: Db,
  messageId: string,
  recipient: string,
  from: RecipientStatus,
  to: RecipientStatus,
  now = Date.now(),
): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const row = trx
      .selectFrom('quarantine_recipients')
      .where('message_id', '=', messageId)
      .where('recipient', '=', recipient)
      .where('status', '=', from);
    // Leaving released/deleted takes the row back from the day it was counted on.
    const before = DAILY_OF[from] ? await row.select('updated_at').executeTakeFirst() : undefined;
    const moved = await trx
      .updateTable('quarantine_recipients')
      .set({ status: to, updated_at: now })
      .where('message_id', '=', messageId)
      .where('recipient', '=', recipient)
      .where('status', '=', from)
      .returning(['recipient', 'domain'])
      .executeTakeFirst();
    if (!moved) return false;
    const deltas: CountDeltas = new Map();
    addDelta(deltas, moved.domain, from, -1);
    addDelta(deltas, moved.domain, to, 1);
    const daily: DailyDeltas = new Map();
    if (before && DAILY_OF[from]) addDaily(daily, moved.recipient, Number(before.updated_at), DAILY_OF[from], -1);
    if (DAILY_OF[to]) addDaily(daily, moved.recipient, now, DAILY_OF[to]);
    await applyCountDeltas(trx, deltas);
    await applyDailyDeltas(trx, daily);
    return true;
  });
}
