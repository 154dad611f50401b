import { z } from 'zod';
import { Role } from './common';

/** Where an account comes from: made in the console, or provisioned by the directory or the SSO provider. */
export const USER_SOURCES = ['local', 'ldap', 'oidc'] as const;
export const UserSource = z.enum(USER_SOURCES);
export type UserSource = z.infer<typeof UserSource>;

export const DomainRef = z.object({ id: z.string(), name: z.string() });
export type DomainRef = z.infer<typeof DomainRef>;

/** GET /api/users/me/ (DESIGN §4). */
export const CurrentUser = z.object({
  id: z.string(),
  username: z.string(),
  email: z.string(),
  first_name: z.string(),
  last_name: z.string(),
  role: Role,
  domain: DomainRef.nullable(),
  is_external: z.boolean(),
  source: UserSource,
  /** Every address whose mail is theirs, the primary (`email`) first. */
  addresses: z.array(z.string()),
  mfa_enabled: z.boolean(),
  date_joined: z.string(),
  /** A new address a confirmation link was sent to (not in effect yet); null when none is pending. */
  pending_email: z.string().nullable(),
});
export type CurrentUser = z.infer<typeof CurrentUser>;
