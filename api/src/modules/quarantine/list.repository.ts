import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { DbExecutor } from '../../db/database';
import { MESSAGE_ID_INDEXED_CHARS } from '../../db/migration-0008-message-id-index';
import type { QuarantineMessagesTable, RecipientStatus } from '../../db/schema';
import { byMessageScope, isSqlite, manyRowsPerMessage, scopeSql, type Scope } from './quarantine-scope';

/** Case-insensitive substring match, the user's text taken literally (no wildcards). */
export function containsSql(db: DbExecutor, ref: string, value: string): RawBuilder<SqlBool> {
  const pattern = `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return isSqlite(db)
    ? sql<SqlBool>`${sql.ref(ref)} like ${pattern} escape '\\'`
    : sql<SqlBool>`${sql.ref(ref)} ilike ${pattern}`;
}

/**
 * Case- and accent-insensitive substring match ("felicitations" finds "Félicitations"): qc_fold()
 * on both sides (lower + accents removed; SQLite: registered by the api, PostgreSQL: migration 0019,
 * with trigram indexes on the folded subject and senders).
 */
export function foldedContainsSql(ref: string, value: string): RawBuilder<SqlBool> {
  const pattern = `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return sql<SqlBool>`qc_fold(${sql.ref(ref)}) like qc_fold(${pattern}) escape '\\'`;
}

/**
 * The message columns the text search folds and matches: subject, senders, and the attachment names
 * and body URLs (search_extra, 0021). SQLite's FTS5 table holds the same text (columns body, extra).
 */
const SEARCHED = ['subject', 'sender', 'envelope_from', 'search_extra'] as const;

/**
 * A term matched exactly against a message's Haraka uuid (its first or a retry's) and client IP:
 * what an admin pastes from a log line. Through unique or plain indexes (qm_ip_address, 0019).
 */
function exactIdsSql(q: string): RawBuilder<{ message_id: string }> | null {
  const term = q.trim();
  if (!/^[\x21-\x7e]+$/.test(term)) return null;
  return sql`select id as message_id from quarantine_messages where uuid = ${term}
    union all select message_id from quarantine_message_uuids where uuid = ${term}
    union all select id as message_id from quarantine_messages where ip_address = ${term}`;
}

export interface ListFilters {
  /** Recipient statuses to match (any visible recipient in one of them); null = any status. */
  statuses: RecipientStatus[] | null;
  q?: string;
  /** The ids a 3+ character `q` matches, when few (found first); else the match is a subquery. */
  textIds?: string[];
  sender?: string;
  /**
   * `sender` as typed, when its stored form differs: a dotted term without `@` is read as a domain
   * (A-labels), yet `rené.dupont` may be a local part, stored as written. Either form matches.
   */
  senderAsTyped?: string;
  /** PostgreSQL: the ids `sender` matches, when few (found first); else it is tested along the scan. */
  senderIds?: string[];
  recipient?: string;
  /** `recipient` as typed, when its stored form differs (as `senderAsTyped`). */
  recipientAsTyped?: string;
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

export type SortOrder = 'asc' | 'desc';

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
 * The filters with the ids of a text search (and on PostgreSQL of a sender filter) when they have
 * few hits; null when they have none (the page is empty).
 */
export async function withHitIds(db: DbExecutor, scope: Scope, f: ListFilters): Promise<ListFilters | null> {
  if (f.q !== undefined && f.q.length >= TRIGRAM_MIN && !f.textIds) {
    const hits = await textHitIds(db, scope, f.q, HITS_FIRST_MAX);
    if (hits.complete && !hits.ids.length) return null;
    if (hits.complete) f = { ...f, textIds: hits.ids };
  }
  // Two forms of the sender: tested along the scan (rare: a non-ASCII dotted term without @).
  const oneSender = f.sender !== undefined && f.senderAsTyped === undefined;
  if (oneSender && f.sender!.length >= TRIGRAM_MIN && !f.senderIds && !isSqlite(db)) {
    const hits = await senderHitIds(db, f.sender!, SENDER_HITS_FIRST_MAX);
    if (hits.complete && !hits.ids.length) return null;
    if (hits.complete) f = { ...f, senderIds: hits.ids };
  }
  return f;
}

/** The page's keys, then their messages by primary key: one statement, one round trip (query-plan test). */
export function listPageQuery(
  db: DbExecutor,
  scope: Scope,
  f: ListFilters,
  after: ListKey | null,
  limit: number,
  order: SortOrder = 'desc',
) {
  const dir = sql.raw(order);
  return sql<ListMessageRow>`select ${LIST_COLUMNS}
    from (${listKeysQuery(db, scope, f, after, limit, order)}) k join quarantine_messages m on m.id = k.message_id
    order by k.received_at ${dir}, k.message_id ${dir}`;
}

/** The columns of a list item, from quarantine_messages `m`. */
export const LIST_COLUMNS = sql`m.id, m.received_at, m.sender, m.subject, m.score, m.action, m.size,
      m.recipient_count, m.raw_purged_at`;

/** The keys of listPage's page in date order (exported for the query-plan test). */
export function listKeysQuery(
  db: DbExecutor,
  scope: Scope,
  f: ListFilters,
  after: ListKey | null,
  limit: number,
  order: SortOrder = 'desc',
): RawBuilder<ListKey> {
  if (scope.kind === 'recipient' && scope.addresses.length > 1) {
    // A user with several addresses (issue 31): each address's page along its own index range, as
    // for one address, then merged; a message to two of them comes once (its rows share the key).
    // The first `limit` distinct keys of the whole are among the first `limit` of each address.
    const pages = scope.addresses.map(
      (address) =>
        sql`select * from (${listKeysQuery(db, { kind: 'recipient', addresses: [address] }, f, after, limit, order)}) p`,
    );
    const dir = sql.raw(order);
    return sql<ListKey>`select distinct received_at, message_id from (${sql.join(pages, sql` union all `)}) u
      order by received_at ${dir}, message_id ${dir}
      limit ${limit}`;
  }
  // Few text hits: their rows by primary key, then sorted. SQLite has no statistics to see that, so
  // the other indexed columns are hidden from its planner (unary +).
  const hitsFirst = f.textIds !== undefined && isSqlite(db);
  const receivedAt = hitsFirst ? sql`+r.received_at` : sql`r.received_at`;
  const { conditions, needsMessage } = listConditions(db, scope, f, hitsFirst);
  const [before, beforeOrAt] = order === 'desc' ? [sql.raw('<'), sql.raw('<=')] : [sql.raw('>'), sql.raw('>=')];
  if (after) {
    // PostgreSQL takes a row comparison as one index range. SQLite needs the redundant `<=` to seek
    // to the cursor: with the OR alone it walks the index from the newest row (O(depth)).
    conditions.push(
      isSqlite(db)
        ? sql<SqlBool>`${receivedAt} ${beforeOrAt} ${after.received_at} and (${receivedAt} ${before} ${after.received_at} or (${receivedAt} = ${after.received_at} and r.message_id ${before} ${after.message_id}))`
        : sql<SqlBool>`(r.received_at, r.message_id) ${before} (${after.received_at}, ${after.message_id})`,
    );
  }
  const dir = sql.raw(order);
  const join = needsMessage ? sql`join quarantine_messages m on m.id = r.message_id` : sql``;
  return sql<ListKey>`select ${distinctFor(scope)} r.received_at, r.message_id
    from quarantine_recipients r ${join}
    where ${sql.join(conditions, sql` and `)}
    order by r.received_at ${dir}, r.message_id ${dir}
    limit ${limit}`;
}

/**
 * A user with one address has one row per message (the primary key is (message_id, recipient)): no
 * DISTINCT needed. A user with several (issue 31) may have a row per address of one message: each
 * message once, as for a domain_admin who sees several recipients of it.
 */
export const distinctFor = (scope: Scope) => (manyRowsPerMessage(scope) ? sql`distinct` : sql``);

/**
 * The conditions of the filters on quarantine_recipients `r` (and quarantine_messages `m` when
 * `needsMessage`). `hitsFirst`: the rows are found by id (few text hits), the scope's index hidden.
 */
export function listConditions(
  db: DbExecutor,
  scope: Scope,
  f: ListFilters,
  hitsFirst: boolean,
): { conditions: Expression<SqlBool>[]; needsMessage: boolean } {
  const senderTested = f.sender !== undefined && !f.senderIds;
  const needsMessage = senderTested || f.action !== undefined || f.scoreMin !== undefined || f.scoreMax !== undefined;
  const receivedAt = hitsFirst ? sql`+r.received_at` : sql`r.received_at`;
  const conditions: Expression<SqlBool>[] = [scopeSql(scope, 'r', hitsFirst)];
  if (f.statuses) conditions.push(sql<SqlBool>`r.status in (${sql.join(f.statuses)})`);
  if (f.dateFrom !== undefined) conditions.push(sql<SqlBool>`${receivedAt} >= ${f.dateFrom}`);
  if (f.dateTo !== undefined) conditions.push(sql<SqlBool>`${receivedAt} <= ${f.dateTo}`);
  if (f.recipient !== undefined) {
    const contains = containsSql(db, 'r.recipient', f.recipient);
    conditions.push(
      f.recipientAsTyped === undefined
        ? contains
        : sql<SqlBool>`(${contains} or ${containsSql(db, 'r.recipient', f.recipientAsTyped)})`,
    );
  }
  if (f.action !== undefined) conditions.push(sql<SqlBool>`m.action = ${f.action}`);
  if (f.scoreMin !== undefined) conditions.push(sql<SqlBool>`m.score >= ${f.scoreMin}`);
  if (f.scoreMax !== undefined) conditions.push(sql<SqlBool>`m.score <= ${f.scoreMax}`);
  if (f.senderIds) conditions.push(sql<SqlBool>`r.message_id in (${sql.join(f.senderIds)})`);
  else if (senderTested) {
    const sender = senderSql(db, 'm', f.sender!);
    conditions.push(
      f.senderAsTyped === undefined ? sender : sql<SqlBool>`(${sender} or ${senderSql(db, 'm', f.senderAsTyped)})`,
    );
  }
  if (f.textIds) {
    conditions.push(sql<SqlBool>`r.message_id in (${sql.join(f.textIds)})`);
  } else if (f.q !== undefined) {
    // Many hits (or a term too short for trigrams): tested on each row the keyset scan reads — the
    // message's subject and senders (by primary key), and this (visible) recipient's address. A
    // scalar subquery, not EXISTS: PostgreSQL may turn an EXISTS into a hashed subplan, which reads
    // and matches every message before the first row (a full scan, whatever the LIMIT).
    const text = SEARCHED.map((c) => foldedContainsSql(`t.${c}`, f.q!));
    const messageIds = messageIdForms(f.q);
    if (messageIds) text.push(messageIdSql('t', messageIds));
    const term = f.q.trim();
    if (exactIdsSql(term)) {
      text.push(sql<SqlBool>`t.uuid = ${term}`, sql<SqlBool>`t.ip_address = ${term}`);
      text.push(sql<SqlBool>`t.id in (select message_id from quarantine_message_uuids where uuid = ${term})`);
    }
    conditions.push(
      sql<SqlBool>`(coalesce((select ${sql.join(text, sql` or `)} from quarantine_messages t where t.id = r.message_id), false)
        or ${containsSql(db, 'r.recipient', f.q)})`,
    );
  }
  return { conditions, needsMessage };
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
 * The ids of messages whose subject, senders, attachment names or URLs (case and accents folded), or one of whose recipients
 * in scope, contain `q`, or whose Message-ID, Haraka uuid or client IP is `q`
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
  const exact = exactIdsSql(q);
  const byExact = exact ? sql`union all ${exact}` : sql``;
  if (isSqlite(db)) {
    const phrase = `"${q.replaceAll('"', '""')}"`;
    return sql`select message_id from quarantine_search
      where quarantine_search match ${phrase} and (recipient = '' or ${scopeSql(scope)})
    ${byMessageId} ${byExact}
    limit ${cap}`;
  }
  const pattern = `%${q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const folded = SEARCHED.map((c) => foldedContainsSql(c, q));
  return sql`select id as message_id from quarantine_messages where ${sql.join(folded, sql` or `)}
    union all
    select message_id from quarantine_recipients where recipient ilike ${pattern} and ${scopeSql(scope)}
    ${byMessageId} ${byExact}
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
