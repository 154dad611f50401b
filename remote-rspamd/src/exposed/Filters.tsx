import { FiltersRoutes } from '../features/filters/FiltersRoutes';
import { RemoteRoot } from './RemoteRoot';

/** remote_rspamd/Filters: the host mounts it at `rspamd/*` (families' lists, create, edit) for admins. */
export default function ExposedFilters() {
  return (
    <RemoteRoot>
      <FiltersRoutes />
    </RemoteRoot>
  );
}
