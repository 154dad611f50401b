import type { SECURITY_ACTIONS } from '@qc/contracts';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../../app-context';
import type { DbExecutor } from '../../db/database';
import { countAttempts } from '../auth/attempt-counter';
import { recordAudit, type AuditActor } from '../history/audit.service';
import { findSecuritySubject, type SecuritySubject } from './security.repository';
import { securityNotice, type SecurityNoticeKind } from './security-notices';

export type { SecuritySubject } from './security.repository';

/**
 * Security events of an account (issue 16 §3): a structured log line each
 * (`{event, account, user_id, ip, user_agent}`), and, for an existing account, a history row whose
 * actor is that account (or the administrator who acted) and whose target is that user, so admins
 * and the account's domain_admin read it. mfa_reset's row is the users module's (an admin action).
 */
export type SecurityEventName = (typeof SECURITY_ACTIONS)[number] | 'mfa_reset';

export interface SecurityLogger {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/** Where an event came from: the client (request.ip honours only QC_TRUSTED_PROXIES) and the log to write to. */
export interface RequestOrigin {
  ip: string | null;
  userAgent: string | null;
  log: SecurityLogger;
}

/** A user agent is the client's to choose: kept to a sane length in the log. */
const USER_AGENT_MAX = 512;

export function originOf(request: FastifyRequest): RequestOrigin {
  const agent = request.headers['user-agent'];
  return {
    ip: request.ip || null,
    userAgent: typeof agent === 'string' ? agent.slice(0, USER_AGENT_MAX) : null,
    log: request.log,
  };
}

/** For what runs without a request (the CLI): no client address, no user agent. */
export function originWithoutRequest(log: SecurityLogger): RequestOrigin {
  return { ip: null, userAgent: null, log };
}

/** Outcome recorded with each event: the attempts that were refused are failures, with their code. */
const FAILURE_CODES: Partial<Record<SecurityEventName, string>> = {
  login_failed: 'invalid_credentials',
  account_locked: 'rate_limited',
  refresh_reuse: 'token_reused',
  totp_replay: 'invalid_code',
};

export interface SecurityEvent {
  name: SecurityEventName;
  /** The account as named: the e-mail typed at sign-in, or the user's e-mail. */
  account: string;
  /** The existing account, or null (an unknown e-mail: the log only, never the history). */
  subject: SecuritySubject | null;
  /** A more precise failure code than the event's default (e.g. login_failed: invalid_code). */
  code?: string;
  /** Who acted when it is not the account itself: an administrator setting the password. */
  actor?: AuditActor;
}

export function logSecurityEvent(origin: RequestOrigin, event: SecurityEvent): void {
  const code = event.code ?? FAILURE_CODES[event.name] ?? null;
  const line = {
    event: event.name,
    account: event.account,
    user_id: event.subject?.id ?? null,
    ip: origin.ip,
    user_agent: origin.userAgent,
    ...(code ? { code } : {}),
    ...(event.actor && event.actor.id !== event.subject?.id ? { by: event.actor.email } : {}),
  };
  // Refused attempts are what an operator watches for; the changes themselves are ordinary.
  if (code) origin.log.warn(line, `security event: ${event.name}`);
  else origin.log.info(line, `security event: ${event.name}`);
}

/** The history row of an event about an existing account; in the caller's transaction when given one. */
export async function auditSecurityEvent(db: DbExecutor, origin: RequestOrigin, event: SecurityEvent): Promise<void> {
  const { subject } = event;
  if (!subject || event.name === 'mfa_reset') return;
  const code = event.code ?? FAILURE_CODES[event.name] ?? null;
  // A domain_admin reads the events of their domain's users only, not those of an admin or of
  // another domain_admin (outside their scope, like in /api/users/).
  const readingDomain = subject.role === 'user' ? subject.domain_name : null;
  await recordAudit(db, {
    action: event.name,
    actor: event.actor ?? {
      id: subject.id,
      email: subject.email,
      role: subject.role,
      domain: readingDomain,
      ip: origin.ip,
    },
    target: { kind: 'user', id: subject.id, label: subject.email, domain: readingDomain },
    result: code ? 'failure' : 'success',
    code,
  });
}

/** Log line and history row, for an event not tied to a change's transaction. */
export async function recordSecurityEvent(db: DbExecutor, origin: RequestOrigin, event: SecurityEvent): Promise<void> {
  logSecurityEvent(origin, event);
  await auditSecurityEvent(db, origin, event);
}

type NoticeDeps = Pick<AppContext, 'mailer'>;

/**
 * Tells the account's owner by e-mail. Not awaited by the action and never failing it: a relay that
 * is down or slow must not undo or hold up a password change; its failure is logged.
 */
export function sendSecurityNotice(
  deps: NoticeDeps,
  origin: RequestOrigin,
  kind: SecurityNoticeKind,
  user: { id: string; email: string; username: string },
  options: { byAdministrator?: boolean; failures?: number } = {},
): Promise<void> {
  const message = securityNotice(kind, user.email, {
    username: user.username,
    at: new Date(),
    ip: options.byAdministrator ? null : origin.ip,
    byAdministrator: options.byAdministrator ?? false,
    ...(options.failures ? { failures: options.failures } : {}),
  });
  let sending: Promise<void>;
  try {
    sending = deps.mailer.send(message);
  } catch (err) {
    sending = Promise.reject(err);
  }
  return sending.catch((err: unknown) => {
    origin.log.warn(
      { err, event: kind, user_id: user.id },
      'the security notice to the account owner could not be sent',
    );
  });
}

type SecurityDeps = Pick<AppContext, 'db' | 'mailer'>;

/**
 * For the users module's POST /api/users/{id}/mfa/reset/ (its own history row is mfa_reset): the
 * log line and the owner's notice. Call it once the reset is committed.
 */
export async function notifyMfaReset(
  deps: SecurityDeps,
  origin: RequestOrigin,
  userId: string,
  by?: AuditActor,
): Promise<void> {
  const subject = await findSecuritySubject(deps.db, { id: userId });
  if (!subject) return;
  logSecurityEvent(origin, { name: 'mfa_reset', account: subject.email, subject, ...(by ? { actor: by } : {}) });
  void sendSecurityNotice(deps, origin, 'mfa_reset', subject, { byAdministrator: true });
}

/**
 * A password was changed, by its owner (profile) or by an administrator (`by`: the users module,
 * the CLI): log line, history row (password_changed) and the owner's notice. Call it once the change
 * is committed.
 */
export async function recordPasswordChanged(
  deps: SecurityDeps,
  origin: RequestOrigin,
  userId: string,
  by?: AuditActor,
): Promise<void> {
  const subject = await findSecuritySubject(deps.db, { id: userId });
  if (!subject) return;
  const byAdministrator = by !== undefined && by.id !== userId;
  await recordSecurityEvent(deps.db, origin, {
    name: 'password_changed',
    account: subject.email,
    subject,
    ...(byAdministrator ? { actor: by } : {}),
  });
  void sendSecurityNotice(deps, origin, 'password_changed', subject, { byAdministrator });
}

/**
 * A wrong code at the second sign-in step, so after the right password: its event (totp_replay for
 * the code of a step already used, else login_failed), and the owner's notice once per burst, not
 * per code: at the first replay, and at the QC_MFA_MAX_FAILURES-th wrong code (the count that burns
 * a challenge), within the sign-in window (QC_LOGIN_RATE_WINDOW) and across challenges, so a new
 * sign-in neither starts the count again nor sends another notice.
 */
export async function recordSecondFactorFailure(
  deps: Pick<AppContext, 'db' | 'mailer' | 'config'>,
  origin: RequestOrigin,
  account: string,
  subject: SecuritySubject | null,
  replay: boolean,
): Promise<void> {
  await recordSecurityEvent(
    deps.db,
    origin,
    replay
      ? { name: 'totp_replay', account, subject }
      : { name: 'login_failed', account, subject, code: 'invalid_code' },
  );
  if (!subject) return;
  const windowMs = deps.config.loginRate.windowSeconds * 1000;
  const failuresKey = `mfa-failures:${subject.id}`;
  const replaysKey = `totp-replays:${subject.id}`;
  const keys = replay ? [failuresKey, replaysKey] : [failuresKey];
  const counts = new Map(
    (
      await countAttempts(
        deps.db,
        keys.map((key) => ({ key, windowMs })),
        Date.now(),
      )
    ).map((r) => [r.key, r.count]),
  );
  if (counts.get(replaysKey) === 1) void sendSecurityNotice(deps, origin, 'totp_replay', subject);
  const failures = counts.get(failuresKey);
  if (failures === deps.config.mfaRate.maxFailures) {
    void sendSecurityNotice(deps, origin, 'mfa_failures', subject, { failures });
  }
}
