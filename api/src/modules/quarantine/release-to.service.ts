import {
  DETAIL_RECIPIENTS,
  isSafeEnvelopeAddress,
  normaliseAddress,
  type ReleaseInProgress,
  type ReleaseResponse,
} from '@qc/contracts';
import type { AppContext } from '../../app-context';
import { recipientDomain } from '../../lib/addresses';
import { forbidden, HttpError } from '../../lib/http-error';
import { relayRaw, type RelayTimeouts } from '../../lib/smtp-relay';
import { firstRecipients } from './list.repository';
import { findMessage, findRaw } from './quarantine.repository';
import {
  emailNotFound,
  historyRow,
  rawPurged,
  refuse,
  relayTextFor,
  scopeFor,
  summaryFor,
  type Actor,
} from './quarantine.service';
import { answerWithin, inFlightReleases, type ReleaseLogger } from './release-inflight';
import { ReleaseFailedError, relayFor, releasedHeader } from './release.service';
import { recordHistory } from './status.repository';
import type { Scope } from './quarantine-scope';

type Deps = Pick<AppContext, 'db' | 'config'>;

const invalidAddress = (why: string) =>
  new HttpError(400, 'validation_error', 'The request is not valid.', { address: why });

/** The history's label of a release to another address: the recipients the caller saw, then the new one. */
function releaseToLabel(recipients: string[], total: number, to: string): string {
  const shown = recipients.slice(0, 10).join(', ');
  const more = total > 10 ? ` +${total - 10}` : '';
  return `${shown}${more} → ${to}`;
}

/**
 * Sends a copy of the original bytes (with X-Quarantine-Released) to one other address, through the
 * same relay as a release, with the original envelope sender. For an admin any address, for a
 * domain_admin one of their domain, for a user one of their own addresses (issue 31: a mail to an
 * alias sent to the primary). The recipients' statuses are left as they
 * are (the mail stays where it was for its own recipients); the history row names both addresses.
 * Answers within QC_RELEASE_ANSWER_MS as a release does (202 releasing: the history gets the outcome).
 */
export async function releaseTo(
  deps: Deps,
  actor: Actor,
  id: string,
  rawAddress: string,
  options: { timeouts?: RelayTimeouts; log?: ReleaseLogger } = {},
): Promise<ReleaseResponse | ReleaseInProgress> {
  const { user } = actor.auth;
  const scope = scopeFor(user);
  if (scope.kind === 'none') throw forbidden('Only the mail’s recipients and their administrators may release it.');
  const address = normaliseAddress(rawAddress);
  if (!isSafeEnvelopeAddress(address)) throw invalidAddress('Not a valid e-mail address.');
  if (scope.kind === 'domain' && recipientDomain(address) !== scope.domain) {
    throw invalidAddress(`The address must be of your domain (${scope.domain}).`);
  }
  if (scope.kind === 'recipient' && !scope.addresses.includes(address)) {
    throw invalidAddress(`The address must be one of your own: ${scope.addresses.join(', ')}.`);
  }

  const summary = await summaryFor(deps, id, scope);
  const message = summary.total ? await findMessage(deps.db, id) : undefined;
  if (!message) return refuse(deps, actor, 'release', id, emailNotFound());
  const raw = await findRaw(deps.db, id);
  if (!raw) return refuse(deps, actor, 'release', id, message.raw_purged_at !== null ? rawPurged() : emailNotFound());
  const from = message.envelope_from;
  const smtpUrl = await relayFor(deps, actor, id, from);

  const releases = inFlightReleases(deps.db);
  const data = Buffer.concat([releasedHeader(raw, user.email, new Date()), raw]);
  const copy = { id, smtpUrl, from, address, data, total: summary.total, scope };
  const sent = sendCopy(deps, actor, copy, options.timeouts, releases.signal);
  return answerWithin(sent, deps.config.releaseAnswerMs, releases, options.log, { id });
}

/** What sendCopy sends, and to whom. */
interface Copy {
  id: string;
  smtpUrl: string;
  from: string;
  address: string;
  data: Buffer;
  /** The caller's recipients of the mail (the history's label names the first ones). */
  total: number;
  scope: Scope;
}

/** The relay's part of releaseTo: sends, records the history row, answers or throws the failure. */
async function sendCopy(
  deps: Deps,
  actor: Actor,
  copy: Copy,
  timeouts: RelayTimeouts | undefined,
  signal: AbortSignal,
): Promise<ReleaseResponse> {
  const { id, smtpUrl, from, address, data, total, scope } = copy;
  const result = await relayRaw(smtpUrl, { from, to: [address] }, data, timeouts, signal);
  const accepted = result.outcome === 'sent' && result.accepted.some((a) => a.toLowerCase() === address);
  const code = accepted
    ? null
    : result.outcome === 'sent' || result.outcome === 'refused'
      ? 'relay_refused'
      : result.outcome === 'unreachable'
        ? 'relay_unreachable'
        : 'release_unknown';

  const recipients = await firstRecipients(deps.db, [id], scope, DETAIL_RECIPIENTS);
  // A mail history row with a target (not a literal: MailHistoryRow leaves the target columns out).
  const row = {
    ...historyRow(actor, 'release', id, code),
    target_kind: 'release_to' as const,
    target_id: null,
    target_label: releaseToLabel(
      recipients.map((r) => r.recipient),
      total,
      address,
    ),
  };
  await recordHistory(deps.db, row, scope);

  const response =
    result.outcome === 'unreachable' || result.outcome === 'unknown'
      ? (result.response ?? result.error)
      : result.response;
  const delivery = {
    // The address is the caller's to send to: the relay's reply is theirs, a connection error an admin's.
    response: relayTextFor(scope, response, true),
    accepted: accepted ? [address] : [],
    rejected: accepted ? [] : [address],
  };
  if (code === 'relay_refused') throw new ReleaseFailedError(code, 'The mail relay refused the message.', delivery);
  if (code === 'relay_unreachable') {
    throw new ReleaseFailedError(code, 'The mail relay could not be reached; nothing was sent.', delivery);
  }
  if (code) {
    throw new ReleaseFailedError(
      code,
      'The connection to the mail relay was lost after the message was sent.',
      delivery,
    );
  }
  return { status: 'released', delivery };
}
