import type { AppContext } from '../../app-context';
import { HttpError } from '../../lib/http-error';
import { revokeUserSessions } from '../auth/auth.repository';
import type { RequestOrigin } from '../security/security-events';
import { findUserById, type UserRow } from '../users/users.repository';
import { DirectoryUnavailableError, type Directory } from './directory';
import { directoryUnavailable } from './directory-common';
import { provisionDirectoryAccount } from './directory-accounts';

/**
 * Sign-in through the directory (issue 31): the person is found with the service account and
 * binds with the typed password; then their console account is made or brought up to date.
 */

type Deps = Pick<AppContext, 'db' | 'passwords'>;

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
  return (await provisionDirectoryAccount(deps.db, directory, person, origin)).user;
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
    return !(await provisionDirectoryAccount(deps.db, directory, person, origin)).revoked;
  } catch (err) {
    if (!(err instanceof HttpError)) throw err;
    // Refused (disabled, no console domain, an address now another account's): the sessions end.
    await revokeUserSessions(deps.db, userId, Date.now());
    return false;
  }
}
