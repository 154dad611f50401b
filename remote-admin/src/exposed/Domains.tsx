import { DomainsRoutes } from '../features/domains/DomainsRoutes';
import { RemoteRoot } from './RemoteRoot';

/** remote_admin/Domains: the host mounts it at `domains/*` (list, `new`, `{id}`) for admins. */
export default function ExposedDomains() {
  return (
    <RemoteRoot>
      <DomainsRoutes />
    </RemoteRoot>
  );
}
