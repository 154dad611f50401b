// Plain values with no zod: the front end imports these on /login, where zod's schemas
// (built at module load) would cost ~25 KB gzip. The package is side-effect free, so
// importing from '@qc/contracts' tree-shakes down to this file.
export const ROLES = ['admin', 'domain_admin', 'user'] as const;
export type RoleName = (typeof ROLES)[number];

/** Spec §6: admin passes any requirement, domain_admin passes domain_admin and user. */
export function roleSatisfies(actual: RoleName | null | undefined, required: RoleName): boolean {
  const role = actual ?? 'user';
  if (role === 'admin') return true;
  if (role === 'domain_admin') return required === 'domain_admin' || required === 'user';
  return required === 'user';
}

/** Business limits of spec §9, used by the api and the forms alike. */
export const LIMITS = {
  passwordMin: 8,
  /** Longer passwords are refused before hashing (argon2 would take them all). */
  passwordMax: 1024,
  totpLength: 6,
  feedbackMessageMin: 10,
  feedbackMaxFiles: 3,
  feedbackMaxFileBytes: 5 * 1024 * 1024,
  /** Width × height: a small file can declare a huge canvas, which the admin's browser would decode. */
  feedbackMaxMegapixels: 40,
  feedbackTimeoutMs: 30_000,
  defaultPageSize: 50,
  maxPageSize: 200,
} as const;
