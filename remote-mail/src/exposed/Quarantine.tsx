import { QuarantinePage } from '../features/quarantine/Page';
import { RemoteRoot } from './RemoteRoot';

/** remote_mail/Quarantine (/mail and /mail/{id}) */
export default function ExposedQuarantine() {
  return (
    <RemoteRoot>
      <QuarantinePage />
    </RemoteRoot>
  );
}
