import type { BackupCodesResponse, MfaSetupResponse, TokenPair, VerifyTotpRequest } from '@qc/contracts';
import type { AppContext } from '../../app-context';
import { HttpError, unauthorized } from '../../lib/http-error';
import { createKeyedHash, createSecretBox } from '../../lib/secret-box';
import { revokeOtherSessions } from '../auth/auth.repository';
import type { AuthContext } from '../auth/auth.service';
import { startSession } from '../auth/auth.service';
import type { TokenClaims } from '../auth/tokens';
import { clearMfa, findUserById, type UserRow } from '../users/users.repository';
import { checkPassword } from '../users/users.service';
import {
  advanceTotpStep,
  claimPartialToken,
  consumeBackupCode,
  enableWithSecret,
  ensurePartialToken,
  findPartialToken,
  purgeExpiredPartialTokens,
  recordPartialFailure,
  replaceBackupCodes,
  setPendingSecret,
} from './mfa.repository';
import { matchTotp, newBackupCodes, newTotpSecret, normalizeBackupCode, otpauthUrl } from './totp';

type MfaDeps = Pick<AppContext, 'db' | 'config' | 'passwords' | 'tokens'>;

/**
 * The TOTP secret must be readable by the server (unlike a password), so it is stored encrypted
 * under a key derived from QC_SECRET_KEY, bound to the user's id.
 */
const secretBox = (deps: MfaDeps) => createSecretBox(deps.config.secretKey, 'mfa-secret');

/**
 * Backup codes are stored as HMAC-SHA256 under a key derived from QC_SECRET_KEY (not argon2id): they
 * are 50-bit random values, not human-chosen passwords, so a slow hash adds little, while a keyed hash
 * means a database dump alone cannot test guesses, and a check is one indexed lookup rather than up to
 * ten argon2 computations per attempt (an easy CPU and memory drain for anyone holding a partial token).
 */
function backupCodeHasher(deps: MfaDeps): (userId: string, code: string) => string {
  const hash = createKeyedHash(deps.config.secretKey, 'backup-code');
  return (userId, code) => hash(`${userId}:${normalizeBackupCode(code)}`);
}

const alreadyEnabled = () => new HttpError(409, 'mfa_already_enabled', 'Two-factor authentication is already enabled.');
const notEnabled = () => new HttpError(409, 'mfa_not_enabled', 'Two-factor authentication is not enabled.');
const challengeInvalid = () =>
  unauthorized('token_invalid', 'This sign-in challenge is no longer valid. Sign in again.');
const invalidCode = () => unauthorized('invalid_code', 'The code is not valid.');

async function requireUser(deps: MfaDeps, auth: AuthContext): Promise<UserRow> {
  const user = await findUserById(deps.db, auth.user.user_id);
  if (!user) throw unauthorized('session_revoked', 'The session has ended.');
  return user;
}

/** Stores a new pending secret (replacing any earlier one); MFA stays off until a code proves it. */
export async function setupMfa(deps: MfaDeps, auth: AuthContext): Promise<MfaSetupResponse> {
  const user = await requireUser(deps, auth);
  if (user.mfa_enabled === 1) throw alreadyEnabled();
  const secret = newTotpSecret();
  await setPendingSecret(deps.db, user.id, secretBox(deps).seal(secret, user.id));
  return { secret, otpauth_url: otpauthUrl(secret, user.email) };
}

function issueBackupCodes(deps: MfaDeps, userId: string): { codes: string[]; hashes: string[] } {
  const hash = backupCodeHasher(deps);
  const codes = newBackupCodes();
  return { codes, hashes: codes.map((c) => hash(userId, c)) };
}

export async function enableMfa(deps: MfaDeps, auth: AuthContext, code: string): Promise<BackupCodesResponse> {
  const user = await requireUser(deps, auth);
  if (user.mfa_enabled === 1) throw alreadyEnabled();
  const secret = user.mfa_pending_secret ? secretBox(deps).open(user.mfa_pending_secret, user.id) : null;
  if (!secret) {
    throw new HttpError(400, 'mfa_not_pending', 'Start the two-factor setup first.');
  }
  const step = await matchTotp(secret, code, null);
  if (step === null) {
    throw new HttpError(400, 'invalid_code', 'The code is not valid.', { totp_code: 'The code is not valid.' });
  }
  const { codes, hashes } = issueBackupCodes(deps, user.id);
  const now = Date.now();
  await deps.db.transaction().execute(async (trx) => {
    // The enabling code's step is recorded: it cannot be replayed to sign in.
    if (!(await enableWithSecret(trx, user.id, user.mfa_pending_secret!, step))) throw alreadyEnabled();
    await replaceBackupCodes(trx, user.id, hashes, now);
    await revokeOtherSessions(trx, user.id, auth.familyId, now);
  });
  return { backup_codes: codes };
}

export async function disableMfa(deps: MfaDeps, auth: AuthContext, password: string): Promise<void> {
  const user = await requireUser(deps, auth);
  await checkPassword(deps.passwords, user, password, 'password');
  if (user.mfa_enabled !== 1) throw notEnabled();
  await deps.db.transaction().execute(async (trx) => {
    await clearMfa(trx, user.id);
    await revokeOtherSessions(trx, user.id, auth.familyId, Date.now());
  });
}

export async function regenerateBackupCodes(
  deps: MfaDeps,
  auth: AuthContext,
  password: string,
): Promise<BackupCodesResponse> {
  const user = await requireUser(deps, auth);
  await checkPassword(deps.passwords, user, password, 'password');
  if (user.mfa_enabled !== 1) throw notEnabled();
  const { codes, hashes } = issueBackupCodes(deps, user.id);
  const now = Date.now();
  await deps.db.transaction().execute(async (trx) => {
    await replaceBackupCodes(trx, user.id, hashes, now);
    await revokeOtherSessions(trx, user.id, auth.familyId, now);
  });
  return { backup_codes: codes };
}

/**
 * Second sign-in step. The partial token (already verified: signature, typ, exp) is bound to its
 * subject: the code is checked against that user only, and the pair issued is theirs. Each partial
 * token is used once; QC_MFA_MAX_FAILURES wrong codes burn it. A TOTP step is accepted once, and a
 * backup code once.
 */
export async function verifySecondFactor(
  deps: MfaDeps,
  claims: TokenClaims,
  body: VerifyTotpRequest,
): Promise<TokenPair> {
  const now = Date.now();
  const jti = claims.jti!;
  await purgeExpiredPartialTokens(deps.db, now);
  await ensurePartialToken(deps.db, {
    jti,
    user_id: claims.sub,
    failures: 0,
    used_at: null,
    expires_at: claims.exp * 1000,
  });
  const challenge = await findPartialToken(deps.db, jti);
  if (!challenge || challenge.used_at !== null || challenge.user_id !== claims.sub) throw challengeInvalid();

  const user = await findUserById(deps.db, claims.sub);
  if (!user || user.is_active !== 1 || user.mfa_enabled !== 1) throw challengeInvalid();

  let ok = false;
  if ('totp_code' in body) {
    const secret = user.mfa_secret ? secretBox(deps).open(user.mfa_secret, user.id) : null;
    const step = secret ? await matchTotp(secret, body.totp_code, user.mfa_last_step) : null;
    ok = step !== null && (await advanceTotpStep(deps.db, user.id, step));
  } else {
    ok = await consumeBackupCode(deps.db, user.id, backupCodeHasher(deps)(user.id, body.backup_code), now);
  }
  if (!ok) {
    await recordPartialFailure(deps.db, jti, deps.config.mfaRate.maxFailures, now);
    throw invalidCode();
  }
  if (!(await claimPartialToken(deps.db, jti, now))) throw challengeInvalid();
  return startSession(deps, user.id);
}
