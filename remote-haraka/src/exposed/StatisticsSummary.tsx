import { SummaryPage } from '../features/statistics/SummaryPage';
import { RemoteRoot } from './RemoteRoot';

/** remote_haraka/StatisticsSummary: the host mounts it at `haraka/statistics/summary` for admins. */
export default function ExposedStatisticsSummary() {
  return (
    <RemoteRoot>
      <SummaryPage />
    </RemoteRoot>
  );
}
