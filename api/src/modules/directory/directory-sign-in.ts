import type { AppContext } from '../../app-context';
import { HttpError } from '../../lib/http-error';
import { revokeUserSessions } from '../auth/auth.repository';
import type { RequestOrigin } from '../security/security-events';
import { findUserById, type UserRow } from '../users/users.repository';
import { DirectoryUnavailableError, type Directory, type DirectoryPerson } from './directory';
import { directoryUnavailable } from './directory-common';
import {
  applyPlan,
  planAccount,
  PlanOutdatedError,
  refusalError,
  type DirectoryPlan,
} from './directory-accounts.service';

/**
 * Sign-in through the directory (issue 31): the person is found with the service account and
 * binds with the typed password; then their console account is made or brought up to date.
 */

type Deps = Pick<AppContext, 'db' | 'passwords'>;

/** A refused plan: the account loses its sessions (disabled, no longer in a console domain), the log names a conflict. */
async function refuse(deps: Deps, origin: RequestOrigin, plan: DirectoryPlan): Promise<HttpError> {
  const refusal = plan.refusal!;
  if (plan.existing && refusal !== 'directory_address_conflict') {
    await revokeUserSessions(deps.db, plan.existing.id, Date.now());
  }
  if (refusal === 'directory_address_conflict') {
    const taken = plan.addresses.filter((a) => a.reason === 'taken').map((a) => `${a.address} (owned by ${a.owner})`);
    origin.log.warn(
      { event: 'directory_address_conflict', dn: plan.person.dn, addresses: taken },
      `directory sign-in refused: ${taken.join(', ')} already belong to other accounts`,
    );
  }
  return refusalError(refusal);
}

/**
 * The account the typed login and password open through the directory, or a refusal: null for an
 * unknown person or a wrong password (the caller answers 401 as for a local account), HttpError
 * for the rest. The password is checked by the directory only; the dummy hash keeps the answer's
 * time that of a local sign-in, whether the person exists or not.
 */
export async function directorySignIn(
  deps: Deps,
  directory: Directory,
  account: string,
  password: string,
  origin: RequestOrigin,
): Promise<UserRow | null> {
  let person;
  try {
    person = await directory.authenticate(account, password);
  } catch (err) {
    if (!(err instanceof DirectoryUnavailableError)) throw err;
    origin.log.warn({ event: 'directory_unavailable', account, err: err.message }, 'directory sign-in: unavailable');
    throw directoryUnavailable();
  }
  await deps.passwords.verifyDummy(password);
  if (!person) return null;
  return (await provision(deps, directory, person, origin)).user;
}

/**
 * The person's account made or brought up to date, or the refusal thrown. A write that lost a race
 * (the same first sign-in twice at once: a double click) is planned again once, then an update.
 */
async function provision(deps: Deps, directory: Directory, person: DirectoryPerson, origin: RequestOrigin) {
  for (let attempt = 0; ; attempt++) {
    const plan = await planAccount(deps.db, directory, person);
    if (plan.refusal) throw await refuse(deps, origin, plan);
    try {
      return await applyPlan(deps.db, plan, origin.ip);
    } catch (err) {
      if (!(err instanceof PlanOutdatedError)) throw err;
      if (attempt > 0) throw refusalError('directory_address_conflict');
    }
  }
}

/**
 * At each refresh of a directory account's session: whether it may go on. A person removed or
 * disabled in the directory, or now outside the console's domains, loses every session; a change
 * of role or domain ends them too (the next sign-in carries the new one). A directory that cannot
 * be reached ends nothing: an outage must not sign everyone out.
 */
export async function directoryAllowsRefresh(
  deps: Deps,
  directory: Directory,
  userId: string,
  origin: RequestOrigin,
): Promise<boolean> {
  const user = await findUserById(deps.db, userId);
  if (!user || user.source !== 'ldap' || !user.external_id) return true;
  let person;
  try {
    person = await directory.findByDn(user.external_id);
  } catch (err) {
    if (!(err instanceof DirectoryUnavailableError)) throw err;
    origin.log.warn(
      { event: 'directory_unavailable', user_id: userId, err: err.message },
      'refresh: directory unavailable, session kept',
    );
    return true;
  }
  if (!person) {
    await revokeUserSessions(deps.db, userId, Date.now());
    origin.log.info(
      { event: 'directory_removed', user_id: userId },
      'refresh: the person is no longer in the directory',
    );
    return false;
  }
  try {
    return !(await provision(deps, directory, person, origin)).revoked;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    // Refused (disabled, no console domain, an address now another account's): the sessions end.
    await revokeUserSessions(deps.db, userId, Date.now());
    return false;
  }
}
