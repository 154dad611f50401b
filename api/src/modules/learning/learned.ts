import type { LearnedState, Role } from '@qc/contracts';
import type { Config } from '../../config';
import type { DbExecutor } from '../../db/database';
import type { AuthContext } from '../auth/auth.service';
import type { MessageRow } from '../quarantine/quarantine.repository';
import { addressesOfUser } from '../quarantine/quarantine-scope';

/** Whether this role may teach Rspamd's Bayes, shared by every user (QC_LEARN_ROLES). */
export const mayLearn = (config: Pick<Config, 'learnRoles'>, role: Role): boolean => config.learnRoles.includes(role);

/**
 * Who learned a message is shown to that person, to admins, and to the domain_admin of the
 * learner's domain (their account's, as now); to anyone else `by` is null: a user must not learn
 * which admin (or which co-recipient) handled a mail they share.
 */
export async function learnerShownTo(db: DbExecutor, auth: AuthContext, by: string | null): Promise<string | null> {
  const me = auth.user;
  if (by === null) return null;
  // learned_by is the learner's e-mail as it was: any address of the caller's (issue 31) is them.
  if (me.role === 'admin' || addressesOfUser(me).includes(by.toLowerCase())) return by;
  if (me.role !== 'domain_admin' || !me.domain_id) return null;
  const learner = await db.selectFrom('users').select('domain_id').where('email', '=', by).executeTakeFirst();
  return learner?.domain_id === me.domain_id ? by : null;
}

/** The detail's `learned`, `by` as learnerShownTo allows. */
export async function learnedState(
  db: DbExecutor,
  auth: AuthContext,
  m: Pick<MessageRow, 'learned_as' | 'learned_at' | 'learned_by'>,
): Promise<LearnedState | null> {
  if (!m.learned_as || m.learned_at === null) return null;
  return {
    as: m.learned_as,
    at: new Date(Number(m.learned_at)).toISOString(),
    by: await learnerShownTo(db, auth, m.learned_by),
  };
}
