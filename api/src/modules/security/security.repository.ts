import type { Role } from '@qc/contracts';
import type { DbExecutor } from '../../db/database';

/** The account a security event is about, with its domain's name (its domain_admin reads the event). */
export interface SecuritySubject {
  id: string;
  email: string;
  username: string;
  role: Role;
  domain_name: string | null;
}

export async function findSecuritySubject(
  db: DbExecutor,
  by: { id: string } | { email: string },
): Promise<SecuritySubject | undefined> {
  const query = db
    .selectFrom('users')
    .leftJoin('domains', 'domains.id', 'users.domain_id')
    .select(['users.id', 'users.email', 'users.username', 'users.role', 'domains.name as domain_name']);
  return (
    'id' in by ? query.where('users.id', '=', by.id) : query.where('users.email', '=', by.email)
  ).executeTakeFirst();
}
