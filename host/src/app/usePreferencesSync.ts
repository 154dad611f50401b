import { useSession } from '@qc/auth';
import { usePreferences } from '@qc/ui-state';
import { useEffect } from 'react';

/** Spec §4: preferences reload when the authentication state or the user id changes. */
export function usePreferencesSync() {
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  const userId = useSession((s) => s.user?.id ?? null);
  useEffect(() => {
    usePreferences.getState().reload();
  }, [isAuthenticated, userId]);
}
