import { z } from 'zod';
import { LearnAs, LearnedState, ListEntry } from './lists';
import { ReleaseDelivery } from './quarantine';

/** POST /api/quarantine/{id}/learn/ and /not-spam/ (DESIGN §4.1, issue 18). */
export const LearnRequest = z.object({ as: LearnAs }).strict();
export type LearnRequest = z.infer<typeof LearnRequest>;

/**
 * 200 once Rspamd's controller accepted it. `already`: this message was learned the same way before
 * (it is so now through the console, or the caller taught it this way before, or Rspamd answered
 * that it already learned it); nothing sent again for the console's own records. 502
 * `rspamd_unavailable` / `rspamd_refused` with Rspamd's answer otherwise: nothing recorded as
 * learned. 403 `learning_not_allowed` (QC_LEARN_ROLES), 409 `learn_in_progress` (the same learn of
 * the same user under way), 429 `rate_limited` (QC_BUDGET_LEARN, QC_BUDGET_LEARN_DAILY): nothing sent.
 */
export const LearnResponse = z.object({
  as: LearnAs,
  already: z.boolean(),
  /** Rspamd's answer, as it gave it (e.g. `{"success":true}`), or the console's note when not sent. */
  rspamd: z.string(),
  learned: LearnedState,
});
export type LearnResponse = z.infer<typeof LearnResponse>;

export const NOT_SPAM_ALLOW = ['me', 'domain'] as const;
export const NotSpamRequest = z.object({ allow_sender: z.enum(NOT_SPAM_ALLOW).nullable() }).strict();
export type NotSpamRequest = z.infer<typeof NotSpamRequest>;

/** One step of "Not spam": ok, or its error code and message (a failed step never stops the others). */
export const StepOutcome = z.object({
  ok: z.boolean(),
  /** Not attempted (e.g. allow_sender null); ok is then true. */
  skipped: z.boolean(),
  code: z.string().nullable(),
  message: z.string().nullable(),
  /** Seconds to wait before trying again when the step was refused with `rate_limited`; else null. */
  retry_after: z.number().int().positive().nullable(),
});
export type StepOutcome = z.infer<typeof StepOutcome>;

/**
 * 200 with each step's outcome: the release (and the relay's answer), the learn (ham; `already`
 * as for POST …/learn/, `learning_not_allowed` when the caller's role may not learn), the whitelist
 * entry (`list_exists` counts as ok), and the other pending mails from the same sender the caller may
 * see (their ids, newest first, at most 200), for "N other quarantined mails from this sender:
 * release them too?".
 */
export const NotSpamResponse = z.object({
  /** ok with code `release_in_progress` (delivery null): the relay had not answered within QC_RELEASE_ANSWER_MS. */
  release: StepOutcome.extend({ delivery: ReleaseDelivery.nullable() }),
  learn: StepOutcome.extend({ already: z.boolean() }),
  whitelist: StepOutcome.extend({ entry: ListEntry.nullable() }),
  others: z.object({ sender: z.string(), count: z.number().int().nonnegative(), ids: z.array(z.string()) }),
});
export type NotSpamResponse = z.infer<typeof NotSpamResponse>;
