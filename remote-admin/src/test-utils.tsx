/** Helpers for this remote's component tests (not bundled: only *.test.tsx import it). */
import * as auth from '@qc/auth';
import { renderExposed, signInWith } from '@qc/ui/testing';
import ExposedDirectory from './exposed/Directory';
import ExposedDomains from './exposed/Domains';
import ExposedUsers from './exposed/Users';
import type { Domain, DomainDetail } from './features/domains/domains.types';
import type { AdminUser, Role } from './features/users/users.types';

// The generic helpers (fetch faked with real Responses, router + query client, phone screen,
// notices, antd Select, clock) are every app's: this file holds only this remote's own.
export * from '@qc/ui/testing';

export const DOMAIN_A = { id: 'd1', name: 'a.example' };

/** A user as GET /api/users/{id}/ answers it (typed from @qc/contracts). */
export function adminUser(overrides: Partial<AdminUser> = {}): AdminUser {
  return {
    id: 'u2',
    username: 'jane',
    email: 'jane@a.example',
    first_name: 'Jane',
    last_name: 'Doe',
    role: 'user',
    domain: DOMAIN_A,
    is_external: false,
    source: 'local',
    addresses: [overrides.email ?? 'jane@a.example'],
    mfa_enabled: false,
    date_joined: '2026-10-01T08:00:00+02:00',
    pending_email: null,
    is_active: true,
    last_login: '2026-11-20T09:30:00+01:00',
    mfa_required: false,
    invitation_pending: false,
    ...overrides,
  };
}

export function domain(overrides: Partial<Domain> = {}): Domain {
  return {
    id: 'd1',
    name: 'a.example',
    display_name: 'a.example',
    description: 'Domain A',
    users_count: 2,
    created_at: '2026-09-01T08:00:00+02:00',
    updated_at: '2026-09-02T08:00:00+02:00',
    ...overrides,
  };
}

export function domainDetail(overrides: Partial<DomainDetail> = {}): DomainDetail {
  return {
    ...domain(),
    users: [
      { id: 'u2', email: 'jane@a.example', username: 'jane', role: 'user', is_active: true },
      { id: 'u3', email: 'boss@a.example', username: 'boss', role: 'domain_admin', is_active: false },
    ],
    ...overrides,
  };
}

/** Signs the test in as `role` (id 'me'); a domain_admin is of DOMAIN_A. */
export function signInAs(role: Role, id = 'me') {
  signInWith(
    auth,
    adminUser({ id, role, email: `${role}@a.example`, username: role, domain: role === 'admin' ? null : DOMAIN_A }),
  );
}

/** The Users page group as the host mounts it (`users/*`). */
export const renderUsers = (path = '/users') => renderExposed('users', <ExposedUsers />, path);

/** The Domains page group as the host mounts it (`domains/*`). */
export const renderDomains = (path = '/domains') => renderExposed('domains', <ExposedDomains />, path);

/** Admin → Directory as the host mounts it (`directory`). */
export const renderDirectory = (path = '/directory') => renderExposed('directory', <ExposedDirectory />, path);
