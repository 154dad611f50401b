import { StatisticsPage } from '../features/statistics/Page';
import { RemoteRoot } from './RemoteRoot';

/** remote_mail/Statistics: the host mounts it at `statistics` (no sub-paths: anything below is not found). */
export default function ExposedStatistics() {
  return (
    <RemoteRoot>
      <StatisticsPage />
    </RemoteRoot>
  );
}
