import type { z } from 'zod';
import { HttpError } from './http-error';

/** Zod issues → DESIGN §4's `errors` map (first message per field; dotted paths). */
export function issuesToErrors(
  issues: readonly z.core.$ZodIssue[],
  rootName = 'non_field_errors',
): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const issue of issues) {
    const key = issue.path.length ? issue.path.map(String).join('.') : rootName;
    errors[key] ??= issue.message;
  }
  return errors;
}

export function parseOrThrow<T extends z.ZodType>(schema: T, input: unknown): z.output<T> {
  const result = schema.safeParse(input);
  if (!result.success) {
    throw new HttpError(400, 'validation_error', 'The request is not valid.', issuesToErrors(result.error.issues));
  }
  return result.data;
}
