import {
  dateFilterBound,
  DETAIL_RECIPIENTS,
  withGroups,
  HELD_STATUSES,
  LIST_ITEM_RECIPIENTS,
  QUARANTINE_MESSAGES,
  type DeliveryAttempt,
  type HistoryMailAction,
  type MailAttachment,
  type MailHeader,
  type QuarantineDetail,
  type QuarantineList,
  type QuarantineListQuery,
  type QuarantineStatus,
  type RspamdSymbol,
} from '@qc/contracts';
import type { AppContext } from '../../app-context';
import type { RecipientStatus } from '../../db/schema';
import { domainToALabel, normaliseAddress, withALabelDomain } from '../../lib/addresses';
import { attachment } from '../../lib/download';
import { HttpError } from '../../lib/http-error';
import { isId } from '../../lib/ids';
import type { AuthContext } from '../auth/auth.service';
import type { SessionContextRow } from '../auth/auth.repository';
import { withHeldBy } from '../rspamd/held-by';
import { learnedState, mayLearn } from '../learning/learned';
import { holdReasons, visibleListOptions } from './hold-reasons';
import { decodeCursor, encodeCursor } from './list-cursor';
import { countMatching, listPage, type ListSort } from './list-sort.repository';
import {
  firstRecipients,
  visibleRecipients,
  type ListMessageRow,
  type RecipientRow,
  statusCounts,
  type ListFilters,
  type StatusCount,
} from './list.repository';
import { rawDetail, storedSenderName } from './message-inspect';
import { findMessage, findRaw, lastDelivery, messageExists } from './quarantine.repository';
import { retryUuidsOf } from './ingest.repository';
import { addressesOfUser, recipientScope, type Scope } from './quarantine-scope';
import { recordHistory, refusedSince, softDelete } from './status.repository';

/** A claim older than this is taken to be from a process that died mid-release: shown as release_unknown. */
export const RELEASE_STALE_MS = 10 * 60 * 1000;

type Deps = Pick<AppContext, 'db'>;

export function scopeFor(user: SessionContextRow): Scope {
  switch (user.role) {
    case 'admin':
      return { kind: 'all' };
    case 'domain_admin':
      return user.domain_name ? { kind: 'domain', domain: user.domain_name.toLowerCase() } : { kind: 'none' };
    default:
      // Every address of theirs (issue 31), read with the session on each request.
      return recipientScope(addressesOfUser(user));
  }
}

// An SMTP reply ("550 5.1.1 <…>: …"), as opposed to a local connection error ("connect
// ECONNREFUSED 10.0.0.5:25"), which is stored in the same place for the operator.
const SMTP_REPLY = /^[2-5]\d\d[ -]/;

/**
 * What a caller may read of a release's relay text. An admin reads all of it, connection errors
 * included, to diagnose the relay. Anyone else reads only an SMTP reply, and only when they see
 * every recipient of that attempt: a refusal names the address it refuses (another's, a Bcc maybe).
 */
export function relayTextFor(scope: Scope, text: string | null, seesEveryRecipient: boolean): string | null {
  if (scope.kind === 'all') return text;
  return text !== null && seesEveryRecipient && SMTP_REPLY.test(text) ? text : null;
}

/** Whether an address (of this message's recipients) is one the caller sees. */
export function visibleTo(scope: Scope): (address: string) => boolean {
  switch (scope.kind) {
    case 'all':
      return () => true;
    case 'domain':
      return (a) => a.toLowerCase().endsWith(`@${scope.domain}`);
    case 'recipient':
      return (a) => scope.addresses.includes(a.toLowerCase());
    default:
      return () => false;
  }
}

export const emailNotFound = () => new HttpError(404, 'email_not_found', QUARANTINE_MESSAGES.notFound);

/** 410: retention removed the original bytes (QC_RETENTION_DAYS); the details and history are kept. */
export const rawPurged = () =>
  new HttpError(
    410,
    'raw_purged',
    'The original message was removed by the retention policy: it can no longer be downloaded or released.',
  );

/** Order of the caller's view of a message's status: the first one any visible recipient has. */
const VIEW_ORDER: QuarantineStatus[] = [
  'pending',
  'release_failed',
  'release_unknown',
  'releasing',
  'released',
  'deleted',
];

export interface StatusSummary {
  total: number;
  counts: Partial<Record<QuarantineStatus, number>>;
  view: QuarantineStatus;
}

export function summarize(rows: StatusCount[]): StatusSummary {
  const counts: Partial<Record<QuarantineStatus, number>> = {};
  let total = 0;
  for (const r of rows) {
    counts[r.status] = (counts[r.status] ?? 0) + r.n;
    total += r.n;
  }
  return { total, counts, view: VIEW_ORDER.find((s) => counts[s]) ?? 'deleted' };
}

/** A recipient row's status as shown: a release claim older than `staleBefore` is release_unknown. */
export function shownStatus(row: Pick<RecipientRow, 'status' | 'updated_at'>, staleBefore: number): QuarantineStatus {
  return row.status === 'releasing' && row.updated_at < staleBefore ? 'release_unknown' : row.status;
}

/** statusCounts computed from rows already read. */
function countStatuses(rows: RecipientRow[], staleBefore: number): StatusCount[] {
  const counts = new Map<string, StatusCount>();
  for (const row of rows) {
    const status = shownStatus(row, staleBefore);
    const key = `${row.message_id} ${status}`;
    const entry = counts.get(key);
    if (entry) entry.n++;
    else counts.set(key, { message_id: row.message_id, status, n: 1 });
  }
  return [...counts.values()];
}

/** The caller's recipient statuses for one message (total 0: not theirs, or unknown). */
export async function summaryFor(deps: Deps, id: string, scope: Scope, now = Date.now()): Promise<StatusSummary> {
  return summarize(await statusCounts(deps.db, [id], scope, now - RELEASE_STALE_MS));
}

const STATUS_FILTERS: Record<QuarantineListQuery['status'], RecipientStatus[] | null> = {
  pending: [...HELD_STATUSES],
  released: ['released'],
  deleted: ['deleted'],
  all: null,
};

const iso = (ms: number) => new Date(ms).toISOString();

function groupBy<T>(items: T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const k = key(item);
    const group = groups.get(k);
    if (group) group.push(item);
    else groups.set(k, [item]);
  }
  return groups;
}

/**
 * An address filter's domain in the stored form (A-labels): the part after `@`, or a term without
 * `@` that has a dot (`bücher.example`). A term without either (`rené`) may be a local part, which
 * is stored as written: it stays as typed.
 */
function withALabelTerm(raw: string): string {
  if (raw.includes('@')) return withALabelDomain(raw);
  return raw.includes('.') ? (domainToALabel(raw) ?? raw) : raw;
}

/** A recipient filter in the stored form: lower case, its domain as A-labels. */
function recipientFilter(raw: string): string | undefined {
  const lower = raw.toLowerCase();
  return (lower.includes('@') ? normaliseAddress(lower) : withALabelTerm(lower)) || undefined;
}

/** `typed` when the stored form read it as a domain (no `@`) and changed it: it may be a local part. */
const asTypedToo = (typed: string, stored: string | undefined) =>
  stored !== undefined && !typed.includes('@') && stored !== typed ? typed : undefined;

export async function listQuarantine(
  deps: Deps,
  auth: AuthContext,
  query: QuarantineListQuery,
): Promise<QuarantineList> {
  const scope = scopeFor(auth.user);
  // Senders are stored with A-label domains too (their local part's case as written).
  const sender = query.sender ? withALabelTerm(query.sender) : undefined;
  // Recipients are stored with A-label domains: `ann@bücher.ex` finds ann@xn--bcher-kva.example.
  const recipient = query.recipient ? recipientFilter(query.recipient) : undefined;
  const filters: ListFilters = {
    statuses: STATUS_FILTERS[query.status],
    q: query.q || undefined,
    sender,
    senderAsTyped: query.sender ? asTypedToo(query.sender, sender) : undefined,
    recipient,
    recipientAsTyped: query.recipient ? asTypedToo(query.recipient.toLowerCase(), recipient) : undefined,
    action: query.action || undefined,
    scoreMin: query.score_min,
    scoreMax: query.score_max,
    dateFrom: dateFilterBound(query.date_from, false),
    dateTo: dateFilterBound(query.date_to, true),
  };
  const sort: ListSort = { by: query.sort, order: query.order };
  const after = query.cursor ? decodeCursor(query.cursor, sort) : null;
  // The count on the first page only: the next pages keep the filters (and so the count).
  const [rows, total] =
    scope.kind === 'none'
      ? [[], after ? undefined : { count: 0, exact: true }]
      : await Promise.all([
          listPage(deps.db, scope, filters, after, query.page_size + 1, sort),
          after ? undefined : countMatching(deps.db, scope, filters),
        ]);
  const messages = rows.slice(0, query.page_size);
  // Nearly every message has a few recipients: all their visible rows are read in one query and
  // counted here. The rare message to many is read bounded (first rows, counts by status).
  const staleBefore = Date.now() - RELEASE_STALE_MS;
  const many = (m: ListMessageRow) => Number(m.recipient_count) > LIST_ITEM_RECIPIENTS;
  const [fewRows, manyRows, manyCounts] = await Promise.all([
    visibleRecipients(
      deps.db,
      messages.filter((m) => !many(m)).map((m) => m.id),
      scope,
    ),
    firstRecipients(
      deps.db,
      messages.filter(many).map((m) => m.id),
      scope,
      LIST_ITEM_RECIPIENTS,
    ),
    statusCounts(
      deps.db,
      messages.filter(many).map((m) => m.id),
      scope,
      staleBefore,
    ),
  ]);
  const recipients = [...fewRows, ...manyRows];
  const counts = [...countStatuses(fewRows, staleBefore), ...manyCounts];
  const countsOf = groupBy(counts, (c) => c.message_id);
  const recipientsOf = groupBy(recipients, (r) => r.message_id);
  const results = messages.map((m) => {
    const summary = summarize(countsOf.get(m.id) ?? []);
    return {
      id: m.id,
      received_at: iso(Number(m.received_at)),
      sender: m.sender,
      recipients: (recipientsOf.get(m.id) ?? []).map((r) => r.recipient),
      recipient_count: summary.total,
      subject: m.subject,
      score: m.score === null ? null : Number(m.score),
      action: m.action,
      status: summary.view,
      ...(Object.keys(summary.counts).length > 1 ? { status_counts: summary.counts } : {}),
      size: Number(m.size),
      raw_available: m.raw_purged_at === null,
    };
  });
  const last = messages[messages.length - 1];
  const next = rows.length > query.page_size && last ? { value: last.sort_value, message_id: last.id } : null;
  return { results, next_cursor: next ? encodeCursor(sort, next) : null, ...(total ? { total } : {}) };
}

export function parseJsonArray<T>(text: string | null): T[] {
  try {
    const v: unknown = JSON.parse(text ?? '[]');
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
}

/**
 * A partial release as the caller's recipients saw it: a user whose own copy went through was
 * released, not "partly" (which would tell them of other recipients and their failures).
 */
function outcomeSeenBy(
  outcome: DeliveryAttempt['outcome'],
  accepted: string[],
  rejected: string[],
): DeliveryAttempt['outcome'] {
  if (outcome !== 'partially_released') return outcome;
  if (rejected.length === 0 && accepted.length > 0) return 'released';
  if (accepted.length === 0 && rejected.length > 0) return 'relay_refused';
  return outcome;
}

export async function quarantineDetail(
  deps: Deps & Pick<AppContext, 'config'>,
  auth: AuthContext,
  id: string,
): Promise<QuarantineDetail> {
  const scope = scopeFor(auth.user);
  const now = Date.now();
  const summary = await summaryFor(deps, id, scope, now);
  const m = summary.total ? await findMessage(deps.db, id) : undefined;
  if (!m) throw emailNotFound();
  const [rows, delivery, raw, retryUuids] = await Promise.all([
    firstRecipients(deps.db, [id], scope, DETAIL_RECIPIENTS),
    lastDelivery(deps.db, id, scope),
    findRaw(deps.db, id),
    retryUuidsOf(deps.db, id),
  ]);
  // Headers as carried, display name, attachments' hashes: from the raw while it is stored (issue 23).
  const fromRaw = await rawDetail(raw);
  const storedHeaders = parseJsonArray<MailHeader>(m.headers);
  const visible = visibleTo(scope);
  const staleBefore = now - RELEASE_STALE_MS;
  // "Held by filter X": the console rules the symbols' options name. The list symbols' options name
  // recipients (Bcc included) and their domains: only those of the caller's recipients are kept (a
  // user's: those of this message, not another of their addresses, nor that address's domain).
  const optionScope: Scope =
    scope.kind === 'recipient' ? recipientScope(rows.map((r) => r.recipient.toLowerCase())) : scope;
  const symbols = await withHeldBy(
    deps.db,
    visibleListOptions(parseJsonArray<RspamdSymbol>(m.symbols), optionScope).map(withGroups),
    auth.user.role === 'admin',
  );
  let attempt: DeliveryAttempt | null = null;
  if (delivery) {
    const allAccepted = parseJsonArray<string>(delivery.accepted);
    const allRejected = parseJsonArray<string>(delivery.rejected);
    const accepted = allAccepted.filter(visible);
    const rejected = allRejected.filter(visible);
    // An attempt whose recipients are not recorded (outcome unknown, or still running) is nobody's
    // in particular: not "every recipient seen".
    const seesEveryRecipient =
      allAccepted.length + allRejected.length > 0 &&
      accepted.length === allAccepted.length &&
      rejected.length === allRejected.length;
    // An attempt still "in progress" past the stale time is one whose process died: its outcome is
    // as unknown as its recipients' (shown release_unknown), not still coming.
    const dead = delivery.outcome === 'in_progress' && delivery.started_at < staleBefore;
    attempt = {
      outcome: dead ? 'release_unknown' : outcomeSeenBy(delivery.outcome, accepted, rejected),
      started_at: iso(delivery.started_at),
      finished_at: delivery.finished_at === null ? null : iso(delivery.finished_at),
      by: delivery.actor_email,
      // One text per attempt (the relay's last reply), not per recipient: for a caller who sees only
      // some recipients it may be another's refusal, or the 250 that queued the others' copies.
      response: relayTextFor(scope, delivery.response, seesEveryRecipient),
      accepted,
      rejected,
    };
  }
  return {
    id: m.id,
    uuid: m.uuid,
    retry_uuids: retryUuids,
    received_at: iso(Number(m.received_at)),
    date: m.header_date === null ? null : iso(Number(m.header_date)),
    sender: m.sender,
    sender_name: fromRaw ? fromRaw.sender_name : storedSenderName(storedHeaders),
    envelope_from: m.envelope_from,
    recipients: rows.map((r) => ({
      address: r.recipient,
      status: shownStatus(r, staleBefore),
      updated_at: iso(r.updated_at),
    })),
    recipient_count: summary.total,
    recipients_truncated: summary.total > rows.length,
    status: summary.view,
    subject: m.subject,
    score: m.score === null ? null : Number(m.score),
    required_score: m.required_score === null ? null : Number(m.required_score),
    action: m.action,
    dkim: m.dkim,
    spf: m.spf,
    size: Number(m.size),
    message_id: m.message_id,
    ip_address: m.ip_address,
    helo: m.helo,
    country: m.country,
    sender_domain: m.sender_domain,
    mime_domain: m.mime_domain,
    mime_user: m.mime_user,
    attachments: fromRaw?.attachments ?? parseJsonArray<MailAttachment>(m.attachments),
    urls: parseJsonArray<string>(m.urls),
    symbols,
    headers: fromRaw?.headers ?? storedHeaders,
    text_body: m.body_text,
    html_body: m.body_html,
    body_truncated: m.body_truncated === 1,
    raw_available: raw !== undefined,
    purged_at: m.raw_purged_at === null ? null : iso(Number(m.raw_purged_at)),
    delivery: attempt,
    hold_reasons: await holdReasons(
      deps.db,
      auth,
      m,
      symbols,
      rows.map((r) => r.recipient),
    ),
    learned: await learnedState(deps.db, auth, m),
    can_learn: mayLearn(deps.config, auth.user.role),
  };
}

// ---------------------------------------------------------------------------------------------
// Audit

export interface Actor {
  auth: AuthContext;
  ip: string | null;
}

export function historyRow(
  actor: Actor,
  action: HistoryMailAction,
  emailId: string,
  code: string | null,
  now = Date.now(),
) {
  const { user } = actor.auth;
  return {
    created_at: now,
    actor_id: user.user_id,
    actor_email: user.email,
    actor_role: user.role,
    // A domain_admin reads their domain's actors' rows. An admin acts on every domain's mail, so
    // their rows belong to none, even when their account has a domain.
    actor_domain: user.role === 'admin' ? null : user.domain_name,
    action,
    email_id: emailId,
    result: code === null ? ('success' as const) : ('failure' as const),
    code,
    ip_address: actor.ip,
  };
}

/** How long the same refusal of the same actor is one attempt retried, recorded once. */
export const REFUSAL_REPEAT_MS = 60_000;

/**
 * Records a failed action in the history, then throws its error. Only an attempt on an e-mail
 * that exists is recorded (someone else's included: probing is worth knowing), once a minute:
 * else anyone signed in could fill the trail others read with rows of their own making, 500 ids
 * a bulk request.
 */
export async function refuse(
  deps: Deps,
  actor: Actor,
  action: HistoryMailAction,
  id: string,
  err: HttpError,
): Promise<never> {
  const row = historyRow(actor, action, id, err.code);
  if (
    isId(id) &&
    (await messageExists(deps.db, id)) &&
    !(await refusedSince(deps.db, row, row.created_at - REFUSAL_REPEAT_MS))
  ) {
    await recordHistory(deps.db, row, scopeFor(actor.auth.user));
  }
  throw err;
}

/** The raw message and its Content-Disposition: named after its subject, always ending in .eml. */
export async function downloadRaw(
  deps: Deps,
  actor: Actor,
  id: string,
): Promise<{ data: Buffer; disposition: string }> {
  const scope = scopeFor(actor.auth.user);
  const summary = await summaryFor(deps, id, scope);
  const m = summary.total ? await findMessage(deps.db, id) : undefined;
  const data = m ? await findRaw(deps.db, id) : undefined;
  if (m && !data && m.raw_purged_at !== null) return refuse(deps, actor, 'download', id, rawPurged());
  if (!m || !data) return refuse(deps, actor, 'download', id, emailNotFound());
  await recordHistory(deps.db, historyRow(actor, 'download', id, null), scope);
  return { data, disposition: attachment(m.subject ?? '', `-${id}.eml`, 'message') };
}

/**
 * Soft delete of the recipients the caller sees that are still held (pending, release_failed,
 * release_unknown, including a claim gone stale): status deleted, raw kept. Deleting what is already
 * deleted is a no-op (204, no history row).
 */
/** `scope`: narrower than the actor's role gives (a digest link acts for its recipient only). */
export async function deleteMessage(
  deps: Deps,
  actor: Actor,
  id: string,
  scope: Scope = scopeFor(actor.auth.user),
): Promise<void> {
  const summary = await summaryFor(deps, id, scope);
  if (!summary.total) return refuse(deps, actor, 'delete', id, emailNotFound());
  const now = Date.now();
  const moved = await softDelete(
    deps.db,
    id,
    scope,
    now,
    now - RELEASE_STALE_MS,
    historyRow(actor, 'delete', id, null),
  );
  if (moved) return;
  const after = await summaryFor(deps, id, scope);
  if (after.counts.releasing || after.counts.release_unknown) {
    return refuse(deps, actor, 'delete', id, new HttpError(409, 'release_in_progress', 'A release is under way.'));
  }
  if (after.counts.released) {
    return refuse(deps, actor, 'delete', id, new HttpError(409, 'already_released', 'This e-mail was released.'));
  }
  // Already deleted: nothing changed, nothing to record.
}
