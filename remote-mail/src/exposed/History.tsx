import { HistoryPage } from '../features/history/Page';
import { RemoteRoot } from './RemoteRoot';

/** remote_mail/History: the host mounts it at `history` (no sub-paths: anything below is not found). */
export default function ExposedHistory() {
  return (
    <RemoteRoot>
      <HistoryPage />
    </RemoteRoot>
  );
}
