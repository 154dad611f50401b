import { errorMessageKey, readApiError } from '@qc/api-client';
import { LIMITS, localPartOctets, normaliseAddress } from '@qc/contracts';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { EMAIL_MAX, NAME_MAX, USERNAME_MAX, USERNAME_PATTERN } from './users.types';

/**
 * Spec §5 validation of the user and domain forms, checked before the request (the API checks the
 * same again), and the API's own refusals put back on the fields they name.
 */

/** zod's e-mail pattern (the API validates with z.email()): what passes here passes there. */
export const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/;

/**
 * The API's e-mail check on what it stores: an IDN domain is taken in either form (checked as its
 * A-label, as stored), the local part at most 64 octets.
 */
export function isValidEmail(raw: string): boolean {
  const email = normaliseAddress(raw);
  return email.length <= EMAIL_MAX && localPartOctets(email) <= 64 && EMAIL_PATTERN.test(email);
}

type T = TFunction<'admin'>;

/** The fields of both user forms (new user, user page) the API may refuse by name. */
export const USER_FORM_FIELDS = [
  'email',
  'username',
  'first_name',
  'last_name',
  'role',
  'domain_id',
  'password',
] as const;

/** The roles an admin may give, the least powerful first. */
export const roleOptions = (t: T) =>
  (['user', 'domain_admin', 'admin'] as const).map((r) => ({ value: r, label: t(`roles.${r}`, { ns: 'common' }) }));

export const emailRules = (t: T): Rule[] => [
  { required: true, whitespace: true, message: t('form.errors.email_required') },
  {
    validator: (_, v: string | undefined) =>
      !v?.trim() || isValidEmail(v) ? Promise.resolve() : Promise.reject(new Error(t('form.errors.email_invalid'))),
  },
];

export const usernameRules = (t: T, required = false): Rule[] => [
  ...(required ? [{ required: true, whitespace: true, message: t('form.errors.username_invalid') }] : []),
  { max: USERNAME_MAX, message: t('form.errors.too_long', { max: USERNAME_MAX }) },
  {
    validator: (_, v: string | undefined) =>
      !v?.trim() || USERNAME_PATTERN.test(v.trim())
        ? Promise.resolve()
        : Promise.reject(new Error(t('form.errors.username_invalid'))),
  },
];

export const nameRules = (t: T): Rule[] => [{ max: NAME_MAX, message: t('form.errors.too_long', { max: NAME_MAX }) }];

/** A new password: `required` for "set a password", optional (empty = unchanged) on the detail. */
export const passwordRules = (t: T, required: boolean): Rule[] => [
  ...(required ? [{ required: true, message: t('form.errors.password_required') }] : []),
  { min: LIMITS.passwordMin, message: t('form.errors.password_min', { min: LIMITS.passwordMin }) },
  { max: LIMITS.passwordMax, message: t('form.errors.too_long', { max: LIMITS.passwordMax }) },
];

/** The confirmation must match the field `of` (required once that one is filled in). */
export const confirmRules = (t: T, of: string): Rule[] => [
  ({ getFieldValue }) => ({
    validator: (_, v: string | undefined) => {
      const password = (getFieldValue(of) as string | undefined) ?? '';
      if (!password && !v) return Promise.resolve();
      if (!v) return Promise.reject(new Error(t('form.errors.password_confirm_required')));
      return v === password ? Promise.resolve() : Promise.reject(new Error(t('form.errors.passwords_mismatch')));
    },
  }),
];

/** A domain_admin must have a domain (the form's `role` field decides). */
export const domainRules = (t: T): Rule[] => [
  ({ getFieldValue }) => ({
    validator: (_, v: string | null | undefined) =>
      getFieldValue('role') === 'domain_admin' && !v
        ? Promise.reject(new Error(t('form.errors.domain_required')))
        : Promise.resolve(),
  }),
];

/** API codes with a text of their own in `admin:errors` (else the status decides: common errors.*). */
const EXPLAINED_CODES = [
  'email_taken',
  'username_taken',
  'domain_taken',
  'cannot_change_self',
  'last_admin',
  'domain_has_users',
  'validation_error',
  'email_send_failed',
  'invitation_not_pending',
  // Directory sign-in and several addresses per user (issue 31)
  'address_taken',
  'directory_managed',
  'directory_unavailable',
  'directory_not_configured',
  'directory_no_domain',
  'directory_address_conflict',
];

/** The field a conflict code is about, when the API leaves `errors` out. */
const CODE_FIELDS: Record<string, string> = { email_taken: 'email', username_taken: 'username', domain_taken: 'name' };

/** The translated text of a failed call: by the API's `code` where known, else by its status. */
export function adminErrorText(error: unknown, t: T): string {
  const { code } = readApiError(error);
  return EXPLAINED_CODES.includes(code) ? t(`errors.${code}`) : t(errorMessageKey(error), { ns: 'common' });
}

export interface FormErrorOutcome<F extends string = string> {
  /** For form.setFields(): the fields the API refused, each with its translated message. */
  fields: { name: F; errors: string[] }[];
  /** What to say above the form (null when the fields say it all). */
  message: string | null;
}

/**
 * The API's refusal of a form (400/409 with `errors`, or a conflict code) as messages on the
 * form's own fields; anything not about a field shown (`fields`) is said above the form.
 */
export function formErrorsOf<F extends string>(error: unknown, t: T, shown: readonly F[]): FormErrorOutcome<F> {
  const info = readApiError(error);
  const isShown = (field: string | undefined): field is F =>
    field !== undefined && (shown as readonly string[]).includes(field);
  const byField = new Map<F, string>();
  const codeField = CODE_FIELDS[info.code];
  if (isShown(codeField)) byField.set(codeField, t(`errors.${info.code}`));
  let unplaced = false;
  // A directory user's field (e-mail, role…) is the directory's: said as such, not "refused".
  const managed = info.code === 'directory_managed';
  for (const field of Object.keys(info.errors ?? {})) {
    if (isShown(field)) {
      if (!byField.has(field))
        byField.set(
          field,
          managed
            ? t('errors.directory_managed')
            : t(`errors.fields.${field}`, { defaultValue: t('errors.fields.other') }),
        );
    } else unplaced = true;
  }
  const fields = [...byField].map(([name, message]) => ({ name, errors: [message] }));
  const message = fields.length && !unplaced ? null : adminErrorText(error, t);
  return { fields, message };
}
