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

const DECIMAL = /^[+-]?(\d{1,15}(\.\d*)?|\.\d+)$/;
/** Only for a value that is not a number at all; range and integer checks keep their own messages. */
const NOT_DECIMAL = {
  error: (issue: { input?: unknown }) => (typeof issue.input === 'number' ? undefined : 'Must be a decimal number.'),
};

/**
 * A query parameter read as a number when written in plain decimal; anything else stays a string,
 * which the number schema refuses by name. z.coerce.number() also took '0x10' (16), '1e3' and ' '
 * (0): values no form sends, read as something other than what was written.
 */
const decimalToNumber = (v: unknown) => (typeof v === 'string' && DECIMAL.test(v) ? Number(v) : emptyAsUndefined(v));

export const queryNumber = (integer: boolean) =>
  z.preprocess(decimalToNumber, integer ? z.number(NOT_DECIMAL).int() : z.number(NOT_DECIMAL));

/** `page_size` of every keyset list. */
export const PageSizeParam = z.preprocess(
  decimalToNumber,
  z.number(NOT_DECIMAL).int().min(1).max(LIMITS.maxPageSize).default(LIMITS.defaultPageSize),
);

/** `cursor` of every keyset list: the previous page's `next_cursor`. */
export const CursorParam = z.preprocess(emptyAsUndefined, z.string().max(200).optional());
