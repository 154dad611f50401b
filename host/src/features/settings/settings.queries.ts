import { getPreferences, savePreferences } from '@qc/api-client';
import { useSession } from '@qc/auth';
import { usePreferences } from '@qc/ui-state';
import type { Preferences } from '@qc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { markSynced, syncPreferences } from './preferences-sync';

/** Per user: another user signing in on this browser reads their own copy, not a cached one. */
export const settingsKeys = { preferences: (userId: string | undefined) => ['preferences', userId ?? null] as const };

/** GET /api/users/me/preferences/ (the account copy of userPreferences). */
export function useServerPreferences() {
  const userId = useSession((s) => s.user?.id);
  return useQuery({
    queryKey: settingsKeys.preferences(userId),
    queryFn: getPreferences,
    staleTime: 60_000,
    retry: false,
  });
}

/**
 * Spec §3: the preferences reload when the authentication state or the user changes. The signed-in
 * shell reads the account copy and merges it over the local one, so a theme saved on another
 * machine applies on any page, not only once /settings is opened.
 */
export function useAccountPreferences() {
  const server = useServerPreferences();
  const queryClient = useQueryClient();
  const userId = useSession((s) => s.user?.id);
  useEffect(() => {
    if (!server.data) return;
    syncPreferences(server.data).then(
      (now) => now !== server.data && queryClient.setQueryData(settingsKeys.preferences(userId), now),
      () => undefined, // the account copy stays behind; the local choice stays unsynced and is tried again
    );
  }, [server.data, queryClient, userId]);
}

/** PUT /api/users/me/preferences/ */
export function useSavePreferences() {
  const queryClient = useQueryClient();
  const userId = useSession((s) => s.user?.id);
  return useMutation({
    mutationFn: (prefs: Preferences) => savePreferences(prefs),
    onSuccess: (saved) => {
      markSynced(usePreferences.getState().preferences);
      queryClient.setQueryData(settingsKeys.preferences(userId), saved);
    },
  });
}
