import { z } from 'zod';
import { LIMITS } from './common';

/** Backup codes: 10 characters from an alphabet without look-alikes (no 0/O, 1/I). */
export const BACKUP_CODE_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const BACKUP_CODE_LENGTH = 10;
export const BACKUP_CODE_COUNT = 10;

export const TotpCode = z
  .string({ error: 'Enter the 6-digit code' })
  .regex(new RegExp(`^\\d{${LIMITS.totpLength}}$`), `The code must be ${LIMITS.totpLength} digits`);

/** POST /api/users/me/mfa/setup/: the pending secret (base32) and its otpauth:// URL for the QR code. */
export const MfaSetupResponse = z.object({ secret: z.string(), otpauth_url: z.string() });
export type MfaSetupResponse = z.infer<typeof MfaSetupResponse>;

/** POST /api/users/me/mfa/enable/ */
export const MfaEnableRequest = z.object({ totp_code: TotpCode }).strict();
export type MfaEnableRequest = z.infer<typeof MfaEnableRequest>;

/** Answer of enable and of POST /api/users/me/mfa/backup-codes/: shown once, each usable once. */
export const BackupCodesResponse = z.object({ backup_codes: z.array(z.string()) });
export type BackupCodesResponse = z.infer<typeof BackupCodesResponse>;

/** POST /api/users/me/mfa/enable/ with a set-up partial token (TwoFactorSetupChallenge): the session too. */
export const MfaEnableResponse = BackupCodesResponse.extend({
  access: z.string().optional(),
  refresh: z.string().optional(),
});
export type MfaEnableResponse = z.infer<typeof MfaEnableResponse>;

/**
 * POST /api/users/me/mfa/disable/ and /api/users/me/mfa/backup-codes/: the account password again.
 * A single sign-on account has no console password: it gives a current code of its authenticator
 * app instead (`totp_code`; both routes are for accounts with two-factor on). Each account sends
 * the one it has.
 */
export const PasswordRequest = z
  .object({
    password: z.string().min(1, 'Password is required').max(LIMITS.passwordMax).optional(),
    totp_code: z
      .string()
      .regex(/^\d{6}$/, 'Enter the 6-digit code')
      .optional(),
  })
  .strict();
export type PasswordRequest = z.infer<typeof PasswordRequest>;
