import { z } from 'zod';
import { emailAddress } from './addresses';
import { Role } from './common';

/**
 * Admin → Directory (issue 31): the LDAP / Active Directory settings in force (QC_LDAP_*, secrets
 * never shown) and a test that looks one person up and says what the console would make of them,
 * without creating or changing anything.
 */
export const DirectorySettings = z.object({
  enabled: z.boolean(),
  url: z.string().nullable(),
  starttls: z.boolean(),
  ca_file: z.string().nullable(),
  bind_dn: z.string().nullable(),
  bind_password_set: z.boolean(),
  user_base: z.string().nullable(),
  user_filter: z.string().nullable(),
  alias_attrs: z.array(z.string()),
  group_base: z.string().nullable(),
  admin_group: z.string().nullable(),
  domain_admin_group: z.string().nullable(),
  timeout_ms: z.number(),
  pool_size: z.number(),
});
export type DirectorySettings = z.infer<typeof DirectorySettings>;

/** POST /api/admin/directory/test/: the login as a person would type it on the sign-in page. */
export const DirectoryTestRequest = z.object({ login: emailAddress() }).strict();
export type DirectoryTestRequest = z.infer<typeof DirectoryTestRequest>;

export const DIRECTORY_ADDRESS_REASONS = ['outside_domains', 'taken'] as const;

export const DirectoryTestAddress = z.object({
  address: z.string(),
  kept: z.boolean(),
  /** Why an address is not kept: not in a console domain, or another account owns it (`owner`). */
  reason: z.enum(DIRECTORY_ADDRESS_REASONS).nullable(),
  owner: z.string().nullable(),
});
export type DirectoryTestAddress = z.infer<typeof DirectoryTestAddress>;

export const DIRECTORY_TEST_OUTCOMES = ['create', 'update', 'refused', 'not_found'] as const;
export const DIRECTORY_REFUSALS = ['directory_no_domain', 'directory_address_conflict', 'account_disabled'] as const;

export const DirectoryTestResult = z.object({
  outcome: z.enum(DIRECTORY_TEST_OUTCOMES),
  refusal: z.enum(DIRECTORY_REFUSALS).nullable(),
  dn: z.string().nullable(),
  primary: z.string().nullable(),
  addresses: z.array(DirectoryTestAddress),
  groups: z.array(z.string()),
  role: Role.nullable(),
  domain: z.string().nullable(),
  disabled: z.boolean(),
  /** The console account it would update (outcome `update`). */
  user_id: z.string().nullable(),
});
export type DirectoryTestResult = z.infer<typeof DirectoryTestResult>;
