import { DashboardPage } from '../features/dashboard/Page';
import { RemoteRoot } from './RemoteRoot';

/** remote_mail/Dashboard */
export default function ExposedDashboard() {
  return (
    <RemoteRoot>
      <DashboardPage />
    </RemoteRoot>
  );
}
