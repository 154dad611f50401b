import type { AdminUserList, Role, UserListQuery, UserOrdering } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import { HttpError } from '../../lib/http-error';
import type { Manager } from './users-admin.service';
import { toAdminUser } from './users-admin.service';
import {
  findPendingEmails,
  listUsers,
  userHitsQuery,
  type AdminUserRow,
  type UserCursor,
  type UserListFilters,
} from './users.repository';

/**
 * A search term matching at most this many users is resolved through the indexes first and the
 * page picked among those (sorted: few rows). A commoner term is tested along the ordered walk
 * instead, where matches are dense enough to fill a page quickly.
 */
export const SEARCH_HITS_MAX = 1000;

const badCursor = () =>
  new HttpError(400, 'validation_error', 'The request is not valid.', { cursor: 'Invalid cursor.' });

/** Opaque: the ordering it was made for, and the last row's key in it. */
export function encodeUserCursor(ordering: UserOrdering, row: AdminUserRow): string {
  const key = ordering.endsWith('email') ? [row.email] : [row.date_joined, row.id];
  return Buffer.from(JSON.stringify([ordering, ...key]), 'utf8').toString('base64url');
}

export function decodeUserCursor(ordering: UserOrdering, cursor: string): UserCursor {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw badCursor();
  }
  if (!Array.isArray(parsed) || parsed[0] !== ordering) throw badCursor(); // made for another ordering
  const [, a, b, ...rest] = parsed as unknown[];
  if (rest.length) throw badCursor();
  if (ordering.endsWith('email')) {
    if (typeof a !== 'string' || b !== undefined) throw badCursor();
    return { email: a };
  }
  if (typeof a !== 'number' || !Number.isSafeInteger(a) || typeof b !== 'string') throw badCursor();
  return { dateJoined: a, id: b };
}

/**
 * The filters a manager's list runs with, or null when nothing can match: a domain_admin sees
 * only the `user`s of their domain, whatever the query asks for.
 */
function scopedFilters(by: Manager, query: UserListQuery, policyRoles: readonly Role[]): UserListFilters | null {
  const f: UserListFilters = {
    role: query.role,
    domainId: query.domain,
    isActive: query.is_active,
    mfa: query.mfa,
    mfaPolicyRoles: policyRoles,
  };
  if (by.role === 'admin') return f;
  if (!by.domainId || (query.domain !== undefined && query.domain !== by.domainId)) return null;
  if (query.role !== undefined && query.role !== 'user') return null;
  return { ...f, role: 'user', domainId: by.domainId };
}

/** GET /api/users/: keyset pages, never an OFFSET or a count. */
export async function listManagedUsers(
  db: DbExecutor,
  by: Manager,
  query: UserListQuery,
  policyRoles: readonly Role[],
): Promise<AdminUserList> {
  const after = query.cursor ? decodeUserCursor(query.ordering, query.cursor) : null;
  const filters = scopedFilters(by, query, policyRoles);
  if (!filters) return { results: [], next_cursor: null };
  const term = query.q?.trim();
  if (term) {
    const hits = await userHitsQuery(db, term, SEARCH_HITS_MAX + 1).execute();
    if (hits.length <= SEARCH_HITS_MAX) filters.hitIds = [...new Set(hits.map((h) => h.id))];
    else filters.q = term;
  }
  const rows = await listUsers(db, filters, query.ordering, after, query.page_size + 1);
  const page = rows.slice(0, query.page_size);
  const pending = await findPendingEmails(
    db,
    page.map((r) => r.id),
    Date.now(),
  );
  const last = page[page.length - 1];
  return {
    results: page.map((r) => toAdminUser(r, pending.get(r.id) ?? null, policyRoles)),
    next_cursor: rows.length > query.page_size && last ? encodeUserCursor(query.ordering, last) : null,
  };
}
