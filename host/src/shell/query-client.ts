import { QueryClient } from '@tanstack/react-query';
import { readApiError } from '@qc/api-client';

/**
 * ONE QueryClient for the page: the host provides it and remotes use it through the
 * @tanstack/react-query singleton. Spec §7: no refetch on window focus, 1 retry (not for 4xx
 * answers, which a retry cannot fix; a 401 was already refreshed and replayed by the api client).
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        refetchOnWindowFocus: false,
        retry: (failureCount, error) => {
          const { status } = readApiError(error);
          if (status >= 400 && status < 500) return false;
          return failureCount < 1;
        },
      },
    },
  });
}
