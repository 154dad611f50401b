import { z } from 'zod';
import { CursorParam, LIMITS, PageSizeParam } from './common';

export const FEEDBACK_TYPES = ['bug', 'suggestion', 'question', 'other'] as const;
export const FeedbackType = z.enum(FEEDBACK_TYPES, { error: 'Please select a feedback type' });
export type FeedbackType = z.infer<typeof FeedbackType>;

export const FEEDBACK_MESSAGE_MAX = 5000;
/** Multipart file fields: image0, image1, image2. */
export const FEEDBACK_IMAGE_FIELDS = Array.from({ length: LIMITS.feedbackMaxFiles }, (_, i) => `image${i}`);
/** Accepted by content (magic bytes), whatever the declared type or file name. */
export const FEEDBACK_IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;

/** Spec §5/§8 texts, the same on both sides. */
export const FEEDBACK_MESSAGES = {
  type: 'Please select a feedback type',
  messageRequired: 'Please enter a message',
  messageTooShort: `Message must be at least ${LIMITS.feedbackMessageMin} characters long`,
  messageTooLong: `Message must be at most ${FEEDBACK_MESSAGE_MAX} characters long`,
  email: 'Invalid email format',
  notAnImage: 'Please upload only image files',
  tooManyFiles: `Please upload at most ${LIMITS.feedbackMaxFiles} images`,
  fileTooLarge: `Each image must be at most ${LIMITS.feedbackMaxFileBytes / (1024 * 1024)} MB`,
  tooManyPixels: `Each image must be at most ${LIMITS.feedbackMaxMegapixels} megapixels`,
  thanks: 'Thank you for your feedback!',
} as const;

const isEmail = (v: string) => z.email().safeParse(v).success;

/** The text fields of POST /api/feedback/ (multipart form: these plus image0..image2 files). */
export const FeedbackFields = z.object({
  type: FeedbackType,
  message: z
    .string({ error: FEEDBACK_MESSAGES.messageRequired })
    .trim()
    .min(1, FEEDBACK_MESSAGES.messageRequired)
    .min(LIMITS.feedbackMessageMin, FEEDBACK_MESSAGES.messageTooShort)
    .max(FEEDBACK_MESSAGE_MAX, FEEDBACK_MESSAGES.messageTooLong),
  /** Optional; an empty string counts as absent. */
  email: z
    .string()
    .trim()
    .max(254, FEEDBACK_MESSAGES.email)
    .refine((v) => v === '' || isEmail(v), FEEDBACK_MESSAGES.email)
    .optional(),
});
export type FeedbackFields = z.infer<typeof FeedbackFields>;

/** 201 answer of POST /api/feedback/. */
export const FeedbackCreated = z.object({ message: z.string() });
export type FeedbackCreated = z.infer<typeof FeedbackCreated>;

export const FeedbackImage = z.object({
  id: z.string(),
  mime: z.enum(FEEDBACK_IMAGE_TYPES),
  size: z.number().int().nonnegative(),
  /** Same-origin path of the bytes (admin only; download with the Authorization header). */
  url: z.string(),
});
export type FeedbackImage = z.infer<typeof FeedbackImage>;

export const FeedbackUser = z.object({ id: z.string(), email: z.string(), username: z.string() });
export type FeedbackUser = z.infer<typeof FeedbackUser>;

export const FeedbackItem = z.object({
  id: z.string(),
  type: FeedbackType,
  message: z.string(),
  email: z.string().nullable(),
  /** null once the author's account was deleted. */
  user: FeedbackUser.nullable(),
  created_at: z.string(),
  images: z.array(FeedbackImage),
});
export type FeedbackItem = z.infer<typeof FeedbackItem>;

/** GET /api/feedback/ (admin): newest first; pass `next_cursor` back as `?cursor=` for the next page. */
export const FeedbackList = z.object({ results: z.array(FeedbackItem), next_cursor: z.string().nullable() });
export type FeedbackList = z.infer<typeof FeedbackList>;

export const FeedbackListQuery = z.object({
  cursor: CursorParam,
  page_size: PageSizeParam,
});
export type FeedbackListQuery = z.infer<typeof FeedbackListQuery>;
