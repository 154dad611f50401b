import { z } from 'zod';
import { CursorParam, emptyAsUndefined, PageSizeParam, Role } from './common';
import { DateFilter, optionalText, refuseReversedBounds } from './quarantine';

/** What the history (audit trail) records about quarantined mail: every download, release, delete and learn (issue 18). */
export const HISTORY_MAIL_ACTIONS = ['download', 'release', 'delete', 'learn_spam', 'learn_ham'] as const;
export type HistoryMailAction = (typeof HISTORY_MAIL_ACTIONS)[number];
/** Administration (issue 16): every change made through /api/users/ and /api/domains/, with its actor. */
export const ADMIN_ACTIONS = [
  'user_create',
  'user_update',
  'user_delete',
  'mfa_reset',
  'domain_create',
  'domain_update',
  'domain_delete',
  // Issue 17: Rspamd filters, control-panel filters and system rules (target kind says which).
  'filter_create',
  'filter_update',
  'filter_delete',
] as const;
/**
 * Whitelist and blacklist changes (issue 18), target kind `list_entry` (label `whitelist
 * jane@example.com`) or `list` for a clear (label `blacklist of user jane@corp.example`): read by
 * the actor, admins, and the domain_admin of the list owner's domain.
 */
export const LIST_ACTIONS = ['list_add', 'list_remove', 'list_clear'] as const;
/** Security events of an account (also structured log lines): read by admins and the account's domain_admin. */
export const SECURITY_ACTIONS = [
  'login_failed',
  'account_locked',
  'refresh_reuse',
  'totp_replay',
  'mfa_enabled',
  'mfa_disabled',
  'password_changed',
] as const;
export const HISTORY_ACTIONS = [
  ...HISTORY_MAIL_ACTIONS,
  ...ADMIN_ACTIONS,
  ...LIST_ACTIONS,
  ...SECURITY_ACTIONS,
] as const;
/** The `category` filter of the history: one of these groups of actions. */
export const HISTORY_CATEGORIES = {
  mail: HISTORY_MAIL_ACTIONS,
  administration: ADMIN_ACTIONS,
  lists: LIST_ACTIONS,
  security: SECURITY_ACTIONS,
};
export const HistoryCategory = z.enum(['mail', 'administration', 'lists', 'security']);
export type HistoryCategory = z.infer<typeof HistoryCategory>;
export const HistoryAction = z.enum(HISTORY_ACTIONS);
export type HistoryAction = z.infer<typeof HistoryAction>;

/** What an administration row is about: a user, a domain, or an Rspamd rule of one of the three kinds. */
export const HISTORY_TARGET_KINDS = [
  'user',
  'domain',
  'filter',
  'apanel_filter',
  'system_rule',
  'list_entry',
  'list',
  /** A release to another address (issue 23): label "recipients → address". */
  'release_to',
] as const;
export const HistoryTargetKind = z.enum(HISTORY_TARGET_KINDS);
export type HistoryTargetKind = z.infer<typeof HistoryTargetKind>;

export const HistoryEntry = z.object({
  id: z.string(),
  date: z.string(),
  /** Who acted: id (null once the account is deleted) and e-mail and role as they were then. */
  user: z.object({ id: z.string().nullable(), email: z.string(), role: Role }),
  action: HistoryAction,
  /** The quarantined e-mail of a mail action; null for the other actions. */
  email_id: z.string().nullable(),
  /**
   * What an administration or security action was about: a user or a domain, its id (null on the
   * row of its deletion, or when it was not created; rows are never rewritten, so an older row's id
   * may name a user or domain deleted since) and its e-mail or name as it was then. Null for mail
   * actions.
   */
  target: z.object({ kind: HistoryTargetKind, id: z.string().nullable(), label: z.string() }).nullable(),
  /** Names of the fields an update changed (never their values: no secret reaches the trail). */
  changes: z.array(z.string()).nullable(),
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
 * GET /api/history/: newest first. `user` is a user id, or part of the actor's e-mail
 * (case-insensitive substring).
 * A user sees their own actions and those on their mail, a domain_admin those of their domain's
 * users and on their domain's mail, an admin all.
 */
export const HistoryListQuery = z
  .object({
    action: z.preprocess(emptyAsUndefined, HistoryAction.optional()),
    category: z.preprocess(emptyAsUndefined, HistoryCategory.optional()),
    user: optionalText(320),
    date_from: DateFilter,
    date_to: DateFilter,
    cursor: CursorParam,
    page_size: PageSizeParam,
  })
  .superRefine(refuseReversedBounds);
export type HistoryListQuery = z.infer<typeof HistoryListQuery>;

/** GET /api/history/export/: the list's filters, every page (no cursor, no page size). */
export const HistoryExportQuery = z
  .object({
    action: z.preprocess(emptyAsUndefined, HistoryAction.optional()),
    category: z.preprocess(emptyAsUndefined, HistoryCategory.optional()),
    user: optionalText(320),
    date_from: DateFilter,
    date_to: DateFilter,
  })
  .superRefine(refuseReversedBounds);
export type HistoryExportQuery = z.infer<typeof HistoryExportQuery>;
