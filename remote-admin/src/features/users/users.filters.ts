import type { UserListParams } from './users.api';
import { MFA_FILTERS, USER_ORDERINGS, type MfaFilter, type Role, type UserOrdering } from './users.types';
import { ROLES } from '@qc/contracts';

/** The users list's filters, kept in the URL query string (q, role, domain, active, mfa, ordering, cursor). */
export interface UserFilters {
  q: string;
  /** '' = any role. */
  role: Role | '';
  /** A domain id; '' = any (admins only: a domain_admin's list is their domain's). */
  domain: string;
  active: '' | 'true' | 'false';
  mfa: MfaFilter | '';
  ordering: UserOrdering;
  /** Keyset cursor of the page shown; null = first page. */
  cursor: string | null;
}

export const DEFAULT_USER_FILTERS: Readonly<UserFilters> = Object.freeze({
  q: '',
  role: '',
  domain: '',
  active: '',
  mfa: '',
  ordering: 'email',
  cursor: null,
});

const oneOf = <T extends string>(list: readonly T[], v: string): v is T => (list as readonly string[]).includes(v);

/** Anything invalid in the URL falls back to its default. */
export function readUserFilters(params: URLSearchParams): UserFilters {
  const get = (name: string) => params.get(name)?.trim() ?? '';
  const role = get('role');
  const active = get('active');
  const mfa = get('mfa');
  const ordering = get('ordering');
  return {
    q: get('q').slice(0, 254),
    role: oneOf(ROLES, role) ? role : '',
    domain: get('domain').slice(0, 64),
    active: active === 'true' || active === 'false' ? active : '',
    mfa: oneOf(MFA_FILTERS, mfa) ? mfa : '',
    ordering: oneOf(USER_ORDERINGS, ordering) ? ordering : 'email',
    cursor: get('cursor') || null,
  };
}

export function writeUserFilters(f: UserFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.q) params.set('q', f.q);
  if (f.role) params.set('role', f.role);
  if (f.domain) params.set('domain', f.domain);
  if (f.active) params.set('active', f.active);
  if (f.mfa) params.set('mfa', f.mfa);
  if (f.ordering !== DEFAULT_USER_FILTERS.ordering) params.set('ordering', f.ordering);
  if (f.cursor) params.set('cursor', f.cursor);
  return params;
}

/** True when something narrows the list (the empty state then says "no match", not "no users"). */
export function isFiltered(f: UserFilters): boolean {
  return Boolean(f.q || f.role || f.domain || f.active || f.mfa);
}

/**
 * GET /api/users/ parameters. `canFilterDomain` is false for a domain_admin: their list is their
 * domain's whatever the URL says (the API scopes it; the parameter is not sent).
 */
export function toUserListQuery(f: UserFilters, pageSize: number, canFilterDomain: boolean): UserListParams {
  const query: UserListParams = { page_size: String(pageSize), ordering: f.ordering };
  if (f.q) query.q = f.q;
  if (f.role) query.role = f.role;
  if (f.domain && canFilterDomain) query.domain = f.domain;
  if (f.active) query.is_active = f.active;
  if (f.mfa) query.mfa = f.mfa;
  if (f.cursor) query.cursor = f.cursor;
  return query;
}
