import { bumpIfOwner } from '../lists/lists.repository';
import { randomBytes } from 'node:crypto';
import {
  EMAIL_CONFIRM_PATH,
  EXTERNAL_USER_MESSAGE,
  type PasswordChangeRequest,
  type CurrentUser,
  type ProfileResponse,
  type ProfileUpdate,
} from '@qc/contracts';
import type { AppContext } from '../../app-context';
import { isUniqueViolation, type Db } from '../../db/database';
import { otherOwners } from '../users/user-addresses.repository';
import { HttpError, unauthorized } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import { createKeyedHash } from '../../lib/secret-box';
import { findSessionContext, revokeOtherSessions, type SessionContextRow } from '../auth/auth.repository';
import type { AuthContext } from '../auth/auth.service';
import { recordPasswordChanged, type RequestOrigin } from '../security/security-events';
import {
  findUserByEmail,
  findUserById,
  findUserByUsername,
  updatePasswordHash,
  updateProfileFields,
  type UserRow,
} from '../users/users.repository';
import { checkPassword, toCurrentUser } from '../users/users.service';
import {
  claimEmailChange,
  deleteEmailChange,
  dropPendingEmailChanges,
  findEmailChangeByHash,
  findPendingEmail,
  replaceEmailChange,
} from './profile.repository';

type ProfileDeps = Pick<AppContext, 'db' | 'config' | 'passwords' | 'tokens' | 'mailer'> & {
  directory?: AppContext['directory'];
};

/** A new e-mail needs the account's password (a stolen access token alone must not move the account). */
const currentPasswordRequired = () =>
  new HttpError(400, 'validation_error', 'The current password is required to change the e-mail address.', {
    current_password: 'Current password is required',
  });
/** Only the confirmation: a request for an address in use answers as any other (no account enumeration). */
const emailTaken = () =>
  new HttpError(409, 'email_taken', 'A user with this e-mail already exists.', {
    email: 'This e-mail is already in use.',
  });
const usernameTaken = () =>
  new HttpError(409, 'username_taken', 'This username is already taken.', {
    username: 'This username is already taken.',
  });
const invalidLink = () =>
  new HttpError(400, 'email_change_invalid', 'This confirmation link is not valid or was already used.', {
    token: 'This confirmation link is not valid or was already used.',
  });

/**
 * The e-mailed token is 256 random bits; the database keeps only its HMAC (key derived from
 * QC_SECRET_KEY), so neither a dump nor a guess yields a usable link. Expiry and single use are the
 * row's (`expires_at`, `used_at`).
 */
const tokenHash = (deps: ProfileDeps) => createKeyedHash(deps.config.secretKey, 'email-change');

async function profileOf(deps: ProfileDeps, auth: AuthContext): Promise<ProfileResponse> {
  const row = await findSessionContext(deps.db, auth.sessionId);
  if (!row) throw unauthorized('session_revoked', 'The session has ended.');
  return currentUser(deps.db, row);
}

/** The user as GET /api/users/me/ answers it, with the new address awaiting confirmation. */
export async function currentUser(db: Db, row: SessionContextRow): Promise<CurrentUser> {
  return toCurrentUser(row, await findPendingEmail(db, row.user_id, Date.now()));
}

async function requireUser(deps: ProfileDeps, auth: AuthContext): Promise<UserRow> {
  const user = await findUserById(deps.db, auth.user.user_id);
  if (!user) throw unauthorized('session_revoked', 'The session has ended.');
  return user;
}

/** The confirmation e-mail goes out in both languages of the console, French first (DESIGN §10). */
export const EMAIL_CHANGE_SUBJECT =
  'Quarantine Console\u00a0: confirmez votre nouvelle adresse e-mail / Confirm your new e-mail address';

/** "1 heure", "1,5 heure", "2 heures" / "1 hour", "1.5 hours": the link's lifetime, to a tenth of an hour. */
export function hoursText(ttlSeconds: number): { fr: string; en: string } {
  const hours = Math.round(ttlSeconds / 360) / 10;
  const fr = new Intl.NumberFormat('fr-FR', { maximumFractionDigits: 1 }).format(hours);
  const en = new Intl.NumberFormat('en-GB', { maximumFractionDigits: 1 }).format(hours);
  // French is singular below 2 (1,5 heure); English only for exactly one.
  return { fr: `${fr} heure${hours >= 2 ? 's' : ''}`, en: `${en} hour${hours === 1 ? '' : 's'}` };
}

export function emailChangeText(username: string, link: string, ttlSeconds: number): string {
  const hours = hoursText(ttlSeconds);
  return (
    `Quelqu’un a demandé à utiliser cette adresse pour le compte Quarantine Console de ${username}.\n\n` +
    `Pour confirmer, ouvrez ce lien en étant connecté\u00a0:\n${link}\n\n` +
    `Le lien expire dans ${hours.fr} et ne fonctionne qu’une fois. ` +
    `Si vous n’êtes pas à l’origine de cette demande, ignorez cet e-mail.\n\n` +
    `-----\n\n` +
    `Someone asked to use this address for the Quarantine Console account of ${username}.\n\n` +
    `To confirm, open this link while signed in:\n${link}\n\n` +
    `The link expires in ${hours.en} and works once. If you did not ask for this, ignore this e-mail.\n`
  );
}

/** Sent instead of the link when the address asked for is already another account's (French first). */
export const EMAIL_IN_USE_SUBJECT =
  'Quarantine Console\u00a0: demande d’utilisation de votre adresse e-mail / Request to use your e-mail address';

export function emailInUseText(username: string): string {
  return (
    `Quelqu’un a demandé à utiliser cette adresse pour le compte Quarantine Console de ${username}. ` +
    `Elle est déjà celle de votre compte\u00a0: rien n’a été modifié, aucun lien n’a été envoyé ` +
    `et vous n’avez rien à faire.\n\n` +
    `Si cette demande vous surprend, prévenez votre administrateur.\n\n` +
    `-----\n\n` +
    `Someone asked to use this address for the Quarantine Console account of ${username}. ` +
    `It already belongs to your account: nothing was changed, no link was sent and there is nothing you need to do.\n\n` +
    `If this surprises you, tell your administrator.\n`
  );
}

/** Sent to the address in effect when a change is asked for, so the owner learns of it (French first). */
export const EMAIL_CHANGE_NOTICE_SUBJECT =
  'Quarantine Console\u00a0: changement d’adresse e-mail demandé / E-mail address change requested';

export function emailChangeNoticeText(username: string, newEmail: string): string {
  return (
    `Un changement d’adresse e-mail a été demandé pour le compte Quarantine Console de ${username}\u00a0: ` +
    `la nouvelle adresse serait ${newEmail}.\n\n` +
    `Rien ne change tant que le lien envoyé à cette nouvelle adresse n’a pas été confirmé. ` +
    `Si vous n’êtes pas à l’origine de cette demande, changez votre mot de passe sans attendre ` +
    `(vos autres sessions seront fermées) et prévenez votre administrateur.\n\n` +
    `-----\n\n` +
    `A change of e-mail address was requested for the Quarantine Console account of ${username}: ` +
    `the new address would be ${newEmail}.\n\n` +
    `Nothing changes until the link sent to that new address is confirmed. If you did not ask for this, ` +
    `change your password at once (your other sessions will end) and tell your administrator.\n`
  );
}

interface WarnLogger {
  warn(obj: object, msg: string): void;
}

/**
 * Records the pending change and mails `newEmail`: the confirmation link, or, when the address is
 * already another account's (`inUse`), a notice instead. Both record a pending change and answer
 * alike, so the caller cannot tell whether an address has an account; the pending row of an address
 * in use is inert (its token was never sent anywhere, and confirmation re-checks the address).
 */
async function sendConfirmation(deps: ProfileDeps, user: UserRow, newEmail: string, inUse: boolean): Promise<void> {
  const now = Date.now();
  const token = randomBytes(32).toString('base64url');
  const id = newId(now);
  await replaceEmailChange(deps.db, {
    id,
    user_id: user.id,
    new_email: newEmail,
    token_hash: tokenHash(deps)(token),
    created_at: now,
    expires_at: now + deps.config.emailChangeTtl * 1000,
    used_at: null,
  });
  // Built from QC_PUBLIC_URL, never from the request's Host header (which a client chooses).
  const link = `${deps.config.publicUrl}${EMAIL_CONFIRM_PATH}?token=${token}`;
  try {
    await deps.mailer.send(
      inUse
        ? { to: newEmail, subject: EMAIL_IN_USE_SUBJECT, text: emailInUseText(user.username) }
        : {
            to: newEmail,
            subject: EMAIL_CHANGE_SUBJECT,
            text: emailChangeText(user.username, link, deps.config.emailChangeTtl),
          },
    );
  } catch (err) {
    await deleteEmailChange(deps.db, id);
    // The relay's words go to the log (the error handler logs 5xx with their cause), not to the client.
    throw Object.assign(new HttpError(502, 'email_send_failed', 'The confirmation e-mail could not be sent.'), {
      cause: err,
    });
  }
}

/**
 * The address in effect hears of the request (the link went to the new one). Best effort: a dead old
 * mailbox is a common reason to change address, so its refusal is logged and does not undo the request.
 */
async function noticeOldAddress(deps: ProfileDeps, user: UserRow, newEmail: string, log?: WarnLogger) {
  try {
    await deps.mailer.send({
      to: user.email,
      subject: EMAIL_CHANGE_NOTICE_SUBJECT,
      text: emailChangeNoticeText(user.username, newEmail),
    });
  } catch (err) {
    log?.warn({ err, userId: user.id }, 'the e-mail change notice to the current address could not be sent');
  }
}

/**
 * PATCH /api/users/me/. Names and username apply at once; a new e-mail only once the link sent to
 * it is confirmed, and asking for one needs the current password (checked before anything changes).
 * Whether the new address already has an account is never told: the answer is the same, and that
 * address gets a notice instead of a link. External users may change only their first and last name
 * (other fields sent unchanged are accepted, so a client can send the whole form).
 */
export async function updateProfile(
  deps: ProfileDeps,
  auth: AuthContext,
  input: ProfileUpdate,
  log?: WarnLogger,
): Promise<ProfileResponse> {
  const user = await requireUser(deps, auth);
  const username = input.username !== undefined && input.username !== user.username ? input.username : undefined;
  const rawEmail = input.email?.toLowerCase();
  const email = rawEmail !== undefined && rawEmail !== user.email ? rawEmail : undefined;

  if (user.is_external === 1 && (username !== undefined || email !== undefined)) {
    const errors: Record<string, string> = {};
    if (username !== undefined) errors.username = EXTERNAL_USER_MESSAGE;
    if (email !== undefined) errors.email = EXTERNAL_USER_MESSAGE;
    throw new HttpError(400, 'validation_error', EXTERNAL_USER_MESSAGE, errors);
  }
  if (email !== undefined) {
    if (input.current_password === undefined) throw currentPasswordRequired();
    await checkPassword(deps, user, input.current_password, 'current_password');
  }
  if (username !== undefined) {
    const other = await findUserByUsername(deps.db, username);
    if (other && other.id !== user.id) throw usernameTaken();
    // Nor another account's e-mail address: a name shown in the history or a list must not pass
    // for someone else. Said as a taken name (the same budget of changes bounds both).
    const owner = await findUserByEmail(deps.db, username.toLowerCase());
    if (owner && owner.id !== user.id) throw usernameTaken();
  }
  if (email !== undefined) {
    // Another account's e-mail or alias (issue 31: one owner per address).
    const taken = (await otherOwners(deps.db, user.id, [email])).size > 0;
    await sendConfirmation(deps, user, email, taken);
    await noticeOldAddress(deps, user, email, log);
  }
  await updateProfileFields(deps.db, user.id, {
    ...(username !== undefined && { username }),
    ...(input.first_name !== undefined && { first_name: input.first_name }),
    ...(input.last_name !== undefined && { last_name: input.last_name }),
  });
  return profileOf(deps, auth);
}

/**
 * POST /api/users/me/email/confirm/: applies the pending change of the signed-in user. Mail
 * ownership follows the address, so the user's other sessions end.
 */
export async function confirmEmail(deps: ProfileDeps, auth: AuthContext, token: string): Promise<ProfileResponse> {
  const now = Date.now();
  const row = await findEmailChangeByHash(deps.db, tokenHash(deps)(token));
  if (!row || row.used_at !== null || row.user_id !== auth.user.user_id) throw invalidLink();
  if (row.expires_at <= now) {
    throw new HttpError(400, 'email_change_expired', 'This confirmation link has expired.', {
      token: 'This confirmation link has expired.',
    });
  }
  if ((await otherOwners(deps.db, row.user_id, [row.new_email])).size) throw emailTaken();
  try {
    await deps.db.transaction().execute(async (trx) => {
      if (!(await claimEmailChange(trx, row.id, now))) throw invalidLink();
      await updateProfileFields(trx, row.user_id, { email: row.new_email });
      await bumpIfOwner(trx, { userId: row.user_id }); // their list's owner in Rspamd's map
      await dropPendingEmailChanges(trx, row.user_id);
      await revokeOtherSessions(trx, row.user_id, auth.familyId, now);
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken(); // taken between the check and the update
    throw err;
  }
  return profileOf(deps, auth);
}

/**
 * POST /api/users/me/password/: a wrong current password is 400 (errors.current_password), never
 * 401. A security event; the owner is told by e-mail (whoever holds the session may not be them).
 */
export async function changePassword(
  deps: ProfileDeps,
  auth: AuthContext,
  input: PasswordChangeRequest,
  origin: RequestOrigin,
): Promise<void> {
  const user = await requireUser(deps, auth);
  if (user.source !== 'local') {
    const message = 'This account signs in with the organisation’s directory: change the password there.';
    throw new HttpError(400, 'directory_managed', message, { new_password: message });
  }
  await checkPassword(deps, user, input.current_password, 'current_password');
  const hash = await deps.passwords.hash(input.new_password);
  await deps.db.transaction().execute(async (trx) => {
    await updatePasswordHash(trx, user.id, hash);
    await revokeOtherSessions(trx, user.id, auth.familyId, Date.now());
  });
  await recordPasswordChanged(deps, origin, user.id);
}
