import { z } from 'zod';
import { ROLES } from './roles';

/** Every error answer of the API: `detail` is English, the client translates by `code`. */
export const ApiError = z.object({
  detail: z.string(),
  code: z.string(),
  errors: z.record(z.string(), z.string()).optional(),
});
export type ApiError = z.infer<typeof ApiError>;

export { ROLES, LIMITS, roleSatisfies, type RoleName } from './roles';
export const Role = z.enum(ROLES);
export type Role = z.infer<typeof Role>;
