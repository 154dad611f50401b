import { z } from 'zod';

/** Ids accepted per POST /api/quarantine/bulk/. */
export const BULK_MAX_IDS = 500;
export const BULK_ACTIONS = ['release', 'delete'] as const;
export type BulkAction = (typeof BULK_ACTIONS)[number];

/** POST /api/quarantine/bulk/: the same action on each id (a repeated id is acted on once). */
export const BulkRequest = z
  .object({
    ids: z.array(z.string().min(1).max(64)).min(1).max(BULK_MAX_IDS),
    action: z.enum(BULK_ACTIONS),
  })
  .strict();
export type BulkRequest = z.infer<typeof BulkRequest>;

/**
 * Outcome of one id, as the single-item route would have answered: released | partially_released
 * (the relay refused some recipients: they are release_failed) | deleted | failed with the error
 * `code` that route would have given (email_not_found for unknown or not yours, already_released,
 * release_in_progress, confirm_resend_required, email_deleted, raw_purged, relay_refused, …) |
 * releasing: not settled when the answer was due (QC_RELEASE_ANSWER_MS), its outcome lands in the
 * e-mail's status and the history.
 */
export const BULK_RESULT_STATUSES = ['released', 'partially_released', 'deleted', 'failed', 'releasing'] as const;
export const BulkItemResult = z.object({
  id: z.string(),
  status: z.enum(BULK_RESULT_STATUSES),
  code: z.string().optional(),
});
export type BulkItemResult = z.infer<typeof BulkItemResult>;

/** 200, one result per distinct id, in the order they were given. */
export const BulkResponse = z.object({ results: z.array(BulkItemResult) });
export type BulkResponse = z.infer<typeof BulkResponse>;
