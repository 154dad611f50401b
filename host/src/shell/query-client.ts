import { QueryClient } from '@tanstack/react-query';
import { readApiError } from '@qc/api-client';
import { useSession } from '@qc/auth';

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

/**
 * Whatever ends a session (this tab's logout, another tab's, a refused refresh) or changes its user,
 * the next person to sign in on this page must not be shown the last one's cached mail, history or
 * identity (`['me']` would otherwise overwrite the new user in the session store).
 */
export function clearOnSessionChange(client: QueryClient): () => void {
  return useSession.subscribe((now, before) => {
    const signedOut = before.isAuthenticated && !now.isAuthenticated;
    const otherUser = !!before.user && !!now.user && before.user.id !== now.user.id;
    if (signedOut || otherUser) client.clear();
  });
}
