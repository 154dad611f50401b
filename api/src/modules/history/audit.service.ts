import type { HistoryTargetKind, Role } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import type { HistoryTable } from '../../db/schema';
import type { AuthContext } from '../auth/auth.service';
import { insertHistory, readerKey } from './history.repository';

/** Who acted, as the history keeps them (e-mail and role as they were then). */
export interface AuditActor {
  id: string | null;
  email: string;
  role: Role;
  /** The actor's domain name (a domain_admin's scope); null for admins and domain-less users. */
  domain: string | null;
  ip: string | null;
}

/** What an administration change or a security event was about. */
export interface AuditTarget {
  kind: HistoryTargetKind;
  id: string | null;
  /** The user's e-mail or the domain's name, kept as it was. */
  label: string;
  /** The domain the target belongs to (a user's domain, or the domain itself): its domain_admin reads the row. */
  domain: string | null;
}

export interface AuditEvent {
  action: Exclude<HistoryTable['action'], 'download' | 'release' | 'delete'>;
  actor: AuditActor;
  target: AuditTarget;
  /** Names of the fields an update changed; never their values. */
  changes?: readonly string[];
  result?: 'success' | 'failure';
  code?: string | null;
  at?: number;
}

export function actorOf(auth: AuthContext, ip: string | null): AuditActor {
  const { user } = auth;
  return {
    id: user.user_id,
    email: user.email,
    role: user.role,
    domain: user.role === 'admin' ? null : user.domain_name,
    ip,
  };
}

/**
 * Appends an administration or security row to the history. Admins read every row; besides them:
 * the actor, the target user (changes to their own account), and the domain_admin of the actor's
 * and of the target's domain.
 */
export async function recordAudit(db: DbExecutor, event: AuditEvent): Promise<void> {
  const { actor, target } = event;
  const readers = new Set<string>();
  if (actor.id) readers.add(readerKey.user(actor.id));
  if (actor.domain) readers.add(readerKey.domain(actor.domain));
  if (target.kind === 'user' && target.id) readers.add(readerKey.user(target.id));
  if (target.domain) readers.add(readerKey.domain(target.domain));
  await insertHistory(
    db,
    {
      created_at: event.at ?? Date.now(),
      actor_id: actor.id,
      actor_email: actor.email,
      actor_role: actor.role,
      actor_domain: actor.domain,
      action: event.action,
      email_id: null,
      result: event.result ?? 'success',
      code: event.code ?? null,
      ip_address: actor.ip,
      target_kind: target.kind,
      target_id: target.id,
      target_label: target.label,
      changes: event.changes?.length ? JSON.stringify(event.changes) : null,
    },
    [...readers],
  );
}
