import { api } from '@qc/api-client';
import type { AdminUser, AdminUserList } from '@qc/contracts';
import { useQuery } from '@tanstack/react-query';

/** The owners a control-panel filter can have: the system (any recipient) or a user. */
export const SYSTEM_OWNER = 'system';
const OPTIONS_PAGE = '20';

export type OwnerUser = Pick<AdminUser, 'id' | 'email'>;

/** GET /api/users/?q=: the accounts whose e-mail, username or name contains `q`. */
function searchUsers(q: string, signal?: AbortSignal): Promise<AdminUserList> {
  return api
    .get('users/', { searchParams: { q: q || undefined, page_size: OPTIONS_PAGE }, ...(signal ? { signal } : {}) })
    .json<AdminUserList>();
}

/** GET /api/users/{id}/ (an owner chosen from a link, not among the options shown). */
function getUser(id: string, signal?: AbortSignal): Promise<AdminUser> {
  return api.get(`users/${encodeURIComponent(id)}/`, signal ? { signal } : {}).json<AdminUser>();
}

export function useUserSearch(q: string) {
  return useQuery({
    queryKey: ['rspamd', 'owners', q],
    queryFn: ({ signal }) => searchUsers(q, signal),
    staleTime: 30_000,
  });
}

export function useOwner(id: string, enabled: boolean) {
  return useQuery({
    queryKey: ['rspamd', 'owner', id],
    queryFn: ({ signal }) => getUser(id, signal),
    enabled,
    staleTime: 60_000,
  });
}
