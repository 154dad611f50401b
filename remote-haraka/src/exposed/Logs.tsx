import { LogsRoutes } from '../features/logs/LogsRoutes';
import { RemoteRoot } from './RemoteRoot';

/** remote_haraka/Logs: the host mounts it at `haraka/logs/*` (the search, one uuid's lines) for admins. */
export default function ExposedLogs() {
  return (
    <RemoteRoot>
      <LogsRoutes />
    </RemoteRoot>
  );
}
