import type { TFunction } from 'i18next';

/** Codes of a refused release / delete / download that have a text of their own under `email.act`. */
const ACT_CODES = [
  'already_released',
  'email_deleted',
  'raw_purged',
  'release_in_progress',
  'release_unknown',
  'relay_refused',
  'relay_unreachable',
  'relay_not_configured',
  'invalid_envelope',
] as const;

/**
 * Why an action on one e-mail failed, in words, from the api's code (a bulk result's or a history
 * entry's): the single-item texts of the detail page; an unknown code gives "Unknown error" and what
 * to do, never the code itself (it means nothing to the user).
 */
export function failureReason(t: TFunction<'mail'>, code: string | null | undefined): string {
  if (!code) return t('quarantine.bulk.unknown_reason');
  if (code === 'email_not_found') return t('email.not_found');
  if (code === 'confirm_resend_required') return t('email.act.release_unknown');
  if ((ACT_CODES as readonly string[]).includes(code)) return t(`email.act.${code as (typeof ACT_CODES)[number]}`);
  return t('quarantine.bulk.unknown_reason_retry');
}
