import { SystemRulesRoutes } from '../features/system-rules/SystemRulesRoutes';
import { RemoteRoot } from './RemoteRoot';

/** remote_rspamd/SystemRules: the host mounts it at `rspamd/system-rules/*` (list, create, edit) for admins. */
export default function ExposedSystemRules() {
  return (
    <RemoteRoot>
      <SystemRulesRoutes />
    </RemoteRoot>
  );
}
