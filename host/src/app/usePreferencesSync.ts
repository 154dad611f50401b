import { useSession } from '@qc/auth';
import { forgetUnsynced, usePreferences } from '@qc/ui-state';
import { useEffect, useRef } from 'react';

/** Spec §4: preferences reload when the authentication state or the user id changes. */
export function usePreferencesSync() {
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  const userId = useSession((s) => s.user?.id ?? null);
  const signedInAs = useRef<string | null>(null);
  useEffect(() => {
    usePreferences.getState().reload();
    // Signed out (or another user): choices the account did not get are not the next user's.
    if (signedInAs.current && signedInAs.current !== userId) forgetUnsynced();
    signedInAs.current = isAuthenticated ? userId : null;
  }, [isAuthenticated, userId]);
}
