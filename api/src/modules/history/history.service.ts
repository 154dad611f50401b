import {
  dateFilterBound,
  HISTORY_CATEGORIES,
  type HistoryEntry,
  type HistoryExportQuery,
  type HistoryList,
  type HistoryListQuery,
} from '@qc/contracts';
import type { Db } from '../../db/database';
import { HttpError } from '../../lib/http-error';
import type { AuthContext } from '../auth/auth.service';
import { visibleSubjects } from '../quarantine/list.repository';
import { addressesOfUser } from '../quarantine/quarantine-scope';
import { scopeFor } from '../quarantine/quarantine.service';
import { listHistory, readerKey, type HistoryFilters, type HistoryRow, type HistoryScope } from './history.repository';

/**
 * Issue 5: "scoped like the quarantine". A user reads their own actions and what was done with
 * the mail of their addresses; a domain_admin, the actions of their domain's users and those on their
 * domain's mail; an admin, everything.
 */
export function historyScopeFor(auth: AuthContext): HistoryScope {
  const { user } = auth;
  if (user.role === 'admin') return { kind: 'all' };
  if (user.role === 'domain_admin') {
    // Without a domain they read nothing, as in the quarantine.
    return { kind: 'readers', keys: user.domain_name ? [readerKey.domain(user.domain_name)] : [] };
  }
  // Their own actions, and those on the mail of the addresses they hold (which follows each
  // address: an alias added brings its mail's past with it, one removed takes it away).
  return {
    kind: 'readers',
    keys: [readerKey.user(user.user_id), ...addressesOfUser(user).map((a) => readerKey.address(a))],
  };
}

/**
 * The IP address an action came from is shown to those who would read it in an actor-scoped
 * trail: admins, the actor, and the actor's domain_admin. A user reading an admin's release of
 * their mail learns who and when, not where from.
 */
function showsIp(auth: AuthContext, row: HistoryRow): boolean {
  const { user } = auth;
  if (user.role === 'admin' || row.actor_id === user.user_id) return true;
  return (
    user.role === 'domain_admin' &&
    !!user.domain_name &&
    row.actor_domain?.toLowerCase() === user.domain_name.toLowerCase()
  );
}

function encodeCursor(createdAt: number, id: string): string {
  return Buffer.from(`${createdAt}.${id}`, 'utf8').toString('base64url');
}

function decodeCursor(cursor: string): { createdAt: number; id: string } {
  const [time, id, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  const createdAt = Number(time);
  if (!id || rest.length || !/^\d+$/.test(time ?? '') || !Number.isSafeInteger(createdAt) || !/^\w+$/.test(id)) {
    throw new HttpError(400, 'validation_error', 'The request is not valid.', { cursor: 'Invalid cursor.' });
  }
  return { createdAt, id };
}

/** The filters of a list or export query, as the repository takes them. */
export function historyFilters(query: HistoryExportQuery): HistoryFilters {
  return {
    action: query.action,
    actions: query.category ? HISTORY_CATEGORIES[query.category] : undefined,
    user: query.user,
    dateFrom: dateFilterBound(query.date_from, false),
    dateTo: dateFilterBound(query.date_to, true),
  };
}

/** Rows as the api shows them: the mail's subject where the caller may see it, the IP where they may read it. */
export async function toEntries(db: Db, auth: AuthContext, rows: HistoryRow[]): Promise<HistoryEntry[]> {
  // Which mail each row is about, by its subject, for the mails the caller may see as in the list.
  const emailIds = rows.flatMap((r) => (r.email_id === null ? [] : [r.email_id]));
  const subjects = await visibleSubjects(db, [...new Set(emailIds)], scopeFor(auth.user));
  return rows.map((r) => ({
    id: r.id,
    date: new Date(r.created_at).toISOString(),
    user: { id: r.actor_id, email: r.actor_email, role: r.actor_role },
    action: r.action,
    email_id: r.email_id,
    email: r.email_id !== null && subjects.has(r.email_id) ? { subject: subjects.get(r.email_id) ?? null } : null,
    target:
      r.target_kind && r.target_label !== null ? { kind: r.target_kind, id: r.target_id, label: r.target_label } : null,
    changes: r.changes ? (JSON.parse(r.changes) as string[]) : null,
    ip_address: showsIp(auth, r) ? r.ip_address : null,
    result: r.result,
    code: r.code,
  }));
}

export async function historyPage(db: Db, auth: AuthContext, query: HistoryListQuery): Promise<HistoryList> {
  const rows = await listHistory(
    db,
    historyScopeFor(auth),
    historyFilters(query),
    query.cursor ? decodeCursor(query.cursor) : null,
    query.page_size + 1,
  );
  const page = rows.slice(0, query.page_size);
  const last = page[page.length - 1];
  return {
    results: await toEntries(db, auth, page),
    next_cursor: rows.length > query.page_size && last ? encodeCursor(last.created_at, last.id) : null,
  };
}
