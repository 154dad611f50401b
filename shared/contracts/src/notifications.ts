import { z } from 'zod';

/**
 * Quarantine notifications (spec §3 "Notification settings", DESIGN §4.1, issue 20): a digest e-mail
 * of what is held for a user, on the wall clock in their time zone, with signed one-click links.
 */
export const DIGEST_FREQUENCIES = ['daily', 'weekly', 'monthly', 'never'] as const;
export const DigestFrequency = z.enum(DIGEST_FREQUENCIES);
export type DigestFrequency = z.infer<typeof DigestFrequency>;

/** "HH:MM", 24 h, in the user's time zone: when a period starts (weekly: Mondays; monthly: the 1st). */
export const SendTime = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Invalid time');

/** An IANA time zone this server knows (Intl); anything else is refused by name. */
export const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'Unknown time zone');

/** The digest e-mail's language (the console's languages; French by default). */
export const DIGEST_LANGUAGES = ['fr', 'en'] as const;
export const DigestLanguage = z.enum(DIGEST_LANGUAGES);
export type DigestLanguage = z.infer<typeof DigestLanguage>;

export const NotificationPrefs = z.object({
  enabled: z.boolean(),
  frequency: DigestFrequency,
  send_time: SendTime,
  time_zone: TimeZone,
  /** The e-mail's language: the console keeps the interface's in the browser, so it is asked here. */
  language: DigestLanguage.default('fr'),
});
export type NotificationPrefs = z.infer<typeof NotificationPrefs>;

/**
 * GET /api/users/me/notifications/: the caller's settings (the defaults until they save), when the
 * last digest went out, and whether the latest attempt failed (the relay refused it; retried at the
 * next run). `domain_digest`: a domain_admin also gets a digest of their domain's pending quarantine
 * (always false and refused for other roles).
 */
export const NotificationSettings = NotificationPrefs.extend({
  domain_digest: z.boolean(),
  /** True until the user saves: the values are the console's defaults. */
  is_default: z.boolean(),
  last_sent: z.string().nullable(),
  last_attempt_failed: z.boolean(),
  /** The relay's answer to the failed attempt (no internals), else null. */
  last_error: z.string().nullable(),
});
export type NotificationSettings = z.infer<typeof NotificationSettings>;

/** PUT /api/users/me/notifications/: every field; an unknown one is refused by name. */
export const NotificationSettingsUpdate = NotificationPrefs.extend({
  domain_digest: z.boolean().default(false),
}).strict();
export type NotificationSettingsUpdate = z.infer<typeof NotificationSettingsUpdate>;

/**
 * GET/PUT /api/notifications/defaults/ (admin): what every user who has not saved their own gets.
 * Out of the box: enabled, daily at 08:00, Europe/Paris.
 */
export const NotificationDefaults = NotificationPrefs.strict();
export type NotificationDefaults = z.infer<typeof NotificationDefaults>;
export const BUILTIN_NOTIFICATION_DEFAULTS: NotificationDefaults = {
  enabled: true,
  frequency: 'daily',
  send_time: '08:00',
  time_zone: 'Europe/Paris',
  language: 'fr',
};

/** POST /api/users/me/notifications/test/: a digest of what is pending now, sent now (rate limited). */
export const TestDigestResponse = z.object({
  sent: z.boolean(),
  /** Items in it (the newest DIGEST_LIMITS.items are listed, all are counted). */
  count: z.number().int().nonnegative(),
  /** The relay's answer (250 …) or its refusal. */
  relay_response: z.string().nullable(),
});
export type TestDigestResponse = z.infer<typeof TestDigestResponse>;

export const DIGEST_LIMITS = {
  /** Items listed in one digest (the count says how many in all). */
  items: 20,
  /** Rspamd symbols shown per item (highest score first). */
  symbols: 3,
  /** How long a link works (also capped by the message's retention). */
  linkTtlMs: 7 * 24 * 3600 * 1000,
};

/** What a digest link does. `unsubscribe` turns the user's notifications off (RFC 8058). */
export const DIGEST_ACTIONS = ['release', 'allow_sender', 'delete', 'unsubscribe'] as const;
export const DigestAction = z.enum(DIGEST_ACTIONS);
export type DigestAction = z.infer<typeof DigestAction>;

/**
 * GET /api/digest/{token}/ (public, changes nothing; mail scanners prefetch links): what the link
 * will do. `state`: `ready` (the POST will act), `used` (acted before: `outcome` says how), `expired`,
 * `invalid` (tampered, unknown, or no longer the recipient's: nothing is told about the message).
 */
export const DIGEST_LINK_STATES = ['ready', 'used', 'expired', 'invalid'] as const;
export const DigestLinkState = z.enum(DIGEST_LINK_STATES);
export type DigestLinkState = z.infer<typeof DigestLinkState>;

export const DigestLinkMessage = z.object({
  sender: z.string(),
  subject: z.string(),
  received_at: z.string(),
  score: z.number().nullable(),
});

/**
 * POST /api/digest/{token}/ (public; the token is the credential): acts once. 200 with the outcome;
 * a second POST: 409 `digest_link_used` with the first outcome; expired: 410 `digest_link_expired`;
 * tampered/unknown/other recipient: 404 `digest_link_invalid`. RFC 8058 one-click unsubscribe POSTs
 * `List-Unsubscribe=One-Click` (form-encoded) to the same URL: accepted too.
 */
export const DIGEST_RESULTS = [
  'released',
  'sender_allowed',
  'deleted',
  'unsubscribed',
  'already_done',
  'failed',
] as const;
export const DigestResult = z.enum(DIGEST_RESULTS);
export type DigestResult = z.infer<typeof DigestResult>;

export const DigestActOutcome = z.object({
  action: DigestAction,
  result: DigestResult,
  /** For release: the relay's answer ("250 2.0.0 Ok …") or its refusal. */
  relay_response: z.string().nullable(),
  /** For allow_sender: the address added to the recipient's whitelist. */
  sender: z.string().nullable(),
  at: z.string(),
});
export type DigestActOutcome = z.infer<typeof DigestActOutcome>;

export const DigestLinkInfo = z.object({
  state: DigestLinkState,
  action: DigestAction.nullable(),
  /** The recipient the link was made for (their address), when valid. */
  recipient: z.string().nullable(),
  /** The message it acts on (release/allow_sender/delete), when valid and still there. */
  message: DigestLinkMessage.nullable(),
  expires_at: z.string().nullable(),
  /** For `used`: what the POST did then. */
  outcome: DigestActOutcome.nullable(),
});
export type DigestLinkInfo = z.infer<typeof DigestLinkInfo>;
