import {
  isSafeEnvelopeAddress,
  type ReleaseDelivery,
  type ReleaseInProgress,
  type ReleaseResponse,
} from '@qc/contracts';
import type { AppContext } from '../../app-context';
import type { DeliveryOutcome, RecipientStatus } from '../../db/schema';
import { isDatabaseUnavailable, type ErrorLogger } from '../../lib/error-handler';
import { HttpError } from '../../lib/http-error';
import {
  DEFAULT_RELAY_TIMEOUTS,
  relayRaw,
  STOPPED_BEFORE_DATA,
  type RelayResult,
  type RelayTimeouts,
} from '../../lib/smtp-relay';
import { findMessage, findRaw } from './quarantine.repository';
import { answerWithin, inFlightReleases, type ReleaseLogger } from './release-inflight';
import { claimForRelease, finishRelease, type FinishInput } from './status.repository';
import type { Scope } from './quarantine-scope';
import {
  emailNotFound,
  historyRow,
  parseJsonArray,
  rawPurged,
  refuse,
  relayTextFor,
  RELEASE_STALE_MS,
  scopeFor,
  summaryFor,
  visibleTo,
  type Actor,
} from './quarantine.service';

type Deps = Pick<AppContext, 'db' | 'config'>;

/** The claimed (lower-cased) recipients spelled as Haraka received them: the original envelope. */
function asReceived(envelopeTo: string | null, recipients: string[]): string[] {
  const original = new Map(
    parseJsonArray<unknown>(envelopeTo)
      .filter((a): a is string => typeof a === 'string' && isSafeEnvelopeAddress(a))
      .map((a) => [a.toLowerCase(), a]),
  );
  return recipients.map((r) => original.get(r) ?? r);
}

/** A 502 of a release: the error body carries what the relay said. */
export class ReleaseFailedError extends HttpError {
  constructor(
    code: string,
    detail: string,
    readonly delivery: ReleaseDelivery,
  ) {
    super(502, code, detail);
  }

  // The relay's refusal, or its absence, is an outcome the console handles, not a fault of its own.
  override readonly expected = true;

  override toBody() {
    return { ...super.toBody(), delivery: this.delivery };
  }
}

// CR, LF or NUL in anything written on the SMTP wire would inject commands or headers.
const SMTP_UNSAFE = /[\r\n\0]/;

/**
 * The relay a release (or a copy to another address) goes through, once its envelope is safe: else
 * the refusal, recorded (503 no relay configured, 400 an unsafe envelope sender or releaser).
 */
export async function relayFor(deps: Deps, actor: Actor, id: string, from: string): Promise<string> {
  const smtpUrl = deps.config.smtpUrl;
  if (!smtpUrl) {
    return refuse(
      deps,
      actor,
      'release',
      id,
      new HttpError(503, 'relay_not_configured', 'No mail relay is configured.'),
    );
  }
  if ((from !== '' && !isSafeEnvelopeAddress(from)) || SMTP_UNSAFE.test(actor.auth.user.email)) {
    return refuse(deps, actor, 'release', id, new HttpError(400, 'invalid_envelope', 'Unsafe envelope value.'));
  }
  return smtpUrl;
}

/** Prepended to the original bytes, in the message's own line-ending style. */
export function releasedHeader(raw: Buffer, actorEmail: string, now: Date): Buffer {
  const firstLf = raw.indexOf(0x0a);
  const eol = firstLf > 0 && raw[firstLf - 1] === 0x0d ? '\r\n' : firstLf < 0 ? '\r\n' : '\n';
  return Buffer.from(`X-Quarantine-Released: ${now.toISOString()} by ${actorEmail}${eol}`, 'utf8');
}

interface Outcome {
  outcome: DeliveryOutcome;
  code: string | null;
  statusOf: (recipient: string) => RecipientStatus;
  delivery: ReleaseDelivery;
  detail: string;
}

function interpret(result: RelayResult, recipients: string[]): Outcome {
  switch (result.outcome) {
    case 'sent': {
      const accepted = new Set(result.accepted.map((a) => a.toLowerCase()));
      const rejected = recipients.filter((r) => !accepted.has(r));
      return {
        outcome: rejected.length ? 'partially_released' : 'released',
        code: null,
        statusOf: (r) => (accepted.has(r) ? 'released' : 'release_failed'),
        delivery: { response: result.response, accepted: recipients.filter((r) => accepted.has(r)), rejected },
        detail: 'Released.',
      };
    }
    case 'refused':
      return {
        outcome: 'relay_refused',
        code: 'relay_refused',
        statusOf: () => 'release_failed',
        delivery: { response: result.response, accepted: [], rejected: recipients },
        detail: 'The mail relay refused the message; it stays in quarantine.',
      };
    case 'unreachable':
      return {
        outcome: 'relay_unreachable',
        code: 'relay_unreachable',
        statusOf: () => 'release_failed',
        delivery: { response: result.response ?? result.error, accepted: [], rejected: recipients },
        detail: 'The mail relay could not be reached; the message stays in quarantine.',
      };
    default:
      return {
        outcome: 'release_unknown',
        code: 'release_unknown',
        statusOf: () => 'release_unknown',
        delivery: { response: result.response ?? result.error, accepted: [], rejected: [] },
        detail: 'The connection to the mail relay was lost after the message was sent: it may have been delivered.',
      };
  }
}

/** One SMTP transaction of a release: what the relay said, and the recipients that answer settles. */
interface Part {
  result: RelayResult;
  recipients: string[];
}

/**
 * Hands the message to the relay in transactions of at most `maxRcpts` recipients (one connection
 * each). Recipients the relay answers 452 (too many for this transaction) go into the next one, and
 * the limit drops to what the relay took. Stops at the first transaction that did not go through
 * (nothing more is tried against a relay that refused, is down or went silent) or once the time for
 * the whole release is up: the recipients not tried then are not delivered (release_failed).
 */
async function relayInTransactions(
  url: string,
  from: string,
  recipients: string[],
  wire: string[],
  data: Buffer,
  options: { maxRcpts: number; timeouts?: RelayTimeouts; breaker?: RelayBreaker; signal: AbortSignal },
): Promise<Part[]> {
  const timeouts = options.timeouts ?? DEFAULT_RELAY_TIMEOUTS;
  // One deadline for the whole release, so that it is settled before its claim may be taken over.
  const deadline = Date.now() + timeouts.totalTimeout;
  const onWire = new Map(recipients.map((r, i) => [r, wire[i]!]));
  const parts: Part[] = [];
  let queue = recipients;
  let limit = options.maxRcpts;
  while (queue.length) {
    const left = deadline - Date.now();
    if (left <= 0 || options.breaker?.down || options.signal.aborted) {
      const error =
        left <= 0
          ? 'no time left for this release'
          : options.signal.aborted
            ? STOPPED_BEFORE_DATA
            : 'relay unreachable (not tried again)';
      parts.push({ result: { outcome: 'unreachable', response: null, error, connected: false }, recipients: queue });
      break;
    }
    const batch = queue.slice(0, limit);
    const to = batch.map((r) => onWire.get(r)!);
    const result = await relayRaw(url, { from, to }, data, { ...timeouts, totalTimeout: left }, options.signal);
    if (options.breaker && tripsBreaker(result)) options.breaker.down = true;
    const again = new Set(result.outcome === 'sent' ? result.tooMany.map((a) => a.toLowerCase()) : []);
    // 452 means "not in this transaction": only worth another if this one took someone.
    const retry = result.outcome === 'sent' && result.accepted.length > 0 ? batch.filter((r) => again.has(r)) : [];
    parts.push({ result, recipients: retry.length ? batch.filter((r) => !again.has(r)) : batch });
    if (result.outcome !== 'sent') {
      if (queue.length > batch.length) {
        const error = 'not tried after a failed transaction';
        const rest = queue.slice(batch.length);
        parts.push({ result: { outcome: 'unreachable', response: null, error, connected: false }, recipients: rest });
      }
      break;
    }
    if (retry.length) limit = Math.max(1, result.accepted.length);
    queue = [...retry, ...queue.slice(batch.length)];
  }
  return parts;
}

/**
 * The outcome of a release from its transactions: each recipient's status is that of its own
 * transaction. Any recipient released: released or partially_released (200; a later transaction
 * lost after its data leaves its recipients release_unknown). None: release_unknown if a transaction
 * may have delivered, else the first failure. The response is that of the transaction that decided.
 */
function combine(parts: Part[]): Outcome {
  const outcomes = parts.map((p) => interpret(p.result, p.recipients));
  if (outcomes.length === 1) return outcomes[0]!;
  const statusOf = new Map<string, RecipientStatus>();
  parts.forEach((p, i) => p.recipients.forEach((r) => statusOf.set(r, outcomes[i]!.statusOf(r))));
  const accepted = outcomes.flatMap((o) => o.delivery.accepted);
  const rejected = outcomes.flatMap((o) => o.delivery.rejected);
  const delivery = (response: string | null) => ({ response, accepted, rejected });
  const status = (r: string) => statusOf.get(r) ?? 'release_failed';
  if (accepted.length) {
    const lastSent = outcomes.filter((o) => o.outcome === 'released' || o.outcome === 'partially_released').at(-1)!;
    const all = accepted.length === statusOf.size;
    return {
      outcome: all ? 'released' : 'partially_released',
      code: null,
      statusOf: status,
      delivery: delivery(lastSent.delivery.response),
      detail: lastSent.detail,
    };
  }
  const decisive = outcomes.find((o) => o.outcome === 'release_unknown') ?? outcomes.find((o) => o.code)!;
  return { ...decisive, statusOf: status, delivery: delivery(decisive.delivery.response) };
}

/**
 * One bulk action's view of the relay: `down` once a connection could not be made at all (refused,
 * or no greeting), or once the relay took a message and then went silent past a timeout, so the
 * releases still to come fail at once (nothing sent: they stay releasable) instead of each waiting
 * out the timeout: 500 e-mails to a relay that stalls after DATA took hours. A refusal, or a
 * connection dropped mid-way, does not trip it.
 */
export interface RelayBreaker {
  down: boolean;
}

/** Whether this attempt's result says the relay is not worth trying again within one bulk action. */
export function tripsBreaker(result: RelayResult): boolean {
  return (result.outcome === 'unreachable' && !result.connected) || (result.outcome === 'unknown' && result.timedOut);
}

/** Waits before each new attempt to record an outcome the relay already gave. */
export const RECORD_RETRY_MS = [250, 1_000, 4_000];

/**
 * Records a delivery attempt's outcome. The mail has gone (or not) whatever the database does
 * next: a short outage is waited out, and if it lasts, the relay's answer is logged with the ids
 * (the claim then stays "under way", so nobody can resend it without confirming).
 */
async function recordOutcome(deps: Deps, log: ErrorLogger | undefined, input: FinishInput): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await finishRelease(deps.db, input);
    } catch (err) {
      const wait = RECORD_RETRY_MS[attempt];
      if (wait === undefined || !isDatabaseUnavailable(err)) {
        const { messageId, deliveryId, outcome, response, accepted, rejected } = input;
        log?.error(
          { err, messageId, deliveryId, outcome, response, accepted, rejected },
          'a release outcome could not be recorded',
        );
        throw err;
      }
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}

interface ReleaseOptions {
  confirmResend: boolean;
  timeouts?: RelayTimeouts;
  /** Shared by the releases of one bulk action: see RelayBreaker. */
  breaker?: RelayBreaker;
  log?: ReleaseLogger;
  /** Narrower than the actor's role gives (a digest link releases its recipient's copy only). */
  scope?: Scope;
}

/**
 * Releases a message to the recipients the caller acts for that are still held: claims them
 * (pending | release_failed → releasing; with confirm_resend also release_unknown and stale claims),
 * re-injects the ORIGINAL bytes with an X-Quarantine-Released header over SMTP with the original
 * envelope sender, and records the outcome, the counters and the history. Answers within
 * QC_RELEASE_ANSWER_MS: a relay that has not answered by then gets 202 releasing, and the attempt
 * goes on to record its outcome all the same (a proxy's own timeout would otherwise show an error
 * while the mail stays releasing).
 */
export async function releaseMessage(
  deps: Deps,
  actor: Actor,
  id: string,
  options: ReleaseOptions,
): Promise<ReleaseResponse | ReleaseInProgress> {
  const { outcome } = await claimAndRelay(deps, actor, id, options);
  return answerWithin(outcome, deps.config.releaseAnswerMs, inFlightReleases(deps.db), options.log, { id });
}

/** releaseMessage without a time to answer by: the outcome, however long the relay takes (bulk, digest links). */
export async function releaseToOutcome(
  deps: Deps,
  actor: Actor,
  id: string,
  options: ReleaseOptions,
): Promise<ReleaseResponse> {
  return (await claimAndRelay(deps, actor, id, options)).outcome;
}

/**
 * The checks and the claim (refusals thrown, recorded), then the relay's work under way: `outcome`
 * settles once the relay answered and the outcome is recorded (wrapped: awaiting this does not
 * wait for the relay).
 */
async function claimAndRelay(
  deps: Deps,
  actor: Actor,
  id: string,
  options: ReleaseOptions,
): Promise<{ outcome: Promise<ReleaseResponse> }> {
  const { user } = actor.auth;
  const scope = options.scope ?? scopeFor(user);
  const now = Date.now();
  const summary = await summaryFor(deps, id, scope, now);
  const message = summary.total ? await findMessage(deps.db, id) : undefined;
  if (!message) return refuse(deps, actor, 'release', id, emailNotFound());
  if (message.raw_purged_at !== null) return refuse(deps, actor, 'release', id, rawPurged());
  const smtpUrl = await relayFor(deps, actor, id, message.envelope_from);

  const sources: { status: RecipientStatus; staleBefore?: number }[] = [
    { status: 'pending' },
    { status: 'release_failed' },
  ];
  if (options.confirmResend) {
    sources.push({ status: 'release_unknown' }, { status: 'releasing', staleBefore: now - RELEASE_STALE_MS });
  }
  const { deliveryId, claimed } = await claimForRelease(deps.db, {
    messageId: id,
    scope,
    from: sources,
    actorId: user.user_id,
    actorEmail: user.email,
    now,
  });
  if (!claimed.length) {
    const current = await summaryFor(deps, id, scope);
    const c = current.counts;
    const err = c.release_unknown
      ? new HttpError(
          409,
          'confirm_resend_required',
          'The outcome of the last release is unknown: confirm to send it again.',
        )
      : c.releasing
        ? new HttpError(409, 'release_in_progress', 'A release of this e-mail is under way.')
        : c.released
          ? new HttpError(409, 'already_released', 'This e-mail was already released.')
          : new HttpError(409, 'email_deleted', 'This e-mail was deleted.');
    return refuse(deps, actor, 'release', id, err);
  }

  const releases = inFlightReleases(deps.db);
  const outcome = relayClaimed(deps, actor, {
    id,
    smtpUrl,
    message,
    deliveryId,
    recipients: claimed.map((r) => r.recipient),
    scope,
    options,
    signal: releases.signal,
  });
  releases.track(outcome);
  return { outcome };
}

/** What relayClaimed needs of the claim just made. */
interface Claim {
  id: string;
  smtpUrl: string;
  message: { envelope_from: string; envelope_to: string | null };
  deliveryId: string;
  recipients: string[];
  scope: Scope;
  options: ReleaseOptions;
  /** Aborted when the app closes: nothing more is sent, what is under way is waited for. */
  signal: AbortSignal;
}

/** Hands the claimed recipients' copy to the relay and records the outcome: the answer, or its error thrown. */
async function relayClaimed(deps: Deps, actor: Actor, claim: Claim): Promise<ReleaseResponse> {
  const { id, smtpUrl, message, deliveryId, recipients, scope, options, signal } = claim;
  const { user } = actor.auth;
  const from = message.envelope_from;
  const raw = await findRaw(deps.db, id);
  let outcome: Outcome;
  if (!raw) {
    // Purged between the check above and the claim: nothing was sent, the rows stay held.
    outcome = interpret(
      { outcome: 'unreachable', response: null, error: 'raw message missing', connected: false },
      recipients,
    );
    outcome.code = 'raw_purged';
  } else if (!recipients.every(isSafeEnvelopeAddress)) {
    outcome = { ...interpret({ outcome: 'refused', response: null, accepted: [], rejected: recipients }, recipients) };
    outcome.code = 'invalid_envelope';
  } else if (options.breaker?.down || signal.aborted) {
    // What connecting would have given, without waiting out the connection timeout once more.
    const error = signal.aborted ? STOPPED_BEFORE_DATA : 'relay unreachable (not tried again)';
    outcome = interpret({ outcome: 'unreachable', response: null, error, connected: false }, recipients);
  } else {
    const data = Buffer.concat([releasedHeader(raw, user.email, new Date()), raw]);
    const wire = asReceived(message.envelope_to, recipients);
    const parts = await relayInTransactions(smtpUrl, from, recipients, wire, data, {
      maxRcpts: deps.config.relayMaxRcpts,
      timeouts: options.timeouts,
      breaker: options.breaker,
      signal,
    });
    outcome = combine(parts);
  }

  await recordOutcome(deps, options.log, {
    messageId: id,
    deliveryId,
    outcome: outcome.outcome,
    response: outcome.delivery.response,
    accepted: outcome.delivery.accepted,
    rejected: outcome.delivery.rejected,
    statusOf: outcome.statusOf,
    claimed: recipients,
    now: Date.now(),
    history: historyRow(actor, 'release', id, outcome.code),
    scope,
  });

  const visible = visibleTo(scope);
  const delivery: ReleaseDelivery = {
    // The claimed recipients are all the caller's: the reply is theirs, a connection error is not.
    response: relayTextFor(scope, outcome.delivery.response, true),
    accepted: outcome.delivery.accepted.filter(visible),
    rejected: outcome.delivery.rejected.filter(visible),
  };
  if (outcome.code === 'raw_purged') throw rawPurged();
  if (outcome.code === 'invalid_envelope') {
    throw new HttpError(400, 'invalid_envelope', 'A recipient address is not safe to send to.');
  }
  if (outcome.code) throw new ReleaseFailedError(outcome.code, outcome.detail, delivery);
  return { status: outcome.outcome === 'partially_released' ? 'partially_released' : 'released', delivery };
}
