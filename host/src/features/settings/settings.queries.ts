import { getPreferences, savePreferences } from '@qc/api-client';
import type { Preferences } from '@qc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

export const settingsKeys = { preferences: ['preferences'] as const };

/** GET /api/users/me/preferences/ (the account copy of userPreferences). */
export function useServerPreferences() {
  return useQuery({ queryKey: settingsKeys.preferences, queryFn: getPreferences, staleTime: 60_000, retry: false });
}

/** PUT /api/users/me/preferences/ */
export function useSavePreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (prefs: Preferences) => savePreferences(prefs),
    onSuccess: (saved) => queryClient.setQueryData(settingsKeys.preferences, saved),
  });
}
