import { getDashboardCounts } from '@qc/api-client';
import { useQuery } from '@tanstack/react-query';

export const dashboardKeys = { counts: ['dashboard'] as const };

/** GET /api/dashboard/ through the host's QueryClient (shared react-query singleton). */
export function useDashboardCounts() {
  return useQuery({ queryKey: dashboardKeys.counts, queryFn: getDashboardCounts });
}
