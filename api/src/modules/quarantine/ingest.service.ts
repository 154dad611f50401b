import type { Multipart, MultipartFile } from '@fastify/multipart';
import { INGEST_LIMITS, IngestMeta, MAIL_ACTIONS, type MailAction, type RspamdSymbol } from '@qc/contracts';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { AppContext } from '../../app-context';
import { isDataRefusal, isUniqueViolation, type Db } from '../../db/database';
import { searchExtra } from '../../db/migration-0021-search-attachments-urls';
import { domainToALabel, normaliseAddress, withALabelDomain } from '../../lib/addresses';
import { groupCommit } from '../../lib/group-commit';
import { HttpError, unauthorized } from '../../lib/http-error';
import { malformedMultipart } from '../../lib/multipart';
import { issuesToErrors } from '../../lib/validation';
import { parseMessage, withoutNul } from './message-parser';
import {
  DuplicateMessageError,
  findIdByDedupKey,
  findIdByUuid,
  insertQuarantinedMessage,
  insertQuarantinedMessages,
  rememberRetryUuid,
  type NewQuarantinedMessage,
} from './ingest.repository';

export type WriteMessage = (msg: NewQuarantinedMessage) => Promise<string>;

type Deps = Pick<AppContext, 'db'> & {
  /** Default: one transaction per message. The ingest route passes its group-commit writer's. */
  write?: WriteMessage;
};

/** Group commit bounds: the raw bytes of one flush stay in memory until it commits. */
const GROUP_MAX_MESSAGES = 32;
const GROUP_MAX_BYTES = 32 * 1024 * 1024;
/** How long a flush may wait for ingests still being read (their senders wait for the commit anyway). */
const GROUP_GATHER_MS = 5;

/** One ingest request: `write` stores its message; `leave` (always, at the end) if it never wrote. */
export interface Arrival {
  write: WriteMessage;
  leave(): void;
}

/**
 * The ingest route's writer: messages of concurrent ingests are stored together (one transaction,
 * one fsync for all). Each request announces itself when it starts reading (`arrive`), so a flush
 * can wait a few milliseconds for messages about to be ready; a lone ingest waits for nobody. Each
 * still gets its answer only after its own commit.
 */
export function createMessageWriter(db: Db): { arrive(): Arrival } {
  let reading = 0;
  const submit = groupCommit((msgs: NewQuarantinedMessage[]) => insertQuarantinedMessages(db, msgs), {
    maxItems: GROUP_MAX_MESSAGES,
    maxWeight: GROUP_MAX_BYTES,
    weight: (msg) => msg.size,
    comingSoon: () => reading,
    gatherMs: GROUP_GATHER_MS,
    oneItemsFault: isDataRefusal,
  });
  return {
    arrive() {
      reading++;
      let here = true;
      const leave = () => {
        if (!here) return;
        here = false;
        reading--;
        submit.recheck(); // a flush waiting for this one's message need not wait any longer
      };
      return {
        write: (msg) => {
          leave();
          return submit(msg);
        },
        leave,
      };
    },
  };
}

const sha256 = (data: Buffer | string) => createHash('sha256').update(data).digest();

/**
 * Service authentication of the ingest (Haraka's plugin): `Authorization: Bearer <QC_INGEST_TOKEN>`,
 * compared in constant time (digests of equal length, whatever the input's length).
 */
export function checkIngestToken(configured: string | null, header: string | undefined): void {
  if (!configured) throw new HttpError(503, 'ingest_disabled', 'Ingest is disabled: QC_INGEST_TOKEN is unset.');
  const match = /^Bearer ([^\s]+)$/.exec(header ?? '');
  if (!match) throw unauthorized('not_authenticated', 'The ingest token was not provided.');
  if (!timingSafeEqual(sha256(match[1]!), sha256(configured))) {
    throw unauthorized('token_invalid', 'The ingest token is not valid.');
  }
}

const invalid = (errors: Record<string, string>) =>
  new HttpError(400, 'validation_error', 'The request is not valid.', errors);
const tooLarge = () => new HttpError(413, 'payload_too_large', 'The message is too large.');

/**
 * @fastify/multipart limits for the ingest form: `meta` (a text field, or a file part as curl's
 * `-F meta=@meta.json` sends it) and one `message` file.
 */
export function ingestMultipartLimits(maxBytes: number) {
  return { fileSize: maxBytes, files: 2, fields: 4, fieldSize: INGEST_LIMITS.metaMaxBytes, parts: 8 };
}

const NOT_JSON = 'Not valid JSON.';

/** A `meta` file part as text: bounded like the text field (413 past it), UTF-8 or a 400. */
async function metaFileText(part: MultipartFile): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of part.file as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > INGEST_LIMITS.metaMaxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  if (part.file.truncated) throw tooLarge();
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch {
    throw invalid({ meta: NOT_JSON });
  }
}

/**
 * Reads the form: `meta` (JSON, as a text field, a part of type application/json, or a file part)
 * and `message` (a file part: the raw bytes). Each at most once: two would leave it unclear which
 * one was meant.
 */
export async function readIngestForm(parts: AsyncIterable<Multipart>): Promise<{ meta: IngestMeta; raw: Buffer }> {
  let metaValue: unknown;
  let raw: Buffer | undefined;
  const given = new Set<string>();
  const once = (field: string) => {
    if (given.has(field)) throw invalid({ [field]: 'Sent more than once.' });
    given.add(field);
  };
  try {
    for await (const part of parts) {
      if (part.type === 'file' && part.fieldname === 'meta') {
        once('meta');
        metaValue = await metaFileText(part);
      } else if (part.type === 'file') {
        const data = await part.toBuffer();
        if (part.fieldname === 'message') {
          once('message');
          raw = data;
        }
      } else if (part.fieldname === 'meta') {
        once('meta');
        if (part.valueTruncated) throw tooLarge();
        metaValue = part.value;
      }
    }
  } catch (err) {
    if (err instanceof HttpError) throw err;
    const code = (err as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && /^FST_(REQ_FILE_TOO_LARGE|PARTS_LIMIT|FILES_LIMIT|FIELDS_LIMIT)$/.test(code)) {
      throw tooLarge();
    }
    // An application/json part that does not parse (secure-json-parse also refuses __proto__ keys).
    if (code === 'FST_INVALID_JSON_FIELD_ERROR') throw invalid({ meta: NOT_JSON });
    if (code === 'FST_PROTO_VIOLATION') throw invalid({ non_field_errors: 'Invalid field name.' });
    throw malformedMultipart(err);
  }
  const errors: Record<string, string> = {};
  if (metaValue === undefined) errors.meta = 'Required.';
  if (!raw) errors.message = 'Required.';
  else if (!raw.length) errors.message = 'The message is empty.';
  if (metaValue === undefined || !raw || !raw.length) throw invalid(errors);
  let json: unknown = metaValue; // already parsed when the part was application/json
  if (typeof metaValue === 'string') {
    try {
      // Keys named __proto__ are dropped while parsing (nothing can reach a prototype).
      json = JSON.parse(metaValue, (key, value: unknown) => (key === '__proto__' ? undefined : value));
    } catch {
      throw invalid({ meta: NOT_JSON });
    }
  }
  const parsed = IngestMeta.safeParse(json);
  if (!parsed.success) {
    const inner = issuesToErrors(parsed.error.issues, '');
    throw invalid(Object.fromEntries(Object.entries(inner).map(([k, v]) => [k ? `meta.${k}` : 'meta', v])));
  }
  return { meta: parsed.data, raw };
}

const ACTION_SET = new Set<string>(MAIL_ACTIONS);

/** Rspamd's action ("rewrite subject", "no action", …) in the console's words (spec §4). */
export function normalizeAction(action: string | null | undefined): MailAction {
  const name = (action ?? '')
    .trim()
    .toLowerCase()
    .replace(/[\s-]+/g, '_');
  return ACTION_SET.has(name) ? (name as MailAction) : 'custom';
}

// Rspamd's symbols for the DKIM and SPF verdicts; the first one present wins (failures first).
const DKIM_SYMBOLS: [string, string][] = [
  ['R_DKIM_REJECT', 'fail'],
  ['R_DKIM_PERMFAIL', 'permerror'],
  ['R_DKIM_TEMPFAIL', 'temperror'],
  ['R_DKIM_ALLOW', 'pass'],
  ['R_DKIM_NA', 'none'],
];
const SPF_SYMBOLS: [string, string][] = [
  ['R_SPF_FAIL', 'fail'],
  ['R_SPF_SOFTFAIL', 'softfail'],
  ['R_SPF_PERMFAIL', 'permerror'],
  ['R_SPF_DNSFAIL', 'temperror'],
  ['R_SPF_NEUTRAL', 'neutral'],
  ['R_SPF_ALLOW', 'pass'],
  ['R_SPF_NA', 'none'],
];

export interface RspamdFacts {
  symbols: RspamdSymbol[];
  dkim: string | null;
  spf: string | null;
  country: string | null;
}

/** Rspamd's `group` and `groups`, merged without repeats (`group` first when given). */
function symbolGroups(group: string | undefined, groups: string[] | undefined): Pick<RspamdSymbol, 'group' | 'groups'> {
  const all = [...new Set([...(group ? [group] : []), ...(groups ?? [])])];
  return { group: all[0] ?? null, groups: all };
}

export function rspamdFacts(meta: IngestMeta): RspamdFacts {
  const entries = Object.entries(meta.rspamd?.symbols ?? {});
  const symbols: RspamdSymbol[] = entries
    .map(([key, s]) => ({
      symbol: s.name || key,
      score: s.score ?? s.metric_score ?? 0,
      description: s.description ?? null,
      options: s.options ?? [],
      ...symbolGroups(s.group, s.groups),
    }))
    .sort((a, b) => b.score - a.score || a.symbol.localeCompare(b.symbol));
  const names = new Set(symbols.map((s) => s.symbol));
  const verdict = (table: [string, string][]) => table.find(([name]) => names.has(name))?.[1] ?? null;
  // Rspamd's asn module: ASN symbol with an option like "asn:15169, ipnet:…, country:US".
  const asn = symbols.find((s) => s.symbol === 'ASN')?.options.join(' ') ?? '';
  const country = meta.country?.trim() || /\bcountry:([A-Za-z]{2})\b/.exec(asn)?.[1]?.toUpperCase() || null;
  return { symbols, dkim: verdict(DKIM_SYMBOLS), spf: verdict(SPF_SYMBOLS), country };
}

/** The domain of an address as A-label, lower case (null for the null sender or no '@'). */
const domainOf = (address: string) => {
  const at = address.lastIndexOf('@');
  return at > 0 ? aLabelOf(address.slice(at + 1)) : null;
};
const aLabelOf = (domain: string) => domainToALabel(domain) ?? domain.toLowerCase();

/**
 * The bytes that identify a message across SMTP attempts: without the header fields that name this
 * attempt's uuid (Haraka's Received) and Rspamd's X-Rspamd-* fields (a new scan may score it
 * differently). So a sender's retry, after Haraka lost the api's answer, matches the stored copy.
 */
export function retryStableBytes(raw: Buffer, uuid: string): Buffer {
  const text = raw.toString('latin1'); // one char per byte: offsets are byte offsets
  const match = /\r?\n\r?\n/.exec(text);
  if (!match) return raw;
  const fields = text.slice(0, match.index).split(/\r?\n(?![ \t])/); // folded lines stay in their field
  const kept = fields.filter((f) => !/^X-Rspamd-/i.test(f) && !(uuid && f.includes(uuid)));
  if (kept.length === fields.length) return raw;
  return Buffer.concat([Buffer.from(kept.join('\r\n'), 'latin1'), raw.subarray(match.index)]);
}

/** Clock skew tolerated on a received_at given by the plugin; later is taken as now. */
const FUTURE_SKEW_MS = 5 * 60 * 1000;

/** What makes a retry under a new uuid the same message: its envelope and its retry-stable bytes. */
export const dedupKeyOf = (mailFrom: string, recipients: string[], sameBytes: string) =>
  sha256(`${mailFrom.toLowerCase()}\n${recipients.join('\n')}\n${sameBytes}`).toString('hex');

/**
 * Stores a quarantined message (DESIGN §4 ingest). Idempotent: the same Haraka uuid, or the same
 * envelope and bytes under a new uuid, returns the id already stored (and keeps that new uuid beside
 * it: quarantine_message_uuids). Resolves
 * only once the transaction committed.
 */
export async function ingestMessage(
  deps: Deps,
  meta: IngestMeta,
  raw: Buffer,
  log?: { warn(obj: object, msg: string): void },
): Promise<{ id: string }> {
  const known = await findIdByUuid(deps.db, meta.uuid);
  if (known) return { id: known };

  // Stored lower-cased with the domain as A-label (the form of accounts, domains and lists: the
  // domain_admin of xn--bcher-kva.example sees mail to ann@bücher.example), one per mailbox; the
  // first spelling as received (domain as A-label) is kept for the release when its case differs.
  const asReceived = new Map<string, string>();
  for (const written of meta.rcpt_to.map((r) => withALabelDomain(r.trim()))) {
    const mailbox = normaliseAddress(written);
    if (!asReceived.has(mailbox)) asReceived.set(mailbox, written);
  }
  const recipients = [...asReceived.keys()].sort();
  const casedDifferently = [...asReceived.values()].filter((r) => r !== r.toLowerCase());
  // The senders like the recipients (issue 21 item 5): the domain as A-label, the local part's case
  // as written (the envelope sender goes out as MAIL FROM at a release), so a search or a list
  // entry for xn--bcher-kva.example meets mail from x@bücher.example.
  const mailFrom = withALabelDomain(meta.mail_from.trim());
  const rawHash = sha256(raw).toString('hex');
  const sameBytes = sha256(retryStableBytes(raw, meta.uuid)).toString('hex');
  const dedupKey = dedupKeyOf(mailFrom, recipients, sameBytes);
  // Mail stored before migration 0023 was keyed by the sender as received (U-label domain).
  const asSent = meta.mail_from.trim();
  const same =
    (await findIdByDedupKey(deps.db, dedupKey)) ??
    (asSent.toLowerCase() === mailFrom.toLowerCase()
      ? undefined
      : await findIdByDedupKey(deps.db, dedupKeyOf(asSent, recipients, sameBytes)));
  if (same) {
    // A retry under a new uuid: that uuid leads to the stored copy too (the sender's queue id).
    await rememberRetryUuid(deps.db, same, meta.uuid);
    return { id: same };
  }

  const parsed = await parseMessage(raw);
  if (parsed.error) log?.warn({ uuid: meta.uuid, error: parsed.error }, 'quarantined message could not be parsed');
  const facts = rspamdFacts(meta);
  const now = Date.now();
  const given = meta.received_at ? Date.parse(meta.received_at) : NaN;
  const receivedAt = Number.isFinite(given) && given <= now + FUTURE_SKEW_MS ? given : now;

  try {
    const write = deps.write ?? ((msg) => insertQuarantinedMessage(deps.db, msg));
    const id = await write({
      uuid: meta.uuid,
      receivedAt,
      sender: parsed.from === null ? mailFrom : withALabelDomain(parsed.from),
      subject: parsed.subject,
      score: meta.rspamd?.score ?? null,
      action: normalizeAction(meta.rspamd?.action),
      size: raw.length,
      messageId: parsed.messageId,
      recipients,
      raw: { data: raw, sha256: rawHash },
      details: {
        envelope_from: mailFrom,
        required_score: meta.rspamd?.required_score ?? null,
        header_date: parsed.date,
        // The stack's own words: free text, NUL included, which PostgreSQL's text cannot hold.
        helo: withoutNul(meta.helo ?? '').slice(0, 255) || null,
        ip_address: withoutNul(meta.remote_ip ?? '') || null,
        country: facts.country && (withoutNul(facts.country) || null),
        sender_domain: domainOf(mailFrom) ?? (parsed.mimeDomain && aLabelOf(parsed.mimeDomain)),
        mime_user: parsed.mimeUser,
        mime_domain: parsed.mimeDomain,
        dkim: facts.dkim,
        spf: facts.spf,
        dedup_key: dedupKey,
        attachments: JSON.stringify(parsed.attachments),
        urls: JSON.stringify(parsed.urls),
        search_extra: searchExtra(
          parsed.attachments.map((a) => a.name),
          parsed.urls,
        ),
        symbols: JSON.stringify(facts.symbols),
        headers: JSON.stringify(parsed.headers),
        body_text: parsed.textBody,
        body_html: parsed.htmlBody,
        body_truncated: parsed.bodyTruncated ? 1 : 0,
        envelope_to: casedDifferently.length ? JSON.stringify(casedDifferently) : null,
      },
    });
    return { id };
  } catch (err) {
    // A concurrent post of the same message won the insert: answer with its id.
    if (!(err instanceof DuplicateMessageError) && !isUniqueViolation(err)) throw err;
    const byUuid = await findIdByUuid(deps.db, meta.uuid);
    if (byUuid) return { id: byUuid };
    const winner = await findIdByDedupKey(deps.db, dedupKey);
    if (!winner) throw err;
    await rememberRetryUuid(deps.db, winner, meta.uuid);
    return { id: winner };
  }
}
