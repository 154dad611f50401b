import { ApanelRoutes } from '../features/apanel/ApanelRoutes';
import { RemoteRoot } from './RemoteRoot';

/** remote_rspamd/ApanelFilters: the host mounts it at `rspamd/apanel-filters/*` (list, create, edit) for admins. */
export default function ExposedApanelFilters() {
  return (
    <RemoteRoot>
      <ApanelRoutes />
    </RemoteRoot>
  );
}
