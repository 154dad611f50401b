import { api } from '@qc/api-client';
import type { AdminUser, AdminUserList, UserCreate, UserUpdate } from './users.types';

/**
 * Calls of the user administration endpoints (DESIGN §4.1) through the app's api client: Bearer
 * header, one refresh on 401. Failures reject with ky's HTTPError (read them with readApiError()).
 */

/** Query string of GET /api/users/ as sent (empty values are left out). */
export interface UserListParams {
  q?: string;
  role?: string;
  domain?: string;
  is_active?: 'true' | 'false';
  mfa?: string;
  ordering?: string;
  cursor?: string;
  page_size: string;
}

const userPath = (id: string) => `users/${encodeURIComponent(id)}/`;

/** Drops the parameters left empty, so the URL carries only what filters. */
export function searchParamsOf(query: object): Record<string, string> {
  return Object.fromEntries(
    Object.entries(query).filter((entry): entry is [string, string] => typeof entry[1] === 'string' && entry[1] !== ''),
  );
}

/** GET /api/users/: one keyset page (admin: everyone; domain_admin: their domain's users). */
export function listUsers(query: UserListParams, signal?: AbortSignal): Promise<AdminUserList> {
  return api
    .get('users/', { searchParams: searchParamsOf(query), ...(signal ? { signal } : {}) })
    .json<AdminUserList>();
}

/** GET /api/users/{id}/ (404 outside the caller's scope). */
export function getUser(id: string, signal?: AbortSignal): Promise<AdminUser> {
  return api.get(userPath(id), signal ? { signal } : {}).json<AdminUser>();
}

/** POST /api/users/: 201 the user; without `password` an invitation is e-mailed. */
export function createUser(body: UserCreate): Promise<AdminUser> {
  return api.post('users/', { json: body }).json<AdminUser>();
}

/** PATCH /api/users/{id}/ with the changed fields only. */
export function updateUser(id: string, changes: UserUpdate): Promise<AdminUser> {
  return api.patch(userPath(id), { json: changes }).json<AdminUser>();
}

/** DELETE /api/users/{id}/ → 204. */
export async function deleteUser(id: string): Promise<void> {
  await api.delete(userPath(id));
}

/** POST /api/users/{id}/invitation/ → 204: a new link e-mailed, the earlier ones stop working. */
export async function resendInvitation(id: string): Promise<void> {
  await api.post(`${userPath(id)}invitation/`);
}

/** POST /api/users/{id}/mfa/reset/ → 204: secret and backup codes removed, sessions ended. */
export async function resetUserMfa(id: string): Promise<void> {
  await api.post(`${userPath(id)}mfa/reset/`);
}
