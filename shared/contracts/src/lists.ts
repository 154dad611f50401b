import { z } from 'zod';
import { CursorParam, emptyAsUndefined, PageSizeParam } from './common';
import { RuleActor } from './rspamd';

/**
 * Whitelists and blacklists (DESIGN §4.1, issue 18). An entry names a sender, by address
 * (`jane@example.com`) or by domain (`@example.com`), and belongs to one owner:
 * - scope `user`: one account (its own list; a domain_admin or admin manages their users' lists),
 * - scope `domain`: every recipient of a domain (a domain_admin's own domain, or any for an admin),
 * - scope `global`: every recipient (admin only).
 * Rspamd reads them as a map (GET /api/rspamd/maps/lists.json) and haraka-plugin-qconsole applies
 * them per recipient: a blacklisted sender (envelope or From address) is quarantined for that
 * recipient only; a whitelisted one is delivered to them only when the address the entry names is
 * authenticated (SPF for the envelope sender, DMARC or an aligned DKIM signature for the From; issue
 * 29), and never when the message fails SPF or DMARC or carries a virus. For one recipient the most
 * specific owner wins (user over domain over global); a whitelist not applied passes it on.
 */
export const LIST_KINDS = ['whitelist', 'blacklist'] as const;
export const ListKind = z.enum(LIST_KINDS);
export type ListKind = z.infer<typeof ListKind>;

export const LIST_SCOPES = ['user', 'domain', 'global'] as const;
export const ListScope = z.enum(LIST_SCOPES);
export type ListScope = z.infer<typeof ListScope>;

/** Characters of an address (RFC 5321's path limit); local part ≤ 64 octets. */
export const LIST_LIMITS = { address: 254, localPart: 64 };

export const ListEntry = z.object({
  id: z.string(),
  kind: ListKind,
  scope: ListScope,
  /** As stored and served to Rspamd: lower case, the domain as IDNA A-label; `@domain` for a whole domain. */
  address: z.string(),
  /** The domain in Unicode when it is an IDN (for display), else null. */
  address_unicode: z.string().nullable(),
  /** The account of a `user` entry; null for the other scopes. */
  user: z.object({ id: z.string(), email: z.string() }).nullable(),
  /** The domain of a `domain` entry; null for the other scopes. */
  domain: z.object({ id: z.string(), name: z.string() }).nullable(),
  created_at: z.string(),
  created_by: RuleActor,
});
export type ListEntry = z.infer<typeof ListEntry>;

/**
 * GET /api/lists/ and DELETE /api/lists/ (clear): one owner's list of one kind. Without scope: the
 * caller's own (`user`). `user_id` reads a user's list (their domain_admin, an admin); `domain_id` a
 * domain's (its domain_admin: their own, may be left out; an admin: required). Beyond one's role: 403;
 * an unknown or other-domain user or domain: 404.
 */
export const ListQuery = z
  .object({
    kind: ListKind,
    scope: z.preprocess(emptyAsUndefined, ListScope.default('user')),
    user_id: z.preprocess(emptyAsUndefined, z.string().max(64).optional()),
    domain_id: z.preprocess(emptyAsUndefined, z.string().max(64).optional()),
    /** A part of the address, any case. */
    q: z.preprocess(emptyAsUndefined, z.string().trim().max(254).optional()),
    cursor: CursorParam,
    page_size: PageSizeParam,
  })
  .strict();
export type ListQuery = z.infer<typeof ListQuery>;

export const ListPage = z.object({
  results: z.array(ListEntry),
  next_cursor: z.string().nullable(),
  /** Entries of this owner and kind (the page and `q` aside). */
  total: z.number().int().nonnegative(),
});
export type ListPage = z.infer<typeof ListPage>;

/** DELETE /api/lists/ takes the owner part of ListQuery. */
export const ListClearQuery = z
  .object({
    kind: ListKind,
    scope: z.preprocess(emptyAsUndefined, ListScope.default('user')),
    user_id: z.preprocess(emptyAsUndefined, z.string().max(64).optional()),
    domain_id: z.preprocess(emptyAsUndefined, z.string().max(64).optional()),
  })
  .strict();
export type ListClearQuery = z.infer<typeof ListClearQuery>;
export const ListClearResponse = z.object({ deleted: z.number().int().nonnegative() });
export type ListClearResponse = z.infer<typeof ListClearResponse>;

/**
 * POST /api/lists/. `address`: an e-mail address or `@domain` (else 400 errors.address "Invalid
 * format"). The same address on the other list of the same owner: 409 `list_conflict`; already on
 * this list: 409 `list_exists`.
 */
export const ListCreate = z
  .object({
    kind: ListKind,
    // One message for every malformed address (spec §5), too long or empty included.
    address: z.string().trim().min(1, 'Invalid format').max(LIST_LIMITS.address, 'Invalid format'),
    scope: ListScope.optional(),
    user_id: z.string().max(64).optional(),
    domain_id: z.string().max(64).optional(),
  })
  .strict();
export type ListCreate = z.infer<typeof ListCreate>;

// Learning (spam/ham) and why a copy is held: read by the quarantine detail.

export const LEARN_AS = ['spam', 'ham'] as const;
export const LearnAs = z.enum(LEARN_AS);
export type LearnAs = z.infer<typeof LearnAs>;

/** What the console knows was learned from a message (kept so a second learn says so). */
export const LearnedState = z.object({
  as: LearnAs,
  at: z.string(),
  /**
   * The e-mail of who learned it, shown to that person, to admins and to the domain_admin of the
   * learner's domain; null for anyone else (who handled a shared mail is not theirs to know).
   */
  by: z.string().nullable(),
});
export type LearnedState = z.infer<typeof LearnedState>;

/**
 * Why the caller's copy of a quarantined message is held (detail only, computed from the stored
 * symbols and the recipients the caller sees), strongest first:
 * - `list`: a blacklist entry matched the recipient (`scope` and whose: `by_you` when it is the
 *   caller's own entry); `address` is '' when unknown (deleted since) or not the caller's to read
 *   (for a domain_admin, an entry on an admin's or another domain_admin's own list);
 * - `rule`: a console rule forced the action (the HeldByRule of the symbol);
 * - `score`: Rspamd's score reached the quarantine threshold (score and required_score);
 * - `verdict`: another verdict of Rspamd (its action), e.g. a module's forced action.
 */
export const HoldReason = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('list'),
    recipient: z.string(),
    scope: ListScope,
    address: z.string(),
    by_you: z.boolean(),
  }),
  z.object({ kind: z.literal('rule'), token: z.string(), label: z.string().nullable() }),
  z.object({ kind: z.literal('score'), score: z.number(), required_score: z.number().nullable() }),
  z.object({ kind: z.literal('verdict'), action: z.string() }),
]);
export type HoldReason = z.infer<typeof HoldReason>;
