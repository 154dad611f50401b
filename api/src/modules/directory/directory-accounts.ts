import type { Db, DbExecutor } from '../../db/database';
import type { RequestOrigin } from '../security/security-events';
import {
  planAccount,
  provisionAccount,
  type AccountPlan,
  type ExternalPerson,
  type FindMoved,
} from '../users/external-accounts.service';
import { findUserByEmail } from '../users/users.repository';
import type { Directory, DirectoryPerson } from './directory';
import { dnKey } from './directory-common';

/** A directory person as the console's accounts see them (keyed by their normalised DN). */
const external = (person: DirectoryPerson): ExternalPerson => ({
  source: 'ldap',
  externalId: dnKey(person.dn),
  mail: person.mail,
  aliases: person.aliases,
  role: person.role,
  disabled: person.disabled,
  first_name: person.first_name,
  last_name: person.last_name,
});

/**
 * A person renamed or moved in the directory: the directory account with their primary address,
 * but only once its own DN is gone from the directory. While that DN still names someone, the
 * address is theirs: taking the account would hand it to another person who merely lists the
 * address (then the sign-in is refused as a conflict).
 */
const movedIn =
  (directory: Pick<Directory, 'findByDn'>): FindMoved =>
  async (db: DbExecutor, primary: string) => {
    const byAddress = await findUserByEmail(db, primary);
    if (byAddress?.source !== 'ldap' || !byAddress.external_id) return undefined;
    const previous = await directory.findByDn(byAddress.external_id).catch(() => 'unknown' as const);
    return previous === null ? byAddress : undefined;
  };

/** What the console would make of the directory person; changes nothing (Admin → Directory's test). */
export const planDirectoryAccount = (
  db: DbExecutor,
  directory: Pick<Directory, 'findByDn'>,
  person: DirectoryPerson,
): Promise<AccountPlan> => planAccount(db, external(person), movedIn(directory));

/** The directory person's account made or brought up to date, or the refusal thrown. */
export const provisionDirectoryAccount = (
  db: Db,
  directory: Pick<Directory, 'findByDn'>,
  person: DirectoryPerson,
  origin: RequestOrigin,
) => provisionAccount(db, external(person), origin, movedIn(directory));
