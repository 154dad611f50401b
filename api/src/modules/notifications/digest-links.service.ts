import { DigestActOutcome, HELD_STATUSES, type DigestLinkInfo } from '@qc/contracts';
import type { AppContext } from '../../app-context';
import type { ErrorLogger } from '../../lib/error-handler';
import { HttpError } from '../../lib/http-error';
import type { SessionContextRow } from '../auth/auth.repository';
import { actorOf as auditActorOf } from '../history/audit.service';
import { addEntry, listAddress, resolveOwner } from '../lists/lists.service';
import { findMessage, type MessageRow } from '../quarantine/quarantine.repository';
import { deleteMessage, summaryFor, type Actor } from '../quarantine/quarantine.service';
import { addressesOfUser, recipientScope, type Scope } from '../quarantine/quarantine-scope';
import { ReleaseFailedError, releaseToOutcome } from '../quarantine/release.service';
import { verifyDigestLink, type DigestLinkClaims } from './digest-link';
import { claimLinkUse, findLinkUse, findLinkUser, finishLinkUse, releaseLinkUse } from './notifications.repository';
import { disableNotifications, mayHaveDomainDigest } from './notifications.service';

/**
 * Digest links (issue 20): the token is the credential. A GET tells what the link would do and
 * changes nothing (mail scanners prefetch links); a POST acts once, as the link's user with that
 * user's rights now: a deactivated account, a domain_admin no longer one, a message no longer
 * theirs (or gone) make the link invalid, with nothing done.
 */

type Deps = Pick<AppContext, 'db' | 'config'>;
type Outcome = DigestActOutcome;

const iso = (ms: number) => new Date(ms).toISOString();

export const linkInvalid = () =>
  new HttpError(404, 'digest_link_invalid', 'This link is not valid (or no longer yours to use).');
export const linkExpired = () => new HttpError(410, 'digest_link_expired', 'This link has expired.');

/** 409: the link acted before; `outcome` says how (null while that first POST is still under way). */
export class DigestLinkUsedError extends HttpError {
  constructor(readonly outcome: Outcome | null) {
    super(409, 'digest_link_used', 'This link was already used.');
  }

  override toBody() {
    return { ...super.toBody(), outcome: this.outcome };
  }
}

// The outcome column while the POST that took the link is still acting.
const UNDER_WAY = '';

function parseOutcome(text: string): Outcome | null {
  if (text === UNDER_WAY) return null;
  try {
    const parsed = DigestActOutcome.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

interface Target {
  claims: DigestLinkClaims;
  user: SessionContextRow;
  /** What the link reaches: its recipient's copy (kind user, whatever the role), or the domain's. */
  scope: Scope;
  /** The message of a release/allow_sender/delete link (null for unsubscribe). */
  message: MessageRow | null;
}

/**
 * The link's user and message as that user may act on them now, or null: the account is gone or
 * deactivated, a domain link's user is no longer the domain_admin of a domain, the message is gone
 * or none of its recipients is in the user's scope (the quarantine routes' rule for their role).
 */
async function resolveTarget(deps: Deps, claims: DigestLinkClaims): Promise<Target | null> {
  const user = await findLinkUser(deps.db, claims.userId);
  if (!user || !user.is_active) return null;
  if (claims.kind === 'domain' && !mayHaveDomainDigest(user)) return null;
  // A personal digest lists the user's own copies (those to any of their addresses): its links act
  // on those only, even for an admin or a domain_admin (whose role reaches other people's copies).
  const scope: Scope =
    claims.kind === 'domain'
      ? { kind: 'domain', domain: user.domain_name!.toLowerCase() }
      : recipientScope(addressesOfUser(user));
  if (claims.messageId === null) return { claims, user, scope, message: null };
  const summary = await summaryFor(deps, claims.messageId, scope);
  const message = summary.total ? await findMessage(deps.db, claims.messageId) : undefined;
  return message ? { claims, user, scope, message } : null;
}

const INVALID_INFO: DigestLinkInfo = {
  state: 'invalid',
  action: null,
  recipient: null,
  message: null,
  expires_at: null,
  outcome: null,
};

/** GET: what the link is and would do. Reads only. */
export async function linkInfo(deps: Deps, token: string, now = Date.now()): Promise<DigestLinkInfo> {
  const claims = verifyDigestLink(deps.config.secretKey, token);
  if (!claims) return INVALID_INFO;
  const base = { action: claims.action, expires_at: iso(claims.expiresAt) };
  const use = await findLinkUse(deps.db, claims.id);
  if (use) {
    // Used (before or after it expired): what it did is worth more than "expired".
    const target = await resolveTarget(deps, claims);
    return {
      ...base,
      state: 'used',
      recipient: target?.user.email ?? null,
      message: target?.message ? messageSummary(target.message) : null,
      outcome: parseOutcome(use.outcome),
    };
  }
  if (claims.expiresAt <= now) return { ...base, state: 'expired', recipient: null, message: null, outcome: null };
  const target = await resolveTarget(deps, claims);
  if (!target) return INVALID_INFO;
  return {
    ...base,
    state: 'ready',
    recipient: target.user.email,
    message: target.message ? messageSummary(target.message) : null,
    outcome: null,
  };
}

function messageSummary(m: MessageRow): NonNullable<DigestLinkInfo['message']> {
  return {
    sender: m.sender,
    subject: m.subject ?? '',
    received_at: iso(Number(m.received_at)),
    score: m.score === null ? null : Number(m.score),
  };
}

/** What one action did; `retry`: nothing was done, the link is given back so the user may try again. */
interface Acted {
  outcome: Outcome;
  retry: boolean;
}

/**
 * POST: acts once. Checks in order: the signature (404 digest_link_invalid), an earlier use (409
 * digest_link_used with its outcome), the expiry (410 digest_link_expired), the user and message
 * now (404 digest_link_invalid); then the link is taken (its id into digest_link_uses: of
 * concurrent POSTs the primary key lets one through) and the action runs through the quarantine
 * and lists services, with their history rows and the link's user as actor.
 */
export async function actOnLink(
  deps: Deps,
  token: string,
  ip: string | null,
  log?: ErrorLogger,
  now = Date.now(),
): Promise<Outcome> {
  const claims = verifyDigestLink(deps.config.secretKey, token);
  if (!claims) throw linkInvalid();
  const use = await findLinkUse(deps.db, claims.id);
  if (use) throw new DigestLinkUsedError(parseOutcome(use.outcome));
  if (claims.expiresAt <= now) throw linkExpired();
  const target = await resolveTarget(deps, claims);
  if (!target) throw linkInvalid();
  const useRow = {
    link_id: claims.id,
    user_id: target.user.user_id,
    action: claims.action,
    message_id: claims.messageId,
    used_at: now,
  };
  const used = async (): Promise<never> => {
    const first = await findLinkUse(deps.db, claims.id);
    throw new DigestLinkUsedError(first ? parseOutcome(first.outcome) : null);
  };

  if (claims.action === 'unsubscribe') {
    // One transaction: the link is spent exactly when the settings change.
    const outcome: Outcome = {
      action: 'unsubscribe',
      result: 'unsubscribed',
      relay_response: null,
      sender: null,
      at: iso(now),
    };
    const acted = await deps.db.transaction().execute(async (trx) => {
      if (!(await claimLinkUse(trx, { ...useRow, outcome: JSON.stringify(outcome) }))) return false;
      await disableNotifications(trx, target.user, now);
      return true;
    });
    return acted ? outcome : used();
  }

  // The relay is called between the claim and the outcome: no transaction may stay open over it.
  if (!(await claimLinkUse(deps.db, { ...useRow, outcome: UNDER_WAY }))) return used();
  let acted: Acted;
  try {
    acted = await perform(deps, target, { auth: { sessionId: '', familyId: '', user: target.user }, ip }, log, now);
  } catch (err) {
    await releaseLinkUse(deps.db, claims.id).catch(() => undefined);
    throw err;
  }
  if (acted.retry) await releaseLinkUse(deps.db, claims.id);
  else await finishLinkUse(deps.db, claims.id, JSON.stringify(acted.outcome));
  return acted.outcome;
}

const codeOf = (err: unknown) => (err instanceof HttpError ? err.code : null);

/** Whether any of the user's recipients of the message is still held (else it was released or deleted). */
async function stillHeld(deps: Deps, id: string, scope: Scope): Promise<boolean> {
  const { counts } = await summaryFor(deps, id, scope);
  return HELD_STATUSES.some((s) => counts[s]);
}

async function perform(deps: Deps, target: Target, actor: Actor, log: ErrorLogger | undefined, now: number) {
  const { claims, scope, message } = target;
  const id = message!.id;
  const done = (result: Outcome['result'], extra: Partial<Outcome> = {}, retry = false): Acted => ({
    outcome: { action: claims.action, result, relay_response: null, sender: null, at: iso(now), ...extra },
    retry,
  });

  if (claims.action === 'release') {
    if (!(await stillHeld(deps, id, scope))) return done('already_done');
    try {
      // The link's page tells the outcome: it waits for it.
      const res = await releaseToOutcome(deps, actor, id, { confirmResend: false, scope, ...(log ? { log } : {}) });
      return done('released', { relay_response: res.delivery.response });
    } catch (err) {
      // The relay refused or could not be reached: nothing delivered, the user may try again.
      if (err instanceof ReleaseFailedError) return done('failed', { relay_response: err.delivery.response }, true);
      const code = codeOf(err);
      if (code === 'already_released' || code === 'email_deleted') return done('already_done');
      // Another release under way, an unknown outcome, the original gone: nothing done here.
      if (code === 'release_in_progress' || code === 'confirm_resend_required' || code === 'raw_purged') {
        return done('failed', {}, true);
      }
      throw err;
    }
  }

  if (claims.action === 'delete') {
    if (!(await stillHeld(deps, id, scope))) return done('already_done');
    try {
      await deleteMessage(deps, actor, id, scope);
      return done('deleted');
    } catch (err) {
      const code = codeOf(err);
      if (code === 'already_released') return done('already_done');
      if (code === 'release_in_progress') return done('failed', {}, true);
      throw err;
    }
  }

  // allow_sender: the displayed sender (header From), as "Not spam" whitelists it.
  let address: string;
  try {
    address = listAddress(message!.sender);
  } catch {
    return done('failed', { sender: message!.sender || null }, true);
  }
  const owner = await resolveOwner(deps.db, actor.auth, { scope: claims.kind === 'domain' ? 'domain' : 'user' });
  try {
    await addEntry(deps.db, auditActorOf(actor.auth, actor.ip), owner, 'whitelist', address);
    return done('sender_allowed', { sender: address });
  } catch (err) {
    const code = codeOf(err);
    if (code === 'list_exists') return done('already_done', { sender: address });
    // On the same owner's blacklist: to be removed there first; nothing done.
    if (code === 'list_conflict') return done('failed', { sender: address }, true);
    throw err;
  }
}
