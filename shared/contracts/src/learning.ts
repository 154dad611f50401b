import { z } from 'zod';
import { LearnAs, LearnedState, ListEntry } from './lists';
import { ReleaseDelivery } from './quarantine';

/** POST /api/quarantine/{id}/learn/ and /not-spam/ (DESIGN §4.1, issue 18). */
export const LearnRequest = z.object({ as: LearnAs }).strict();
export type LearnRequest = z.infer<typeof LearnRequest>;

/**
 * 200 once Rspamd's controller accepted it. `already`: this message was learned the same way before
 * (by the console, or Rspamd answered that it already learned it); nothing sent again for the
 * console's own record. 502 `rspamd_unavailable` / `rspamd_refused` with Rspamd's answer otherwise:
 * nothing recorded as learned.
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
});
export type StepOutcome = z.infer<typeof StepOutcome>;

/**
 * 200 with each step's outcome: the release (and the relay's answer), the learn (ham), the whitelist
 * entry (`list_exists` counts as ok), and the other pending mails from the same sender the caller may
 * see (their ids, newest first, at most 200), for "N other quarantined mails from this sender:
 * release them too?".
 */
export const NotSpamResponse = z.object({
  release: StepOutcome.extend({ delivery: ReleaseDelivery.nullable() }),
  learn: StepOutcome.extend({ already: z.boolean() }),
  whitelist: StepOutcome.extend({ entry: ListEntry.nullable() }),
  others: z.object({ sender: z.string(), count: z.number().int().nonnegative(), ids: z.array(z.string()) }),
});
export type NotSpamResponse = z.infer<typeof NotSpamResponse>;
