import { z } from 'zod';
import { CursorParam, emptyAsUndefined, PageSizeParam, Role } from './common';
import { DateFilter, optionalText, refuseReversedBounds } from './quarantine';

/** What the history (audit trail) records: every download, release and delete of a quarantined e-mail. */
export const HISTORY_ACTIONS = ['download', 'release', 'delete'] as const;
export const HistoryAction = z.enum(HISTORY_ACTIONS);
export type HistoryAction = z.infer<typeof HistoryAction>;

export const HistoryEntry = z.object({
  id: z.string(),
  date: z.string(),
  /** Who acted: id (null once the account is deleted) and e-mail and role as they were then. */
  user: z.object({ id: z.string().nullable(), email: z.string(), role: Role }),
  action: HistoryAction,
  email_id: z.string(),
  /**
   * The e-mail as the caller may see it (its subject: null when it has none), or null when they
   * may not (an attempt on someone else's mail is recorded, but its subject is not theirs to read).
   */
  email: z.object({ subject: z.string().nullable() }).nullable(),
  /** Where the action came from: null unless the caller is an admin, its actor or the actor's domain_admin. */
  ip_address: z.string().nullable(),
  result: z.enum(['success', 'failure']),
  /** The error code of a failure (e.g. relay_refused, email_not_found); null on success. */
  code: z.string().nullable(),
});
export type HistoryEntry = z.infer<typeof HistoryEntry>;

export const HistoryList = z.object({ results: z.array(HistoryEntry), next_cursor: z.string().nullable() });
export type HistoryList = z.infer<typeof HistoryList>;

/**
 * GET /api/history/: newest first. `user` is an e-mail (exact, case-insensitive) or a user id.
 * A user sees their own actions and those on their mail, a domain_admin those of their domain's
 * users and on their domain's mail, an admin all.
 */
export const HistoryListQuery = z
  .object({
    action: z.preprocess(emptyAsUndefined, HistoryAction.optional()),
    user: optionalText(320),
    date_from: DateFilter,
    date_to: DateFilter,
    cursor: CursorParam,
    page_size: PageSizeParam,
  })
  .superRefine(refuseReversedBounds);
export type HistoryListQuery = z.infer<typeof HistoryListQuery>;
