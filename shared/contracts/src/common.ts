import { z } from 'zod';
import { LIMITS, ROLES } from './roles';

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

/** An empty query parameter (`?status=`, a cleared form field) counts as absent, for every parameter alike. */
export const emptyAsUndefined = (v: unknown) => (v === '' ? undefined : v);

/**
 * A number in a query string, written in plain decimal. z.coerce.number() also took '0x10' (16),
 * '1e3' and ' ' (0): values no form sends, read as something other than what was written.
 */
export const queryNumber = (integer: boolean) =>
  integer
    ? z
        .string()
        .regex(/^[+-]?\d{1,15}$/, 'Must be a whole number.')
        .transform(Number)
    : z
        .string()
        .regex(/^[+-]?(\d{1,15}(\.\d*)?|\.\d+)$/, 'Must be a decimal number.')
        .transform(Number);

/** `page_size` of every keyset list. */
export const PageSizeParam = z.preprocess(
  emptyAsUndefined,
  queryNumber(true).pipe(z.number().min(1).max(LIMITS.maxPageSize)).default(LIMITS.defaultPageSize),
);

/** `cursor` of every keyset list: the previous page's `next_cursor`. */
export const CursorParam = z.preprocess(emptyAsUndefined, z.string().max(200).optional());
