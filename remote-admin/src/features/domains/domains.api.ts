import { api } from '@qc/api-client';
import { searchParamsOf } from '../users/users.api';
import type { Domain, DomainCreate, DomainDetail, DomainList, DomainUpdate } from './domains.types';

/** Calls of the domain administration endpoints (DESIGN §4.1, admin only). */

export interface DomainListParams {
  q?: string;
  cursor?: string;
  page_size: string;
}

const domainPath = (id: string) => `domains/${encodeURIComponent(id)}/`;

/** GET /api/domains/: one keyset page, by name. */
export function listDomains(query: DomainListParams, signal?: AbortSignal): Promise<DomainList> {
  return api.get('domains/', { searchParams: searchParamsOf(query), ...(signal ? { signal } : {}) }).json<DomainList>();
}

/** GET /api/domains/{id}/: the domain and its first users. */
export function getDomain(id: string, signal?: AbortSignal): Promise<DomainDetail> {
  return api.get(domainPath(id), signal ? { signal } : {}).json<DomainDetail>();
}

/** POST /api/domains/: 201 the domain (the name IDNA-normalised by the server). */
export function createDomain(body: DomainCreate): Promise<Domain> {
  return api.post('domains/', { json: body }).json<Domain>();
}

/** PATCH /api/domains/{id}/ */
export function updateDomain(id: string, changes: DomainUpdate): Promise<Domain> {
  return api.patch(domainPath(id), { json: changes }).json<Domain>();
}

/** DELETE /api/domains/{id}/ → 204; 409 domain_has_users while it has users. */
export async function deleteDomain(id: string): Promise<void> {
  await api.delete(domainPath(id));
}
