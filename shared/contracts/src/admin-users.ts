import { z } from 'zod';
import { emailAddress } from './addresses';
import { CursorParam, emptyAsUndefined, LIMITS, PageSizeParam, Role } from './common';
import { NAME_MAX, USERNAME_MAX, USERNAME_PATTERN } from './profile';
import { CurrentUser } from './users';

/**
 * User administration (DESIGN §4.1, issue 16). An admin manages everyone; a domain_admin only the
 * `user`s of their own domain (never their role or domain, never an admin or another domain_admin);
 * a user gets 403. Outside the caller's scope a user is 404.
 */

/** An item of GET /api/users/ and the answer of GET/POST/PATCH /api/users/{id}/. */
export const AdminUser = CurrentUser.extend({
  is_active: z.boolean(),
  /** ISO date of the last sign-in that issued tokens; null: never signed in. */
  last_login: z.string().nullable(),
  /** Two-factor must be set up at the next sign-in (admin's choice or QC_MFA_REQUIRED_ROLES). */
  mfa_required: z.boolean(),
  /** Created without a password: the invitation sent to them has not been accepted yet. */
  invitation_pending: z.boolean(),
});
export type AdminUser = z.infer<typeof AdminUser>;

export const AdminUserList = z.object({ results: z.array(AdminUser), next_cursor: z.string().nullable() });
export type AdminUserList = z.infer<typeof AdminUserList>;

export const USER_ORDERINGS = ['email', '-email', 'date_joined', '-date_joined'] as const;
export const UserOrdering = z.enum(USER_ORDERINGS);
export type UserOrdering = z.infer<typeof UserOrdering>;

/** `mfa` filter: two-factor on, off, or required and not set up yet. */
export const MFA_FILTERS = ['enabled', 'disabled', 'required'] as const;
export const MfaFilter = z.enum(MFA_FILTERS);
export type MfaFilter = z.infer<typeof MfaFilter>;

const queryBool = z.preprocess(
  (v) => (v === 'true' ? true : v === 'false' ? false : emptyAsUndefined(v)),
  z.boolean({ error: 'Must be true or false.' }).optional(),
);

/**
 * GET /api/users/: `q` matches the start of the e-mail, the username, the first or the last name
 * (case-insensitive); `domain` is a domain id. Keyset pages in `ordering` order (default e-mail).
 */
export const UserListQuery = z
  .object({
    q: z.preprocess(emptyAsUndefined, z.string().trim().max(254).optional()),
    role: z.preprocess(emptyAsUndefined, Role.optional()),
    domain: z.preprocess(emptyAsUndefined, z.string().max(64).optional()),
    is_active: queryBool,
    mfa: z.preprocess(emptyAsUndefined, MfaFilter.optional()),
    ordering: z.preprocess(emptyAsUndefined, UserOrdering.default('email')),
    cursor: CursorParam,
    page_size: PageSizeParam,
  })
  .strict();
export type UserListQuery = z.infer<typeof UserListQuery>;

const Username = z
  .string({ error: 'Username is required' })
  .trim()
  .min(1, 'Username is required')
  .max(USERNAME_MAX, `Username must be at most ${USERNAME_MAX} characters long`)
  .regex(USERNAME_PATTERN, 'Username may contain only letters, digits and @/./+/-/_ characters');
// U-label or A-label domain in, the stored form (A-label, lower case) out; local part ≤ 64 octets.
const Email = emailAddress();
/** Addresses one user may have (aliases and shared mailboxes included). */
export const ADDRESSES_MAX = 50;
const PersonName = z.string().trim().max(NAME_MAX, `At most ${NAME_MAX} characters`);
const NewPassword = z
  .string()
  .min(LIMITS.passwordMin, `Password must be at least ${LIMITS.passwordMin} characters long`)
  .max(LIMITS.passwordMax, `Password must be at most ${LIMITS.passwordMax} characters long`);

/**
 * POST /api/users/: without `password` the user gets an invitation e-mail (a signed, single-use,
 * expiring link whose page sets the password by a POST). A domain_admin may leave `domain_id` out
 * (theirs) and creates only `user`s.
 */
export const UserCreate = z
  .object({
    email: Email,
    username: Username.optional(),
    first_name: PersonName.optional(),
    last_name: PersonName.optional(),
    role: Role,
    domain_id: z.string().max(64).nullable().optional(),
    is_external: z.boolean().optional(),
    password: NewPassword.optional(),
    mfa_required: z.boolean().optional(),
  })
  .strict();
export type UserCreate = z.infer<typeof UserCreate>;

/**
 * PATCH /api/users/{id}/: any of these. A change of role, domain, password, MFA requirement or a
 * deactivation ends the user's sessions at once. External users keep their username and e-mail.
 */
export const UserUpdate = z
  .object({
    email: Email.optional(),
    username: Username.optional(),
    first_name: PersonName.optional(),
    last_name: PersonName.optional(),
    role: Role.optional(),
    domain_id: z.string().max(64).nullable().optional(),
    is_external: z.boolean().optional(),
    /**
     * Every address of a local user, the primary first (it becomes the e-mail); each in a console
     * domain (a domain_admin: theirs), one owner per address (409 address_taken).
     */
    addresses: z
      .array(Email)
      .min(1, 'At least one address')
      .max(ADDRESSES_MAX, `At most ${ADDRESSES_MAX} addresses`)
      .optional(),
    is_active: z.boolean().optional(),
    mfa_required: z.boolean().optional(),
    password: NewPassword.optional(),
  })
  .strict();
export type UserUpdate = z.infer<typeof UserUpdate>;

/** Front-end route an invitation link opens (`?token=`); the page sets the password by a POST. */
export const INVITATION_PATH = '/invitation';

/** POST /api/auth/invitation/: sets the invited user's password (204); the link is then spent. */
export const InvitationAcceptRequest = z
  .object({
    token: z.string({ error: 'The invitation token is missing' }).min(1, 'The invitation token is missing').max(256),
    password: NewPassword,
  })
  .strict();
export type InvitationAcceptRequest = z.infer<typeof InvitationAcceptRequest>;
