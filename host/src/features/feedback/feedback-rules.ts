import { isHTTPError, readApiError } from '@qc/api-client';
import { LIMITS, type FeedbackType } from '@qc/contracts';
import type { TFunction } from 'i18next';

/** Spec §3 (the same list as the API's FEEDBACK_TYPES, which would bring zod along). */
export const FEEDBACK_TYPES: readonly FeedbackType[] = ['bug', 'suggestion', 'question', 'other'];

/** Spec §9: at most 3 files of 5 MB each; the message says "5 MB". */
export const MAX_FILES = LIMITS.feedbackMaxFiles;
export const MAX_FILE_BYTES = LIMITS.feedbackMaxFileBytes;
export const MAX_FILE_MB = MAX_FILE_BYTES / (1024 * 1024);
export const MESSAGE_MIN = LIMITS.feedbackMessageMin;
export const MESSAGE_MAX = 5000;
/** What the API accepts (by content): the picker offers only these. */
export const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** The validation messages and their values: the API sends the same English texts (spec §5). */
export const VALIDATION_MESSAGES: Record<string, Record<string, number>> = {
  'feedback.validation.type': {},
  'feedback.validation.message_required': {},
  'feedback.validation.message_too_short': { min: MESSAGE_MIN },
  'feedback.validation.message_too_long': { max: MESSAGE_MAX },
  'feedback.validation.email': {},
  'feedback.validation.not_image': {},
  'feedback.validation.too_many': { max: MAX_FILES },
  'feedback.validation.too_large': { size: MAX_FILE_MB },
  'feedback.validation.too_many_pixels': { mp: LIMITS.feedbackMaxMegapixels },
};

/**
 * An API field message in the user's language: the spec's texts (the API sends them in English) are
 * translated; any other is never shown as sent but replaced by the field's own message, else the
 * generic failure text.
 */
function translateFieldMessage(field: string, message: string, t: TFunction, tEn: TFunction): string {
  for (const [key, values] of Object.entries(VALIDATION_MESSAGES)) {
    if (tEn(key, values) === message) return t(key, values);
  }
  if (field === 'type') return t('feedback.validation.type');
  if (field === 'email') return t('feedback.validation.email');
  return t('feedback.error');
}

/**
 * The notice of a failed POST /api/feedback/ (spec §8): 400 → the field messages joined; 413 → file
 * too large (5 MB); 429 → too many requests; 502–504 → unavailable for now; another 5xx → the server error text; another answer → the
 * generic text (the server's English `detail` is never shown); no answer or the 30 s timeout →
 * "Could not contact the server…".
 */
export function feedbackErrorMessage(error: unknown, t: TFunction, tEn: TFunction): string {
  if (!isHTTPError(error)) {
    const { code } = readApiError(error);
    return code === 'network_error' || code === 'timeout' ? t('common:errors.network') : t('feedback.error');
  }
  const { status } = error.response;
  const data = (error.data ?? {}) as { errors?: unknown };
  if (status === 400 && data.errors && typeof data.errors === 'object') {
    const messages = Object.entries(data.errors as Record<string, unknown>)
      .filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].length > 0)
      .map(([field, m]) => translateFieldMessage(field, m, t, tEn));
    if (messages.length) return [...new Set(messages)].join('; ');
  }
  if (status === 413) return t('feedback.validation.too_large', { size: MAX_FILE_MB });
  if (status === 429) return t('common:errors.rate_limited');
  if (status >= 502 && status <= 504) return t('common:errors.unavailable');
  if (status >= 500) return t('common:errors.server');
  return t('feedback.error');
}
