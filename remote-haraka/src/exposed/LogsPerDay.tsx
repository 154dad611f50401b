import { LogsPerDayPage } from '../features/statistics/LogsPerDayPage';
import { RemoteRoot } from './RemoteRoot';

/** remote_haraka/LogsPerDay: the host mounts it at `haraka/statistics/logs-per-day` for admins. */
export default function ExposedLogsPerDay() {
  return (
    <RemoteRoot>
      <LogsPerDayPage />
    </RemoteRoot>
  );
}
