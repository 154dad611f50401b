import {
  BUILTIN_NOTIFICATION_DEFAULTS,
  DigestFrequency,
  DigestLanguage,
  type NotificationDefaults,
  type NotificationPrefs,
  type NotificationSettings,
  type NotificationSettingsUpdate,
} from '@qc/contracts';
import type { DbExecutor } from '../../db/database';
import type { NotificationSettingsTable } from '../../db/schema';
import { HttpError } from '../../lib/http-error';
import type { SessionContextRow } from '../auth/auth.repository';
import {
  findDefaults,
  findSettings,
  lastSentAt,
  latestSends,
  upsertDefaults,
  upsertSettings,
} from './notifications.repository';

const iso = (ms: number) => new Date(ms).toISOString();

/** Only a domain_admin with a domain has a domain's quarantine to be told of (an admin has none). */
export const mayHaveDomainDigest = (user: Pick<SessionContextRow, 'role' | 'domain_name'>) =>
  user.role === 'domain_admin' && Boolean(user.domain_name);

/** The row's values as prefs; a frequency the contract no longer knows reads as the default's. */
function prefsOf(row: Omit<NotificationSettingsTable, 'user_id' | 'domain_digest'>): NotificationPrefs {
  const frequency = DigestFrequency.safeParse(row.frequency);
  return {
    enabled: Boolean(row.enabled),
    frequency: frequency.success ? frequency.data : BUILTIN_NOTIFICATION_DEFAULTS.frequency,
    send_time: row.send_time,
    time_zone: row.time_zone,
    language: DigestLanguage.safeParse(row.language).data ?? BUILTIN_NOTIFICATION_DEFAULTS.language,
  };
}

/** What every user without their own row gets: the admin's row, else the built-in defaults. */
export async function getDefaults(db: DbExecutor): Promise<NotificationDefaults> {
  const row = await findDefaults(db);
  return row ? prefsOf(row) : { ...BUILTIN_NOTIFICATION_DEFAULTS };
}

/**
 * No history row: the history's administration actions name users, domains and rules; a change of
 * the notification defaults is none of them (updated_by and updated_at say who and when).
 */
export async function saveDefaults(
  db: DbExecutor,
  adminId: string,
  body: NotificationDefaults,
): Promise<NotificationDefaults> {
  await upsertDefaults(db, {
    enabled: body.enabled ? 1 : 0,
    frequency: body.frequency,
    send_time: body.send_time,
    time_zone: body.time_zone,
    language: body.language,
    updated_at: Date.now(),
    updated_by: adminId,
  });
  return getDefaults(db);
}

/** A user's settings as the digest applies them: their row, else the defaults. */
export async function effectiveSettings(
  db: DbExecutor,
  user: Pick<SessionContextRow, 'user_id' | 'role' | 'domain_name'>,
): Promise<NotificationPrefs & { domain_digest: boolean; is_default: boolean }> {
  const row = await findSettings(db, user.user_id);
  if (!row) return { ...(await getDefaults(db)), domain_digest: false, is_default: true };
  // Saved while domain_admin, then the role changed: no domain digest any more.
  return { ...prefsOf(row), domain_digest: Boolean(row.domain_digest) && mayHaveDomainDigest(user), is_default: false };
}

export async function getSettings(db: DbExecutor, user: SessionContextRow): Promise<NotificationSettings> {
  const [prefs, sentAt, latest] = await Promise.all([
    effectiveSettings(db, user),
    lastSentAt(db, user.user_id),
    latestSends(db, user.user_id),
  ]);
  // The last attempt failed when the newest period of either kind did (retried at the next run).
  const failed = latest.filter((r) => r.status === 'failed').sort((a, b) => b.claimed_at - a.claimed_at)[0];
  return {
    ...prefs,
    last_sent: sentAt === null ? null : iso(sentAt),
    last_attempt_failed: failed !== undefined,
    last_error: failed?.error ?? null,
  };
}

/**
 * Saves the user's own row (from then on the defaults no longer apply to them). No history row, as
 * for the display preferences: a user's own choice about their own mail.
 */
export async function saveSettings(
  db: DbExecutor,
  user: SessionContextRow,
  body: NotificationSettingsUpdate,
): Promise<NotificationSettings> {
  if (body.domain_digest && !mayHaveDomainDigest(user)) {
    throw new HttpError(400, 'validation_error', 'The request is not valid.', {
      domain_digest: 'Only a domain administrator gets a digest of their domain.',
    });
  }
  await upsertSettings(db, {
    user_id: user.user_id,
    enabled: body.enabled ? 1 : 0,
    frequency: body.frequency,
    send_time: body.send_time,
    time_zone: body.time_zone,
    language: body.language,
    domain_digest: body.domain_digest ? 1 : 0,
    updated_at: Date.now(),
  });
  return getSettings(db, user);
}

/** Unsubscribe (a digest link, RFC 8058): the effective settings, switched off, as the user's own row. */
export async function disableNotifications(db: DbExecutor, user: SessionContextRow, now: number): Promise<void> {
  const current = await effectiveSettings(db, user);
  await upsertSettings(db, {
    user_id: user.user_id,
    enabled: 0,
    frequency: current.frequency,
    send_time: current.send_time,
    time_zone: current.time_zone,
    language: current.language,
    domain_digest: current.domain_digest ? 1 : 0,
    updated_at: now,
  });
}
