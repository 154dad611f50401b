import type { DbExecutor } from '../../db/database';
import { recipientDomain } from '../../lib/addresses';
import { HttpError } from '../../lib/http-error';
import { otherOwners } from './user-addresses.repository';

/**
 * The rules of a user's addresses (issue 31, DESIGN §4.2 "user shape"): each new address is in a
 * domain of the console (a domain_admin: theirs), and has one owner.
 */

export const addressTaken = (address: string, owner?: string) =>
  new HttpError(
    409,
    'address_taken',
    owner
      ? `The address ${address} belongs to another account (${owner}).`
      : `The address ${address} belongs to another account.`,
    { addresses: `${address} belongs to another account.` },
  );

const invalidAddresses = (message: string) =>
  new HttpError(400, 'validation_error', 'The request is not valid.', { addresses: message });

/** Lower case, each once, in the given order (the first is the primary). */
export function uniqueAddresses(addresses: string[]): string[] {
  return [...new Set(addresses.map((a) => a.toLowerCase()))];
}

export const sameAddresses = (a: readonly string[], b: readonly string[]) =>
  a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Checks the addresses a user is given. `known`: addresses they have already (kept as they are,
 * whatever their domain: an account made before its domain was). `ownDomain`: a domain_admin's
 * domain, the only one they may give.
 */
export async function assertAddressesAllowed(
  db: DbExecutor,
  userId: string,
  addresses: string[],
  known: readonly string[],
  ownDomain: string | null | undefined,
): Promise<void> {
  const added = addresses.filter((a) => !known.includes(a));
  if (!added.length) return;
  const domains = [...new Set(added.map(recipientDomain))];
  const consoleDomains = new Set(
    (await db.selectFrom('domains').select('name').where('name', 'in', domains).execute()).map((d) => d.name),
  );
  for (const address of added) {
    const domain = recipientDomain(address);
    if (ownDomain !== undefined && domain !== ownDomain) {
      throw invalidAddresses(
        `A domain admin can only give addresses of their own domain (@${ownDomain ?? '?'}): ${address}.`,
      );
    }
    if (!consoleDomains.has(domain)) throw invalidAddresses(`${address} is not in a domain of this console.`);
  }
  const owners = await otherOwners(db, userId, added);
  const [taken] = owners;
  if (taken) throw addressTaken(taken[0], taken[1].email);
}
