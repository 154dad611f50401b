import type { DashboardCounts } from '@qc/contracts';
import type { Db } from '../../db/database';
import type { AuthContext } from '../auth/auth.service';
import { addressesOfUser } from '../quarantine/quarantine-scope';
import { countsForRecipient, countsForScope, type StatusCounts } from './dashboard.repository';

/** Counts recipient rows (status is per recipient). Mail still held — releasing, failed or unknown — is pending. */
function toDashboard(c: StatusCounts): DashboardCounts {
  return {
    pending: (c.pending ?? 0) + (c.releasing ?? 0) + (c.release_failed ?? 0) + (c.release_unknown ?? 0),
    released: c.released ?? 0,
    deleted: c.deleted ?? 0,
  };
}

/** Only what the caller may see: admin everything, domain_admin their domain, user their addresses. */
export async function dashboardFor(db: Db, auth: AuthContext): Promise<DashboardCounts> {
  const { user } = auth;
  switch (user.role) {
    case 'admin':
      return toDashboard(await countsForScope(db, 'global', '*'));
    case 'domain_admin':
      return user.domain_name ? toDashboard(await countsForScope(db, 'domain', user.domain_name)) : toDashboard({});
    default:
      return toDashboard(await countsForRecipient(db, addressesOfUser(user)));
  }
}
