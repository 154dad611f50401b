import type {
  PasswordRequest,
  BackupCodesResponse,
  MfaEnableResponse,
  MfaSetupResponse,
  TokenPair,
  VerifyTotpRequest,
} from '@qc/contracts';
import type { AppContext } from '../../app-context';
import type { DbExecutor } from '../../db/database';
import { HttpError, unauthorized } from '../../lib/http-error';
import { createSecretBox } from '../../lib/secret-box';
import { challengePredatesCredentials, revokeOtherSessions, revokeUserSessions } from '../auth/auth.repository';
import type { AuthContext } from '../auth/auth.service';
import { mfaMandatory, startSession } from '../auth/auth.service';
import { issuedAtMs, type TokenClaims } from '../auth/tokens';
import { findSecuritySubject } from '../security/security.repository';
import {
  auditSecurityEvent,
  logSecurityEvent,
  recordSecondFactorFailure,
  sendSecurityNotice,
  type RequestOrigin,
  type SecurityEvent,
} from '../security/security-events';
import { clearMfa, findUserById, type UserRow } from '../users/users.repository';
import { checkPassword } from '../users/users.service';
import {
  advanceTotpStep,
  claimPartialToken,
  clearPendingSecret,
  consumeBackupCode,
  listUnusedBackupCodes,
  enableWithSecret,
  ensurePartialToken,
  findPartialToken,
  purgeExpiredPartialTokens,
  recordPartialFailure,
  replaceBackupCodes,
  setPendingSecret,
} from './mfa.repository';
import { createBackupCodeHasher } from './backup-codes';
import { matchTotp, newTotpSecret, otpauthUrl } from './totp';

type MfaDeps = Pick<AppContext, 'db' | 'config' | 'passwords' | 'tokens' | 'mailer'> & {
  directory?: AppContext['directory'];
};

/**
 * Who sets up two-factor: a signed-in user (their session, `familyId`), or a sign-in held at the
 * set-up step (the set-up token of a `requires_2fa_setup` login: no session yet, `familyId` null).
 */
export interface MfaCaller {
  userId: string;
  familyId: string | null;
  /** A set-up token's issue time (ms): refused once the account's credentials changed after it. */
  issuedAtMs?: number;
}

export const callerOf = (auth: AuthContext): MfaCaller => ({ userId: auth.user.user_id, familyId: auth.familyId });

/**
 * The TOTP secret must be readable by the server (unlike a password), so it is stored encrypted
 * under a key derived from QC_SECRET_KEY, bound to the user's id.
 */
const secretBox = (deps: MfaDeps) => createSecretBox(deps.config.secretKey, 'mfa-secret');

/** Backup codes: argon2id, keyed (see backup-codes.ts for why and for the codes stored before). */
const backupCodes = (deps: MfaDeps) => createBackupCodeHasher(deps.config);

const alreadyEnabled = () => new HttpError(409, 'mfa_already_enabled', 'Two-factor authentication is already enabled.');
const notEnabled = () => new HttpError(409, 'mfa_not_enabled', 'Two-factor authentication is not enabled.');
const challengeInvalid = () =>
  unauthorized('token_invalid', 'This sign-in challenge is no longer valid. Sign in again.');
const invalidCode = () => unauthorized('invalid_code', 'The code is not valid.');

const mandatory = () =>
  new HttpError(
    409,
    'mfa_required',
    'Two-factor authentication is mandatory for this account: an administrator required it, or its role does.',
  );

/** The caller's user; an access token's session was checked already, a set-up token's user is checked here. */
async function requireUser(deps: MfaDeps, caller: MfaCaller): Promise<UserRow> {
  const user = await findUserById(deps.db, caller.userId);
  if (!user || user.is_active !== 1) throw unauthorized('session_revoked', 'The session has ended.');
  if (caller.familyId === null && challengePredatesCredentials(user, caller.issuedAtMs ?? 0)) throw challengeInvalid();
  return user;
}

/** History row (in the change's transaction) for an event of the caller's own account. */
async function auditOwn(db: DbExecutor, origin: RequestOrigin, name: SecurityEvent['name'], userId: string) {
  const subject = (await findSecuritySubject(db, { id: userId })) ?? null;
  const event: SecurityEvent = { name, account: subject?.email ?? userId, subject };
  await auditSecurityEvent(db, origin, event);
  return event;
}

/**
 * Stores a new pending secret (replacing any earlier one) and when it was made; MFA stays off until
 * a code proves it, within QC_MFA_SETUP_TTL.
 */
export async function setupMfa(deps: MfaDeps, caller: MfaCaller): Promise<MfaSetupResponse> {
  const user = await requireUser(deps, caller);
  if (user.mfa_enabled === 1) throw alreadyEnabled();
  const secret = newTotpSecret();
  await setPendingSecret(deps.db, user.id, secretBox(deps).seal(secret, user.id), Date.now());
  return { secret, otpauth_url: otpauthUrl(secret, user.email) };
}

const issueBackupCodes = (deps: MfaDeps, userId: string) => backupCodes(deps).issue(userId);

/**
 * The first code from the pending secret turns MFA on. A signed-in caller keeps their session (the
 * others end); a sign-in held at the set-up step gets its session now (every earlier one ends).
 */
export async function enableMfa(
  deps: MfaDeps,
  caller: MfaCaller,
  code: string,
  origin: RequestOrigin,
): Promise<MfaEnableResponse> {
  const user = await requireUser(deps, caller);
  if (user.mfa_enabled === 1) throw alreadyEnabled();
  const sealed = user.mfa_pending_secret;
  const secret = sealed ? secretBox(deps).open(sealed, user.id) : null;
  if (!sealed || !secret) {
    throw new HttpError(400, 'mfa_not_pending', 'Start the two-factor setup first.');
  }
  const now = Date.now();
  // A set-up left unconfirmed (a QR code on a screen, a secret in a log) does not stay usable.
  if (user.mfa_pending_at === null || now - user.mfa_pending_at > deps.config.mfaSetupTtl * 1000) {
    await clearPendingSecret(deps.db, user.id, sealed);
    throw new HttpError(400, 'mfa_setup_expired', 'This two-factor setup has expired. Start it again.');
  }
  const step = await matchTotp(secret, code, null);
  if (step === null) {
    throw new HttpError(400, 'invalid_code', 'The code is not valid.', { totp_code: 'The code is not valid.' });
  }
  const { codes, hashes } = await issueBackupCodes(deps, user.id);
  const event = await deps.db.transaction().execute(async (trx) => {
    // The enabling code's step is recorded: it cannot be replayed to sign in.
    if (!(await enableWithSecret(trx, user.id, sealed, step))) throw alreadyEnabled();
    await replaceBackupCodes(trx, user.id, hashes, now);
    if (caller.familyId) await revokeOtherSessions(trx, user.id, caller.familyId, now);
    else await revokeUserSessions(trx, user.id, now);
    return auditOwn(trx, origin, 'mfa_enabled', user.id);
  });
  logSecurityEvent(origin, event);
  if (caller.familyId) return { backup_codes: codes };
  return { backup_codes: codes, ...(await startSession(deps, user)) };
}

/**
 * The account's own proof before a two-factor change: its password, or, for a single sign-on account
 * (no console password), a current code of its authenticator app (used once, like at sign-in).
 * A wrong one is 400 (never 401: no sign-out).
 */
async function confirmOwner(deps: MfaDeps, user: UserRow, proof: PasswordRequest): Promise<void> {
  const wrong = (field: 'password' | 'totp_code', message: string, code = 'validation_error') =>
    new HttpError(400, code, message, { [field]: message });
  if (user.source !== 'oidc') {
    if (proof.password === undefined) throw wrong('password', 'Password is required');
    return checkPassword(deps, user, proof.password, 'password');
  }
  if (proof.totp_code === undefined) throw wrong('totp_code', 'Enter the 6-digit code');
  if (!(await totpCheck(deps, user, proof.totp_code)).ok) {
    throw wrong('totp_code', 'The code is not valid.', 'invalid_code');
  }
}

/**
 * A code of the account's authenticator: any step of the window above the last accepted one, which
 * it becomes (a replay, or the second of two concurrent uses of one code, is refused). `replay`:
 * the code was right but already used.
 */
async function totpCheck(deps: MfaDeps, user: UserRow, code: string): Promise<{ ok: boolean; replay: boolean }> {
  const secret = user.mfa_secret ? secretBox(deps).open(user.mfa_secret, user.id) : null;
  const step = secret ? await matchTotp(secret, code, null) : null;
  const ok = step !== null && (await advanceTotpStep(deps.db, user.id, step));
  return { ok, replay: step !== null && !ok };
}

export async function disableMfa(deps: MfaDeps, auth: AuthContext, proof: PasswordRequest, origin: RequestOrigin) {
  const user = await requireUser(deps, callerOf(auth));
  await confirmOwner(deps, user, proof);
  if (user.mfa_enabled !== 1) throw notEnabled();
  if (mfaMandatory(deps.config, user)) throw mandatory();
  const event = await deps.db.transaction().execute(async (trx) => {
    await clearMfa(trx, user.id);
    await revokeOtherSessions(trx, user.id, auth.familyId, Date.now());
    return auditOwn(trx, origin, 'mfa_disabled', user.id);
  });
  logSecurityEvent(origin, event);
  void sendSecurityNotice(deps, origin, 'mfa_disabled', user);
}

export async function regenerateBackupCodes(
  deps: MfaDeps,
  auth: AuthContext,
  proof: PasswordRequest,
): Promise<BackupCodesResponse> {
  const user = await requireUser(deps, callerOf(auth));
  await confirmOwner(deps, user, proof);
  if (user.mfa_enabled !== 1) throw notEnabled();
  const { codes, hashes } = await issueBackupCodes(deps, user.id);
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
 * backup code once. A code of a step already used is a replay (totp_replay); any other wrong code a
 * failed sign-in (login_failed): both are security events, and the owner is told of a burst of them.
 */
export async function verifySecondFactor(
  deps: MfaDeps,
  claims: TokenClaims,
  body: VerifyTotpRequest,
  origin: RequestOrigin,
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
  if (challengePredatesCredentials(user, issuedAtMs(claims))) throw challengeInvalid();

  let ok = false;
  let replay = false;
  if ('totp_code' in body) {
    ({ ok, replay } = await totpCheck(deps, user, body.totp_code));
  } else {
    const stored = await listUnusedBackupCodes(deps.db, user.id);
    for (const candidate of await backupCodes(deps).candidates(user.id, body.backup_code, stored)) {
      if (stored.includes(candidate) && (ok = await consumeBackupCode(deps.db, user.id, candidate, now))) break;
    }
  }
  if (!ok) {
    await recordPartialFailure(deps.db, jti, deps.config.mfaRate.maxFailures, now);
    const subject = (await findSecuritySubject(deps.db, { id: user.id })) ?? null;
    await recordSecondFactorFailure(deps, origin, user.email, subject, replay);
    throw invalidCode();
  }
  if (!(await claimPartialToken(deps.db, jti, now))) throw challengeInvalid();
  return startSession(deps, user);
}
