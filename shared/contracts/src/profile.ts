import { z } from 'zod';
import { emailAddress } from './addresses';
import { LIMITS } from './common';
import { CurrentUser } from './users';

/** Django's username rule: 1–150 letters, digits and @ . + - _ */
export const USERNAME_PATTERN = /^[\p{L}\p{N}@.+\-_]+$/u;
export const USERNAME_MAX = 150;
export const NAME_MAX = 150;
export const EXTERNAL_USER_MESSAGE = 'External users can only change their first and last name.';

/**
 * PATCH /api/users/me/: every field optional; a new e-mail takes effect only once confirmed, and asking
 * for one needs the current password (a stolen access token alone cannot move the account).
 */
export const ProfileUpdate = z
  .object({
    username: z
      .string({ error: 'Username is required' })
      .min(1, 'Username is required')
      .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters long`)
      .regex(USERNAME_PATTERN, 'Username may contain only letters, digits and @/./+/-/_ characters')
      .optional(),
    email: emailAddress().optional(),
    first_name: z.string().trim().max(NAME_MAX, `At most ${NAME_MAX} characters`).optional(),
    last_name: z.string().trim().max(NAME_MAX, `At most ${NAME_MAX} characters`).optional(),
    current_password: z
      .string({ error: 'Current password is required' })
      .min(1, 'Current password is required')
      .max(LIMITS.passwordMax)
      .optional()
      .describe(
        'The account’s password: required when `email` differs from the current address (missing: 400 ' +
          'validation_error, wrong: 400 invalid_password, both with errors.current_password); ignored otherwise.',
      ),
  })
  .strict();
export type ProfileUpdate = z.infer<typeof ProfileUpdate>;

/** Answer of PATCH /api/users/me/ and of the e-mail confirmation: the user as GET /api/users/me/ gives it. */
export const ProfileResponse = CurrentUser;
export type ProfileResponse = CurrentUser;

/** POST /api/users/me/email/confirm/: the token from the link sent to the new address. */
export const EmailConfirmRequest = z.object({
  token: z.string({ error: 'The confirmation token is missing' }).min(1, 'The confirmation token is missing').max(256),
});
export type EmailConfirmRequest = z.infer<typeof EmailConfirmRequest>;

/** Front-end route the confirmation link opens (with `?token=`); it confirms by a POST. */
export const EMAIL_CONFIRM_PATH = '/profile/confirm-email';

/** POST /api/users/me/password/ → 204. A wrong current password is 400 (errors.current_password), never 401. */
export const PasswordChangeRequest = z
  .object({
    current_password: z
      .string({ error: 'Current password is required' })
      .min(1, 'Current password is required')
      .max(LIMITS.passwordMax),
    new_password: z
      .string({ error: 'New password is required' })
      .min(LIMITS.passwordMin, `Password must be at least ${LIMITS.passwordMin} characters long`)
      .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters long`),
  })
  .strict();
export type PasswordChangeRequest = z.infer<typeof PasswordChangeRequest>;
