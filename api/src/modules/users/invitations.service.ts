import { randomBytes } from 'node:crypto';
import { INVITATION_PATH, type InvitationAcceptRequest } from '@qc/contracts';
import type { AppContext } from '../../app-context';
import type { DbExecutor } from '../../db/database';
import { HttpError } from '../../lib/http-error';
import { newId } from '../../lib/ids';
import { createKeyedHash } from '../../lib/secret-box';
import { revokeUserSessions } from '../auth/auth.repository';
import { hoursText } from '../profile/profile.service';
import {
  claimInvitation,
  deleteInvitation,
  dropUnusedInvitations,
  findInvitationByHash,
  insertInvitation,
} from './invitations.repository';
import { requireInScope, type Inviter, type Manager } from './users-admin.service';
import { findUserById, updatePasswordHash, type UserRow } from './users.repository';

type InvitationDeps = Pick<AppContext, 'db' | 'config' | 'passwords' | 'mailer'>;

/**
 * As for e-mail changes: the e-mailed token is 256 random bits and the database keeps only its
 * HMAC (key derived from QC_SECRET_KEY, its own purpose), so a dump yields no usable link. Expiry
 * (QC_INVITATION_TTL) and single use are the row's.
 */
const tokenHash = (deps: Pick<AppContext, 'config'>) => createKeyedHash(deps.config.secretKey, 'invitation');

/** Bilingual, French first (DESIGN §10), like the console's other e-mails. */
export const INVITATION_SUBJECT =
  'Quarantine Console\u00a0: invitation à créer votre mot de passe / Invitation to set your password';

export function invitationText(email: string, link: string, ttlSeconds: number): string {
  const hours = hoursText(ttlSeconds);
  return (
    `Un compte Quarantine Console a été créé pour ${email}.\n\n` +
    `Pour choisir votre mot de passe, ouvrez ce lien\u00a0:\n${link}\n\n` +
    `Le lien expire dans ${hours.fr} et ne fonctionne qu’une fois. ` +
    `Si vous n’attendiez pas cette invitation, ignorez cet e-mail.\n\n` +
    `-----\n\n` +
    `A Quarantine Console account was created for ${email}.\n\n` +
    `To choose your password, open this link:\n${link}\n\n` +
    `The link expires in ${hours.en} and works once. If you did not expect this invitation, ignore this e-mail.\n`
  );
}

const sendFailed = (err: unknown) =>
  // The relay's words go to the log (the error handler logs 5xx with their cause), not to the client.
  Object.assign(new HttpError(502, 'email_send_failed', 'The invitation e-mail could not be sent.'), { cause: err });

export function createInviter(deps: Pick<AppContext, 'config' | 'mailer'>): Inviter {
  return {
    async record(db, userId, now) {
      const token = randomBytes(32).toString('base64url');
      const id = newId(now);
      await insertInvitation(db, {
        id,
        user_id: userId,
        token_hash: tokenHash(deps)(token),
        created_at: now,
        expires_at: now + deps.config.invitationTtl * 1000,
        used_at: null,
      });
      return { id, token };
    },
    async send(user: UserRow, token: string) {
      // Built from QC_PUBLIC_URL, never from the request's Host header (which a client chooses).
      const link = `${deps.config.publicUrl}${INVITATION_PATH}?token=${token}`;
      try {
        await deps.mailer.send({
          to: user.email,
          subject: INVITATION_SUBJECT,
          text: invitationText(user.email, link, deps.config.invitationTtl),
        });
      } catch (err) {
        throw sendFailed(err);
      }
    },
    discard: (db: DbExecutor, id: string) => deleteInvitation(db, id),
  };
}

const invalidLink = () =>
  new HttpError(400, 'invitation_invalid', 'This invitation link is not valid or was already used.', {
    token: 'This invitation link is not valid or was already used.',
  });

/**
 * POST /api/users/{id}/invitation/: a new link for a user who has not set a password yet; their
 * earlier links stop working once it is sent. 409 invitation_not_pending once they have a password.
 */
export async function resendInvitation(deps: InvitationDeps, by: Manager, id: string): Promise<void> {
  const user = await requireInScope(deps.db, by, id);
  // A directory (or SSO) account never gets a console password: it would outlive a lock there.
  if (user.source !== 'local') {
    throw new HttpError(
      409,
      'invitation_not_pending',
      'This account signs in through the directory: no password to set.',
    );
  }
  if (user.password_hash !== '') {
    throw new HttpError(409, 'invitation_not_pending', 'This user has already set a password.');
  }
  const inviter = createInviter(deps);
  const invitation = await inviter.record(deps.db, user.id, Date.now());
  try {
    await inviter.send(user, invitation.token);
  } catch (err) {
    await inviter.discard(deps.db, invitation.id);
    throw err;
  }
  await dropUnusedInvitations(deps.db, user.id, invitation.id);
}

/**
 * POST /api/auth/invitation/ (anonymous: the token is the credential). Sets the password and spends
 * the link in one transaction; of two racing acceptances one wins, the other is invitation_invalid.
 */
export async function acceptInvitation(deps: InvitationDeps, input: InvitationAcceptRequest): Promise<void> {
  const now = Date.now();
  const row = await findInvitationByHash(deps.db, tokenHash(deps)(input.token));
  if (!row || row.used_at !== null) throw invalidLink();
  if (row.expires_at <= now) {
    throw new HttpError(400, 'invitation_expired', 'This invitation link has expired.', {
      token: 'This invitation link has expired.',
    });
  }
  // A deactivated account gets no password from its link (it works again once reactivated).
  const user = await findUserById(deps.db, row.user_id);
  if (!user || user.is_active !== 1 || user.source !== 'local') throw invalidLink();
  // Hashed only for a live link: a guessed token costs no hashing.
  const hash = await deps.passwords.hash(input.password);
  await deps.db.transaction().execute(async (trx) => {
    if (!(await claimInvitation(trx, row.id, now))) throw invalidLink();
    await updatePasswordHash(trx, row.user_id, hash);
    await dropUnusedInvitations(trx, row.user_id);
    await revokeUserSessions(trx, row.user_id, now);
  });
}
