/**
 * Admin → Directory (issue 31): types from @qc/contracts (types only, like users.types.ts); the
 * lists the page switches on are mirrored here and checked against the contract by a test.
 */
import type { DirectoryTestResult } from '@qc/contracts';

export type { DirectorySettings, DirectoryTestAddress, DirectoryTestRequest, DirectoryTestResult } from '@qc/contracts';

type Covers<All, Listed> = [Exclude<All, Listed>] extends [never] ? true : never;

export type DirectoryOutcome = DirectoryTestResult['outcome'];
export type DirectoryRefusal = NonNullable<DirectoryTestResult['refusal']>;
export type DirectoryAddressReason = NonNullable<DirectoryTestResult['addresses'][number]['reason']>;

export const DIRECTORY_TEST_OUTCOMES = [
  'create',
  'update',
  'refused',
  'not_found',
] as const satisfies readonly DirectoryOutcome[];
const _outcomes: Covers<DirectoryOutcome, (typeof DIRECTORY_TEST_OUTCOMES)[number]> = true;

export const DIRECTORY_REFUSALS = [
  'directory_no_domain',
  'directory_address_conflict',
  'account_disabled',
] as const satisfies readonly DirectoryRefusal[];
const _refusals: Covers<DirectoryRefusal, (typeof DIRECTORY_REFUSALS)[number]> = true;

export const DIRECTORY_ADDRESS_REASONS = [
  'outside_domains',
  'taken',
] as const satisfies readonly DirectoryAddressReason[];
const _reasons: Covers<DirectoryAddressReason, (typeof DIRECTORY_ADDRESS_REASONS)[number]> = true;

/** The environment variables of directory sign-in, as the empty state lists them (README "Directory sign-in"). */
export const DIRECTORY_VARIABLES = [
  'QC_LDAP_URL',
  'QC_LDAP_BIND_DN',
  'QC_LDAP_BIND_PASSWORD',
  'QC_LDAP_USER_BASE',
  'QC_LDAP_USER_FILTER',
] as const;
