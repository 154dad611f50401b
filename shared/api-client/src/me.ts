import type {
  BackupCodesResponse,
  MfaSetupResponse,
  PasswordChangeRequest,
  PasswordRequest,
  Preferences,
  StoredPreferences,
  ProfileResponse,
  ProfileUpdate,
} from '@qc/contracts';
import { api } from './client';

/**
 * The signed-in user's own resources (/api/users/me/…). Types only from @qc/contracts (no zod at
 * run time). Failures reject with ky's HTTPError: read them with readApiError().
 */

/** PATCH /api/users/me/: the user, plus `pending_email` while a new address awaits confirmation. */
export function updateProfile(changes: ProfileUpdate): Promise<ProfileResponse> {
  return api.patch('users/me/', { json: changes }).json<ProfileResponse>();
}

/** POST /api/users/me/email/confirm/ with the token of the link sent to the new address. */
export function confirmEmailChange(token: string): Promise<ProfileResponse> {
  return api.post('users/me/email/confirm/', { json: { token } }).json<ProfileResponse>();
}

/** POST /api/users/me/password/ → 204. A wrong current password is a 400 (errors.current_password), never a 401. */
export async function changePassword(body: PasswordChangeRequest): Promise<void> {
  await api.post('users/me/password/', { json: body });
}

/** POST /api/users/me/mfa/setup/: a new pending secret and its otpauth:// URL (MFA stays off). */
export function setupMfa(): Promise<MfaSetupResponse> {
  return api.post('users/me/mfa/setup/').json<MfaSetupResponse>();
}

/** POST /api/users/me/mfa/enable/: the first code proves the secret; answers the backup codes (shown once). */
export function enableMfa(totpCode: string): Promise<BackupCodesResponse> {
  return api.post('users/me/mfa/enable/', { json: { totp_code: totpCode } }).json<BackupCodesResponse>();
}

/**
 * POST /api/users/me/mfa/disable/ → 204. The account's proof: `{ password }`, or for a single
 * sign-on account `{ totp_code }` (400 errors.password or errors.totp_code when wrong).
 */
export async function disableMfa(proof: PasswordRequest): Promise<void> {
  await api.post('users/me/mfa/disable/', { json: proof });
}

/** POST /api/users/me/mfa/backup-codes/ (the same proof): new codes, the old ones stop working. */
export function regenerateBackupCodes(proof: PasswordRequest): Promise<BackupCodesResponse> {
  return api.post('users/me/mfa/backup-codes/', { json: proof }).json<BackupCodesResponse>();
}

/** GET /api/users/me/preferences/ (the defaults until the user saved some). */
export function getPreferences(): Promise<StoredPreferences> {
  return api.get('users/me/preferences/').json<StoredPreferences>();
}

/** PUT /api/users/me/preferences/ (both fields). */
export function savePreferences(prefs: Preferences, options: { timeout?: number } = {}): Promise<StoredPreferences> {
  return api
    .put('users/me/preferences/', { json: prefs, ...(options.timeout ? { timeout: options.timeout } : {}) })
    .json<StoredPreferences>();
}
