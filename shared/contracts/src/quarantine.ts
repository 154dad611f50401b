import { z } from 'zod';
import { LOCAL_PART_MAX_OCTETS, LOCAL_PART_TOO_LONG, localPartOctets } from './addresses';
import { HoldReason, LearnedState } from './lists';
import { ApiError, CursorParam, emptyAsUndefined, PageSizeParam, queryNumber } from './common';

/**
 * Status of one recipient of a quarantined message (DESIGN §4 "Per recipient"):
 * pending → releasing (claimed) → released | release_failed (relay said no or was unreachable: retry allowed)
 * | release_unknown (connection lost after DATA: retry needs `confirm_resend: true`); pending → deleted (soft).
 */
export const QUARANTINE_STATUSES = [
  'pending',
  'releasing',
  'released',
  'release_failed',
  'release_unknown',
  'deleted',
] as const;
export const QuarantineStatus = z.enum(QUARANTINE_STATUSES);
export type QuarantineStatus = z.infer<typeof QuarantineStatus>;

/** Statuses that still hold the mail in quarantine (what "pending" means in lists and on the dashboard). */
export const HELD_STATUSES = ['pending', 'releasing', 'release_failed', 'release_unknown'] as const;

/** `?status=` of the list: pending = still held (any of HELD_STATUSES); all = no status filter. */
export const QUARANTINE_STATUS_FILTERS = ['pending', 'released', 'deleted', 'all'] as const;

/** Rspamd actions as the console names them (spec §4); anything else is shown as `custom`. */
export const MAIL_ACTIONS = [
  'reject',
  'soft_reject',
  'quarantine',
  'greylist',
  'rewrite_subject',
  'add_header',
  'no_action',
  'custom',
] as const;
export const MailAction = z.enum(MAIL_ACTIONS);
export type MailAction = z.infer<typeof MailAction>;

export const INGEST_LIMITS = {
  /** Envelope recipients accepted per message (more is refused with 400). */
  maxRecipients: 10_000,
  /** The `meta` part of the ingest form. */
  metaMaxBytes: 4 * 1024 * 1024,
  /** Rspamd symbols accepted per message. */
  maxSymbols: 1000,
} as const;

// An envelope address as RFC 5321 has it, minus anything that could inject on the SMTP wire: CR,
// LF or NUL (commands, headers), or spaces and <> outside quotes (parameters: RCPT TO:<a> NOTIFY=…).
// A quoted local part ("john doe"@a.example) is valid mail: refused here, Haraka would be told to
// retry it for days, in vain. <> stay refused inside quotes too: nodemailer will not send them.
const LOCAL_ATOMS = String.raw`[^\s<>"@\u0000-\u001f\u007f]+`;
const LOCAL_QUOTED = String.raw`"(?:[^"\\<>\u0000-\u001f\u007f]|\\[^<>\u0000-\u001f\u007f])*"`;
const DOMAIN = String.raw`[^\s<>"@\u0000-\u001f\u007f]+`;
const SAFE_ENVELOPE_ADDRESS = new RegExp(`^(?:${LOCAL_ATOMS}|${LOCAL_QUOTED})@${DOMAIN}$`);

/** Whether an envelope address can be written in MAIL FROM/RCPT TO as is, injecting nothing. */
export const isSafeEnvelopeAddress = (address: string) => SAFE_ENVELOPE_ADDRESS.test(address);

const envelopeAddress = (required: boolean) =>
  z
    .string()
    .max(320)
    .refine(
      (v) => (!required && v === '') || isSafeEnvelopeAddress(v),
      'Not a safe address: one @, no CR, LF, NUL or control characters, no spaces or <> outside quotes',
    );

export const RspamdSymbolMeta = z.object({
  name: z.string().max(256).optional(),
  score: z.number().finite().optional(),
  metric_score: z.number().finite().optional(),
  description: z.string().max(4096).optional(),
  options: z.array(z.string().max(4096)).max(100).optional(),
  group: z.string().max(256).optional(),
  groups: z.array(z.string().max(256)).max(50).optional(),
});

/**
 * The `meta` part of POST /api/quarantine/ingest/ (DESIGN §4). Unknown keys are ignored.
 * `mail_from` is '' for the null sender (<>).
 */
export const IngestMeta = z.object({
  uuid: z
    .string()
    .min(1)
    .max(128)
    .regex(/^[\x21-\x7e]+$/, 'Printable ASCII without spaces'),
  mail_from: envelopeAddress(false),
  // A local part over 64 octets (RFC 5321) is refused: no account or list could ever name it.
  rcpt_to: z
    .array(envelopeAddress(true).refine((v) => localPartOctets(v) <= LOCAL_PART_MAX_OCTETS, LOCAL_PART_TOO_LONG))
    .min(1)
    .max(INGEST_LIMITS.maxRecipients),
  remote_ip: z.string().max(64).nullish(),
  helo: z.string().max(255).nullish(),
  /** ISO 8601 with offset; default: when the api received it. */
  received_at: z.iso.datetime({ offset: true }).nullish(),
  /** When the stack knows it (e.g. a GeoIP plugin); else taken from Rspamd's ASN symbol, if any. */
  country: z.string().max(64).nullish(),
  rspamd: z
    .object({
      action: z.string().max(64).nullish(),
      score: z.number().finite().nullish(),
      required_score: z.number().finite().nullish(),
      symbols: z
        .record(z.string().max(256), RspamdSymbolMeta)
        .refine((s) => Object.keys(s).length <= INGEST_LIMITS.maxSymbols, 'Too many symbols')
        .nullish(),
    })
    .nullish(),
});
export type IngestMeta = z.infer<typeof IngestMeta>;

/** 201, also when already stored (same Haraka uuid, or same envelope and bytes): the stored id. */
export const IngestResponse = z.object({ id: z.string() });
export type IngestResponse = z.infer<typeof IngestResponse>;

/**
 * A free-text filter of a list. Control characters are refused: nothing stored holds them, and a
 * NUL cut the search pattern short (matching everything) or broke the full-text query.
 */
export const optionalText = (max: number) =>
  z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .trim()
      .max(max)
      .refine((v) => !/[\u0000-\u001f\u007f]/.test(v), 'Control characters are not allowed.')
      .optional(),
  );
const optionalNumber = z.preprocess(emptyAsUndefined, queryNumber(false).optional());
/** ISO 8601 date-time with offset, or a date (YYYY-MM-DD, a UTC day). */
export const DateFilter = z.preprocess(
  emptyAsUndefined,
  z.union([z.iso.datetime({ offset: true }), z.iso.date()]).optional(),
);

/** A DateFilter as epoch ms: a date-only value is its UTC day's first (or, for `end`, last) millisecond. */
export function dateFilterBound(value: string | undefined, end: boolean): number | undefined {
  if (value === undefined) return undefined;
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) {
    const start = Date.parse(`${value}T00:00:00Z`);
    return end ? start + 86_400_000 - 1 : start;
  }
  return Date.parse(value);
}

/**
 * A reversed range could only answer an empty page, which reads as "nothing matches": it is a 400
 * naming the lower bound instead.
 */
export function refuseReversedBounds(
  q: { date_from?: string | undefined; date_to?: string | undefined; score_min?: number; score_max?: number },
  ctx: z.RefinementCtx,
): void {
  const from = dateFilterBound(q.date_from, false);
  const to = dateFilterBound(q.date_to, true);
  if (from !== undefined && to !== undefined && from > to) {
    ctx.addIssue({ code: 'custom', path: ['date_from'], message: 'Must not be after date_to.' });
  }
  if (q.score_min !== undefined && q.score_max !== undefined && q.score_min > q.score_max) {
    ctx.addIssue({ code: 'custom', path: ['score_min'], message: 'Must not be greater than score_max.' });
  }
}

/** What the list can be sorted by: received date, Rspamd score (none: lowest), sender address, size. */
export const QUARANTINE_SORTS = ['date', 'score', 'sender', 'size'] as const;
export const SORT_ORDERS = ['desc', 'asc'] as const;

/**
 * GET /api/quarantine/. Text filters match substrings, case-insensitively: `q` the subject or the
 * sender (header From and envelope), accents ignored too, or a recipient the caller may see; `q`
 * also finds a message by its exact Message-ID, Haraka uuid or client IP; `sender` and `recipient`
 * those fields only. `date_from`/`date_to` are inclusive (a date-only `date_to` covers that UTC day).
 */
export const QuarantineListQuery = z
  .object({
    status: z.preprocess(emptyAsUndefined, z.enum(QUARANTINE_STATUS_FILTERS).default('pending')),
    q: optionalText(200),
    sender: optionalText(320),
    recipient: optionalText(320),
    action: optionalText(64),
    score_min: optionalNumber,
    score_max: optionalNumber,
    date_from: DateFilter,
    date_to: DateFilter,
    /** Sort key (ties broken by id, in the same direction); the cursor carries it. */
    sort: z.preprocess(emptyAsUndefined, z.enum(QUARANTINE_SORTS).default('date')),
    order: z.preprocess(emptyAsUndefined, z.enum(SORT_ORDERS).default('desc')),
    cursor: CursorParam,
    page_size: PageSizeParam,
  })
  .superRefine(refuseReversedBounds);
export type QuarantineListQuery = z.infer<typeof QuarantineListQuery>;

/**
 * A search: a list asked with a typed term (q, sender, recipient), matched as a substring (the
 * costly queries, and the way to probe what mail there is). The status, action, score and date
 * selectors and plain paging are not: browsing the list never meets the search budget
 * (QC_BUDGET_SEARCHES). Every page of a search counts (each runs the match again), so the list
 * page does not poll one.
 */
export function isQuarantineSearch(query: Pick<QuarantineListQuery, 'q' | 'sender' | 'recipient'>): boolean {
  return Boolean(query.q || query.sender || query.recipient);
}

/** Recipients shown per list item (the first ones, by address); recipient_count tells how many the caller sees. */
export const LIST_ITEM_RECIPIENTS = 20;
/** Recipients listed in the detail; recipients_truncated tells when there are more. */
export const DETAIL_RECIPIENTS = 1000;

export const QuarantineItem = z.object({
  id: z.string(),
  received_at: z.string(),
  /** Address of the header From (the envelope sender when the message has none). */
  sender: z.string(),
  /** Recipients the caller may see (at most LIST_ITEM_RECIPIENTS). */
  recipients: z.array(z.string()),
  recipient_count: z.number().int().nonnegative(),
  subject: z.string().nullable(),
  score: z.number().nullable(),
  action: z.string(),
  /**
   * The caller's view: the most actionable status among the recipients they see, in this order:
   * pending, release_failed, release_unknown, releasing, released, deleted.
   */
  status: QuarantineStatus,
  /**
   * Only when the caller's recipients are not all in one status (one released, one still held):
   * how many are in each. Under "released" such a mail shows `status` pending, and this says why.
   */
  status_counts: z.partialRecord(QuarantineStatus, z.number().int().positive()).optional(),
  size: z.number().int().nonnegative(),
  /** False once retention purged the original message: it can no longer be released or downloaded. */
  raw_available: z.boolean(),
});
export type QuarantineItem = z.infer<typeof QuarantineItem>;

/**
 * Messages counted exactly up to this many; beyond, the count says "more than" it. Counting reads
 * up to this many index rows on every first page: kept small so the list stays as fast.
 */
export const LIST_COUNT_EXACT_MAX = 1000;

/**
 * In `sort`/`order` (newest first by default); pass `next_cursor` back as `?cursor=` (with the same
 * filters and sort) for the next page. `total` (first page only, no cursor): how many messages match,
 * exact, or `exact: false` with `count` LIST_COUNT_EXACT_MAX when there are more; absent for a
 * search term with many hits (counting would match every message in scope).
 */
export const QuarantineList = z.object({
  results: z.array(QuarantineItem),
  next_cursor: z.string().nullable(),
  total: z.object({ count: z.number().int().nonnegative(), exact: z.boolean() }).optional(),
});
export type QuarantineList = z.infer<typeof QuarantineList>;

export const QuarantineRecipient = z.object({
  address: z.string(),
  status: QuarantineStatus,
  updated_at: z.string(),
});
export type QuarantineRecipient = z.infer<typeof QuarantineRecipient>;

export const MailAttachment = z.object({
  name: z.string(),
  /** The type as declared by the message (Content-Type). */
  type: z.string(),
  size: z.number().int().nonnegative(),
  /** Issue 23, computed from the stored raw (absent once retention removed it): its place for the download route. */
  index: z.number().int().nonnegative().optional(),
  /** The type as detected from the bytes (magic numbers); null when nothing is recognised. */
  detected_type: z.string().nullable().optional(),
  /** SHA-256 of the decoded content, lower-case hex. */
  sha256: z.string().optional(),
});
export type MailAttachment = z.infer<typeof MailAttachment>;

/**
 * "Held by filter X": a console rule named by a symbol's option. Rspamd's map lines end with the
 * entry's token (`filter:<id>`, `apanel:<id>`, `system:<id>`), which the symbol's options carry.
 */
export const HeldByRule = z.object({
  /** As found in the options, e.g. `filter:01J…`. */
  token: z.string(),
  kind: z.enum(['filter', 'apanel', 'system']),
  id: z.string(),
  /** false: the rule was deleted since. */
  exists: z.boolean(),
  /** The filter's value, the pair `from → to`, or the system rule's name; null when deleted, or for a caller who is not an admin (rules are admins' to read). */
  label: z.string().nullable(),
  /** The rule's action now; null as for label. */
  action: z.string().nullable(),
});
export type HeldByRule = z.infer<typeof HeldByRule>;

export const RspamdSymbol = z.object({
  symbol: z.string(),
  score: z.number(),
  description: z.string().nullable(),
  options: z.array(z.string()),
  /** The symbol's first group (kept for older clients); `groups` has them all. */
  group: z.string().nullable(),
  groups: z.array(z.string()),
  /** Detail only, when an option names a console rule: the rules it names, in option order. */
  rules: z.array(HeldByRule).optional(),
});
export type RspamdSymbol = z.infer<typeof RspamdSymbol>;

/**
 * A stored symbol with its groups: those stored before `groups` existed had only `group`.
 * (Rspamd itself sends `group` and, with some settings, `groups`.)
 */
export function withGroups(s: Omit<RspamdSymbol, 'groups'> & { groups?: string[] }): RspamdSymbol {
  return { ...s, groups: s.groups ?? (s.group === null ? [] : [s.group]) };
}

export const MailHeader = z.object({ name: z.string(), value: z.string() });
export type MailHeader = z.infer<typeof MailHeader>;

export const DELIVERY_OUTCOMES = [
  'in_progress',
  'released',
  'partially_released',
  'relay_refused',
  'relay_unreachable',
  'release_unknown',
] as const;

/** The relay's answer to one release attempt (accepted/rejected: only recipients the caller may see). */
export const ReleaseDelivery = z.object({
  response: z.string().nullable(),
  accepted: z.array(z.string()),
  rejected: z.array(z.string()),
});
export type ReleaseDelivery = z.infer<typeof ReleaseDelivery>;

export const DeliveryAttempt = ReleaseDelivery.extend({
  outcome: z.enum(DELIVERY_OUTCOMES),
  started_at: z.string(),
  finished_at: z.string().nullable(),
  /** E-mail of who released it. */
  by: z.string(),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

/**
 * GET /api/quarantine/{id}/: every e-mail field of spec §3. dkim/spf come from Rspamd's symbols
 * (pass, fail, softfail, neutral, none, temperror, permerror) and are null when Rspamd gave none;
 * country is null unless the stack provides it. Bodies are the message's own text and HTML, capped
 * (body_truncated): render the HTML only sanitised, in a sandboxed frame.
 */
export const QuarantineDetail = z.object({
  id: z.string(),
  /** Haraka transaction uuid (for the logs of this mail). */
  uuid: z.string().nullable(),
  /**
   * The uuids of the sender's later attempts that were matched to this copy (a retry after a lost
   * answer), oldest first: the queue id the sender was given then leads here too.
   */
  retry_uuids: z.array(z.string()),
  received_at: z.string(),
  /** The Date header. */
  date: z.string().nullable(),
  sender: z.string(),
  /** The From header's display name (decoded), shown beside the address; null when it has none. */
  sender_name: z.string().nullable().optional(),
  envelope_from: z.string(),
  recipients: z.array(QuarantineRecipient),
  recipient_count: z.number().int().nonnegative(),
  recipients_truncated: z.boolean(),
  status: QuarantineStatus,
  subject: z.string().nullable(),
  score: z.number().nullable(),
  required_score: z.number().nullable(),
  action: z.string(),
  dkim: z.string().nullable(),
  spf: z.string().nullable(),
  size: z.number().int().nonnegative(),
  message_id: z.string().nullable(),
  ip_address: z.string().nullable(),
  helo: z.string().nullable(),
  country: z.string().nullable(),
  sender_domain: z.string().nullable(),
  mime_domain: z.string().nullable(),
  mime_user: z.string().nullable(),
  attachments: z.array(MailAttachment),
  urls: z.array(z.string()),
  symbols: z.array(RspamdSymbol),
  headers: z.array(MailHeader),
  text_body: z.string().nullable(),
  html_body: z.string().nullable(),
  body_truncated: z.boolean(),
  /** Whether the original bytes are still stored (download and release need them). */
  raw_available: z.boolean(),
  /** When retention removed the original bytes and bodies (raw download and release then answer 410 raw_purged). */
  purged_at: z.string().nullable(),
  /** The last release attempt that concerned a recipient the caller sees. */
  delivery: DeliveryAttempt.nullable(),
  /** Why the caller's copy is held (issue 18), strongest first; empty when nothing says. */
  hold_reasons: z.array(HoldReason),
  /** Learned as spam or ham through the console (issue 18), or null. */
  learned: LearnedState.nullable(),
  /** Whether the caller's role may teach Rspamd (QC_LEARN_ROLES): the learn actions are offered only then. */
  can_learn: z.boolean(),
});
export type QuarantineDetail = z.infer<typeof QuarantineDetail>;

/** POST /api/quarantine/{id}/release/ (body optional). */
export const ReleaseRequest = z
  .object({
    /** Required to send again after an unknown outcome (the first send may have been delivered). */
    confirm_resend: z.boolean().optional(),
  })
  .strict()
  .nullish();
export type ReleaseRequest = z.infer<typeof ReleaseRequest>;

/**
 * POST /api/quarantine/{id}/release-to/ (issue 23): a copy of the original to another address of the
 * caller's scope (admin: any; domain_admin: of their domain); the recipients' statuses do not change.
 */
export const ReleaseToRequest = z.object({ address: z.string().trim().min(1).max(320) }).strict();
export type ReleaseToRequest = z.infer<typeof ReleaseToRequest>;

/** 200: released to every recipient the caller acts for (or to some: partially_released, the others release_failed). */
export const ReleaseResponse = z.object({
  status: z.enum(['released', 'partially_released']),
  delivery: ReleaseDelivery,
});
export type ReleaseResponse = z.infer<typeof ReleaseResponse>;

/**
 * 202: the relay had not answered within QC_RELEASE_ANSWER_MS (10 s). The attempt goes on: its
 * outcome lands in the e-mail's status, its last delivery and the history as an answered one would.
 */
export const ReleaseInProgress = z.object({ status: z.literal('releasing') });
export type ReleaseInProgress = z.infer<typeof ReleaseInProgress>;

/** 502: relay_refused | relay_unreachable | release_unknown, with what the relay said. */
export const ReleaseFailure = ApiError.extend({ delivery: ReleaseDelivery });
export type ReleaseFailure = z.infer<typeof ReleaseFailure>;

export const QUARANTINE_MESSAGES = {
  notFound: 'Email not found',
  released: 'Email successfully released',
  deleted: 'Email successfully deleted',
} as const;
