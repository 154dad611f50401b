import type { NotificationDefaults, NotificationPrefs, NotificationSettings, TestDigestResponse } from '@qc/contracts';
import { api } from './client';

/**
 * Quarantine notification settings (issue 20, DESIGN §4.1). Types only from @qc/contracts. The
 * digest links' own page (/digest/<token>) is public and calls /api/digest/ without a session.
 */

/** GET /api/users/me/notifications/: the caller's settings (the defaults until they save). */
export function getNotificationSettings(signal?: AbortSignal): Promise<NotificationSettings> {
  return api.get('users/me/notifications/', signal ? { signal } : {}).json<NotificationSettings>();
}

/**
 * PUT /api/users/me/notifications/ (every field; 400 `errors.<field>`). `domain_digest` only for a
 * domain_admin (refused for the other roles when true).
 */
export type NotificationSettingsBody = NotificationPrefs & { domain_digest?: boolean };
export function saveNotificationSettings(body: NotificationSettingsBody): Promise<NotificationSettings> {
  return api.put('users/me/notifications/', { json: body }).json<NotificationSettings>();
}

/** POST /api/users/me/notifications/test/: a digest of what is pending now, sent now (429 when too often). */
export function sendTestDigest(): Promise<TestDigestResponse> {
  return api.post('users/me/notifications/test/').json<TestDigestResponse>();
}

/** GET /api/notifications/defaults/ (admin): what users who never saved their own get. */
export function getNotificationDefaults(signal?: AbortSignal): Promise<NotificationDefaults> {
  return api.get('notifications/defaults/', signal ? { signal } : {}).json<NotificationDefaults>();
}

/** PUT /api/notifications/defaults/ (admin). */
export function saveNotificationDefaults(body: NotificationDefaults): Promise<NotificationDefaults> {
  return api.put('notifications/defaults/', { json: body }).json<NotificationDefaults>();
}
