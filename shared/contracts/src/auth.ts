import { z } from 'zod';
import { emailAddress } from './addresses';

export const LoginRequest = z.object({
  // `ann@bücher.example` signs in as `ann@xn--bcher-kva.example` (the limiter counts one account).
  email: emailAddress(),
  password: z.string().min(1).max(1024),
});
export type LoginRequest = z.infer<typeof LoginRequest>;

export const TokenPair = z.object({ access: z.string(), refresh: z.string() });
export type TokenPair = z.infer<typeof TokenPair>;

export const TwoFactorChallenge = z.object({
  requires_2fa: z.literal(true),
  partial_token: z.string(),
});
export type TwoFactorChallenge = z.infer<typeof TwoFactorChallenge>;

/**
 * Two-factor must be set up before any access is given (the user's `mfa_required`, or their role is
 * in QC_MFA_REQUIRED_ROLES): the partial token, sent as `Authorization: Bearer`, reaches only
 * POST /api/users/me/mfa/setup/ and /enable/, whose answer then also carries the token pair.
 */
export const TwoFactorSetupChallenge = z.object({
  requires_2fa_setup: z.literal(true),
  partial_token: z.string(),
});
export type TwoFactorSetupChallenge = z.infer<typeof TwoFactorSetupChallenge>;

/** Spec §3 "Login response": a token pair, a second-factor challenge, or a set-up challenge. */
export const LoginResponse = z.union([TokenPair, TwoFactorChallenge, TwoFactorSetupChallenge]);
export type LoginResponse = z.infer<typeof LoginResponse>;

export const RefreshRequest = z.object({ refresh: z.string().min(1).max(512) });
export type RefreshRequest = z.infer<typeof RefreshRequest>;

export const LogoutRequest = RefreshRequest;
export type LogoutRequest = z.infer<typeof LogoutRequest>;

export const VerifyTotpRequest = z.union([
  z.object({ partial_token: z.string().min(1), totp_code: z.string().regex(/^\d{6}$/) }),
  z.object({ partial_token: z.string().min(1), backup_code: z.string().min(1).max(64) }),
]);
export type VerifyTotpRequest = z.infer<typeof VerifyTotpRequest>;
