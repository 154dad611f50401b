import { z } from 'zod';

/** Every error answer of the API: `detail` is English, the client translates by `code`. */
export const ApiError = z.object({
  detail: z.string(),
  code: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof ApiError>;

export const ROLES = ['admin', 'domain_admin', 'user'] as const;
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;

/** Spec §6: admin passes any requirement, domain_admin passes domain_admin and user. */
export function roleSatisfies(actual: Role | null | undefined, required: Role): boolean {
  const role = actual ?? 'user';
  if (role === 'admin') return true;
  if (role === 'domain_admin') return required === 'domain_admin' || required === 'user';
  return required === 'user';
}

/** Business limits of spec §9, used by the api and the forms alike. */
export const LIMITS = {
  passwordMin: 8,
  totpLength: 6,
  feedbackMessageMin: 10,
  feedbackMaxFiles: 3,
  feedbackMaxFileBytes: 5 * 1024 * 1024,
  feedbackTimeoutMs: 30_000,
  defaultPageSize: 50,
  maxPageSize: 200,
} as const;
