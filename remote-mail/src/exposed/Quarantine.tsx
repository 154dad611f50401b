import { QuarantineRoutes } from '../features/quarantine/QuarantineRoutes';
import { RemoteRoot } from './RemoteRoot';

/** remote_mail/Quarantine: the host mounts it at `mail/*` (list at /mail, detail at /mail/{id}). */
export default function ExposedQuarantine() {
  return (
    <RemoteRoot>
      <QuarantineRoutes />
    </RemoteRoot>
  );
}
