import type { LearnAs, LearnResponse, NotSpamRequest, NotSpamResponse, StepOutcome } from '@qc/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import type { Budgets } from '../../lib/budget';
import type { ErrorLogger } from '../../lib/error-handler';
import { HttpError } from '../../lib/http-error';
import { actorOf as auditActorOf } from '../history/audit.service';
import { addEntry, listAddress, resolveOwner, type Owner } from '../lists/lists.service';
import { findMessage, findRaw, type MessageRow } from '../quarantine/quarantine.repository';
import { isSqlite, scopeSql, type Scope } from '../quarantine/quarantine-scope';
import {
  emailNotFound,
  historyRow,
  rawPurged,
  refuse,
  scopeFor,
  summaryFor,
  type Actor,
} from '../quarantine/quarantine.service';
import { ReleaseFailedError, releaseMessage } from '../quarantine/release.service';
import { recordHistory } from '../quarantine/status.repository';
import { claimLearn, dropLearn, finishLearn } from './learn-claims';
import { learnerShownTo, mayLearn } from './learned';
import { learnWithRspamd } from './rspamd-controller';

/**
 * The learn budget is spent only by a learn about to be sent; "Not spam"'s release spends the
 * release budget as the release route does (else it would be a way around QC_BUDGET_RELEASES).
 */
export type LearningDeps = Pick<AppContext, 'db' | 'config'> & { budgets: Pick<Budgets, 'learn' | 'releases'> };
type Deps = LearningDeps;

const iso = (ms: number) => new Date(Number(ms)).toISOString();
const learnAction = (as: LearnAs) => (as === 'spam' ? 'learn_spam' : 'learn_ham');

/** The message when the caller sees one of its recipients; else the 404 (recorded as a refusal). */
async function visibleMessage(deps: Deps, actor: Actor, id: string, action: 'learn_spam' | 'learn_ham' | 'release') {
  const scope = scopeFor(actor.auth.user);
  const summary = await summaryFor(deps, id, scope);
  const message = summary.total ? await findMessage(deps.db, id) : undefined;
  if (!message) return refuse(deps, actor, action, id, emailNotFound());
  return { message, scope };
}

export const learningNotAllowed = () =>
  new HttpError(403, 'learning_not_allowed', 'Your role may not teach Rspamd (QC_LEARN_ROLES).');

/**
 * POST /api/quarantine/{id}/learn/. Sends the original bytes to Rspamd's controller and records
 * what was learned, by whom and when (history learn_spam/learn_ham). Nothing is sent when the
 * message is learned this way now (by anyone), or when the caller learned it this way before
 * (table learnings: alternating spam and ham sends at most twice per user): `already`. The other
 * `as` is sent (Rspamd relearns: ham after spam moves the message's tokens from one class to the
 * other). Only roles of QC_LEARN_ROLES learn; a learn about to be sent is claimed first (two
 * identical calls send once) and spends the learn budget. Failures are recorded with their code
 * (as a release's), nothing is marked learned.
 */
export async function learnMessage(
  deps: Deps,
  actor: Actor,
  id: string,
  as: LearnAs,
  log?: ErrorLogger,
): Promise<LearnResponse> {
  const me = actor.auth.user;
  // Before anything is looked up: the role alone decides.
  if (!mayLearn(deps.config, me.role)) throw learningNotAllowed();
  const action = learnAction(as);
  const { message, scope } = await visibleMessage(deps, actor, id, action);
  if (message.learned_as === as && message.learned_at !== null) {
    const by = await learnerShownTo(deps.db, actor.auth, message.learned_by);
    const learned = { as, at: iso(message.learned_at), by };
    return { as, already: true, rspamd: `Already learned as ${as} through the console.`, learned };
  }
  const raw = message.raw_purged_at === null ? await findRaw(deps.db, id) : undefined;
  if (!raw) return refuse(deps, actor, action, id, rawPurged());
  const { url, password } = deps.config.rspamdController;
  if (!url) {
    return refuse(
      deps,
      actor,
      action,
      id,
      new HttpError(503, 'learn_not_configured', 'Learning is not configured (QC_RSPAMD_CONTROLLER_URL).'),
    );
  }
  const claimed = await claimLearn(deps.db, { messageId: id, userId: me.user_id, as });
  if (claimed.kind === 'learned') {
    const learned = { as, at: iso(claimed.learnedAt), by: me.email };
    return { as, already: true, rspamd: `You already taught Rspamd this e-mail as ${as}: not sent again.`, learned };
  }
  if (claimed.kind === 'in_progress') {
    throw new HttpError(409, 'learn_in_progress', `This e-mail is being learned as ${as} already.`);
  }
  const { claim } = claimed;
  let done = false;
  try {
    await deps.budgets.learn(me.user_id);
    const result = await learnWithRspamd({ url, password }, as, raw);
    if (result.outcome === 'unavailable') {
      // The detail says what kind of failure (ECONNREFUSED, a timeout) and never more: an unexpected
      // error may name the URL or the client's internals, it goes to the log only.
      if (result.unexpected) log?.error({ err: result.unexpected, emailId: id }, 'rspamd controller: learn failed');
      const detail = result.error ? `Rspamd could not be reached: ${result.error}.` : 'Rspamd could not be reached.';
      return await refuse(deps, actor, action, id, new HttpError(502, 'rspamd_unavailable', detail));
    }
    if (result.outcome === 'refused') {
      const err = new HttpError(502, 'rspamd_refused', `Rspamd refused (HTTP ${result.status}): ${result.answer}`);
      return await refuse(deps, actor, action, id, err);
    }
    const now = Date.now();
    await deps.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('quarantine_messages')
        .set({ learned_as: as, learned_at: now, learned_by: me.email })
        .where('id', '=', id)
        .execute();
      await finishLearn(trx, claim, now);
      await recordHistory(trx, historyRow(actor, action, id, null, now), scope);
    });
    done = true;
    return {
      as,
      already: result.outcome === 'already',
      rspamd: result.answer,
      learned: { as, at: iso(now), by: me.email },
    };
  } finally {
    // Refused by the budget, failed, or an error: not learned, so a later call may send it.
    if (!done) await dropLearn(deps.db, claim);
  }
}

// ---------------------------------------------------------------------------------------------
// Not spam

const ok = { ok: true, skipped: false, code: null, message: null, retry_after: null };
const skipped = { ok: true, skipped: true, code: null, message: null, retry_after: null };
/** A step's error as its outcome: an unexpected one is logged and said in general terms (never a 500 that hides the steps done). */
function failed(err: unknown, log: ErrorLogger | undefined, step: string): StepOutcome {
  if (err instanceof HttpError) {
    const wait = Number(err.headers?.['retry-after']);
    return { ok: false, skipped: false, code: err.code, message: err.detail, retry_after: wait > 0 ? wait : null };
  }
  log?.error({ err }, `not spam: the ${step} step failed`);
  const message = `The ${step} step failed (internal error).`;
  return { ok: false, skipped: false, code: 'internal_error', message, retry_after: null };
}

export const LEARN_STEP_FAILED = 'The e-mail could not be learned (internal error).';

/**
 * "Not spam"'s learn step. Any error is this step's outcome, not the request's (a 500 would hide
 * that the release, already done, went through): an HttpError as it is, anything else logged and
 * told as `internal_error`.
 */
export async function learnStep(
  learn: () => Promise<LearnResponse>,
  log?: ErrorLogger,
): Promise<NotSpamResponse['learn']> {
  try {
    const res = await learn();
    return { ...ok, already: res.already };
  } catch (err) {
    const outcome = failed(err, log, 'learn');
    return err instanceof HttpError
      ? { ...outcome, already: false }
      : { ...outcome, message: LEARN_STEP_FAILED, already: false };
  }
}

/**
 * "Domain" for an admin: the console domain of the recipients they act for (the message's held
 * recipients), when there is exactly one.
 */
async function adminDomainOwner(deps: Deps, actor: Actor, message: MessageRow): Promise<Owner> {
  const { rows } = await sql<{ id: string; name: string }>`select distinct d.id, d.name
    from quarantine_recipients r join domains d on d.name = r.domain
    where r.message_id = ${message.id} and r.status in ('pending', 'release_failed', 'releasing', 'released')`.execute(
    deps.db,
  );
  if (rows.length !== 1) {
    throw new HttpError(
      400,
      'list_owner_ambiguous',
      rows.length
        ? `The recipients belong to ${rows.length} console domains (${rows.map((r) => r.name).join(', ')}): add the sender to one domain's whitelist from the lists page.`
        : 'No recipient of this e-mail belongs to a console domain.',
    );
  }
  return resolveOwner(deps.db, actor.auth, { scope: 'domain', domain_id: rows[0]!.id });
}

/** Other held mails from this sender the caller may see: ids newest first (at most `limit`), and how many. */
export async function otherHeldFrom(
  deps: Deps,
  scope: Scope,
  sender: string,
  exceptId: string,
  limit = 200,
): Promise<{ count: number; ids: string[] }> {
  if (scope.kind === 'none' || sender === '') return { count: 0, ids: [] };
  const where = sql`lower(m.sender) = ${sender.toLowerCase()} and m.id <> ${exceptId}
    and r.status in ('pending', 'release_failed') and ${scopeSql(scope, 'r', isSqlite(deps.db))}`;
  const [{ rows: ids }, { rows: counts }] = await Promise.all([
    sql<{ id: string }>`select m.id from quarantine_messages m
      where exists (select 1 from quarantine_recipients r where r.message_id = m.id and ${where})
      order by m.received_at desc, m.id desc limit ${limit}`.execute(deps.db),
    sql<{ n: number | string }>`select count(distinct r.message_id) as n from quarantine_recipients r
      join quarantine_messages m on m.id = r.message_id where ${where}`.execute(deps.db),
  ]);
  return { count: Number(counts[0]?.n ?? 0), ids: ids.map((r) => r.id) };
}

/**
 * POST /api/quarantine/{id}/not-spam/: release (for the recipients the caller acts for), learn as
 * ham, whitelist the displayed sender. Each step is independent: one failing never stops the
 * others. 404 when the caller cannot see the message.
 */
export async function notSpam(
  deps: Deps,
  actor: Actor,
  id: string,
  body: NotSpamRequest,
  log?: ErrorLogger,
): Promise<NotSpamResponse> {
  const { message, scope } = await visibleMessage(deps, actor, id, 'release');

  let release: NotSpamResponse['release'];
  try {
    await deps.budgets.releases(actor.auth.user.user_id);
    const res = await releaseMessage(deps, actor, id, { confirmResend: false, ...(log ? { log } : {}) });
    release =
      res.status === 'releasing'
        ? // Not refused, but the relay has not answered in time: its outcome lands in the history.
          { ...ok, code: 'release_in_progress', message: 'The mail relay has not answered yet.', delivery: null }
        : { ...ok, delivery: res.delivery };
  } catch (err) {
    release = { ...failed(err, log, 'release'), delivery: err instanceof ReleaseFailedError ? err.delivery : null };
  }

  const learn = await learnStep(() => learnMessage(deps, actor, id, 'ham', log), log);

  let whitelist: NotSpamResponse['whitelist'] = { ...skipped, entry: null };
  if (body.allow_sender !== null) {
    try {
      const address = listAddress(message.sender);
      const owner =
        body.allow_sender === 'me'
          ? await resolveOwner(deps.db, actor.auth, { scope: 'user' })
          : actor.auth.user.role === 'admin'
            ? await adminDomainOwner(deps, actor, message)
            : await resolveOwner(deps.db, actor.auth, { scope: 'domain' });
      const entry = await addEntry(deps.db, auditActorOf(actor.auth, actor.ip), owner, 'whitelist', address);
      whitelist = { ...ok, entry };
    } catch (err) {
      // Already whitelisted: what was asked for holds.
      whitelist =
        err instanceof HttpError && err.code === 'list_exists'
          ? { ...ok, code: err.code, message: err.detail, entry: null }
          : { ...failed(err, log, 'whitelist'), entry: null };
    }
  }

  const others = await otherHeldFrom(deps, scope, message.sender, id);
  return { release, learn, whitelist, others: { sender: message.sender, ...others } };
}
