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

/** An API field message in the user's language when it is one of ours, as sent otherwise. */
function translateFieldMessage(message: string, t: TFunction, tEn: TFunction): string {
  for (const [key, values] of Object.entries(VALIDATION_MESSAGES)) {
    if (tEn(key, values) === message) return t(key, values);
  }
  return message;
}

/**
 * The notice of a failed POST /api/feedback/ (spec §8): 400 → the field messages joined; 413 → file
 * too large (5 MB); 429 → too many requests; another answer → the server's `detail`, else the
 * generic text; no answer or the 30 s timeout → "Could not contact the server…".
 */
export function feedbackErrorMessage(error: unknown, t: TFunction, tEn: TFunction): string {
  if (!isHTTPError(error)) {
    const { code } = readApiError(error);
    return code === 'network_error' || code === 'timeout' ? t('common:errors.network') : t('feedback.error');
  }
  const { status } = error.response;
  const data = (error.data ?? {}) as { detail?: unknown; errors?: unknown };
  if (status === 400 && data.errors && typeof data.errors === 'object') {
    const messages = Object.values(data.errors as Record<string, unknown>)
      .filter((m): m is string => typeof m === 'string' && m.length > 0)
      .map((m) => translateFieldMessage(m, t, tEn));
    if (messages.length) return [...new Set(messages)].join('; ');
  }
  if (status === 413) return t('feedback.validation.too_large', { size: MAX_FILE_MB });
  if (status === 429) return t('common:errors.rate_limited');
  return typeof data.detail === 'string' && data.detail.trim() ? data.detail : t('feedback.error');
}
