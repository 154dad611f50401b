/**
 * Types of the administration API come from @qc/contracts (DESIGN §4.1). TYPES only: the contract
 * modules build zod schemas when loaded (~25 KB gzip), so the run-time lists and limits used here
 * are mirrored and checked against the contract (types at compile time, values in a test).
 */
import type { AdminUser, MfaFilter, RoleName, UserOrdering, UserSource } from '@qc/contracts';

export type {
  AdminUser,
  AdminUserList,
  UserCreate,
  UserUpdate,
  MfaFilter,
  UserOrdering,
  UserSource,
} from '@qc/contracts';
export type Role = RoleName;

type Covers<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : never;

export const USER_ORDERINGS = [
  'email',
  '-email',
  '-date_joined',
  'date_joined',
] as const satisfies readonly UserOrdering[];
const _orderings: Covers<UserOrdering, (typeof USER_ORDERINGS)[number]> = true;

export const MFA_FILTERS = ['enabled', 'disabled', 'required'] as const satisfies readonly MfaFilter[];
const _mfa: Covers<MfaFilter, (typeof MFA_FILTERS)[number]> = true;

/** Mirrors of @qc/contracts' profile limits (USERNAME_PATTERN, USERNAME_MAX, NAME_MAX). */
export const USERNAME_PATTERN = /^[\p{L}\p{N}@.+\-_]+$/u;
export const USERNAME_MAX = 150;
export const NAME_MAX = 150;
export const EMAIL_MAX = 254;
/** Mirror of ADDRESSES_MAX: the addresses one user may have (aliases included). */
export const ADDRESSES_MAX = 50;

/** Where an account comes from (mirror of USER_SOURCES): only `local` accounts are edited in the console. */
export const USER_SOURCES = ['local', 'ldap', 'oidc'] as const satisfies readonly UserSource[];
const _sources: Covers<UserSource, (typeof USER_SOURCES)[number]> = true;

/** True when the directory (LDAP) or the SSO provider sets the account's identity, addresses, role and password. */
export const isManagedElsewhere = (user: Pick<AdminUser, 'source'>) => user.source !== 'local';

/** The i18n key (admin:users.tags.*) of a user's two-factor state. */
export function mfaState(user: Pick<AdminUser, 'mfa_enabled' | 'mfa_required'>): 'enabled' | 'required' | 'disabled' {
  if (user.mfa_enabled) return 'enabled';
  return user.mfa_required ? 'required' : 'disabled';
}
