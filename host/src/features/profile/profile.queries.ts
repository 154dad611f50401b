import {
  changePassword,
  confirmEmailChange,
  disableMfa,
  enableMfa,
  getCurrentUser,
  readApiError,
  regenerateBackupCodes,
  setupMfa,
  updateProfile,
} from '@qc/api-client';
import { useSession } from '@qc/auth';
import type { CurrentUser, ProfileResponse } from '@qc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

/** The same key as the layout's current-user query: one cache entry for the signed-in user. */
export const meKey = ['me'] as const;

/** GET /api/users/me/ (seeded from the session; the layout mirrors it into the session store). */
export function useMe() {
  const user = useSession((s) => s.user);
  return useQuery({
    queryKey: meKey,
    queryFn: getCurrentUser,
    ...(user ? { initialData: user } : {}),
    staleTime: 60_000,
  });
}

/** After a change: the ['me'] cache and the session user at once (avatar, name in the top bar…). */
function useApplyUser() {
  const queryClient = useQueryClient();
  return useCallback(
    (user: CurrentUser) => {
      queryClient.setQueryData(meKey, user);
      useSession.getState().setUser(user);
    },
    [queryClient],
  );
}

/** MFA switched on/off: shown at once, then re-read from the server. */
function useMarkMfa() {
  const queryClient = useQueryClient();
  const apply = useApplyUser();
  return useCallback(
    (enabled: boolean) => {
      const user = queryClient.getQueryData<CurrentUser>(meKey) ?? useSession.getState().user;
      if (user) apply({ ...user, mfa_enabled: enabled });
      void queryClient.invalidateQueries({ queryKey: meKey });
    },
    [queryClient, apply],
  );
}

/** PATCH /api/users/me/: answers the user and the e-mail awaiting confirmation (`pending_email`). */
export function useUpdateProfile() {
  const apply = useApplyUser();
  return useMutation({ mutationFn: updateProfile, onSuccess: (res: ProfileResponse) => apply(res) });
}

/** POST /api/users/me/email/confirm/ */
export function useConfirmEmail() {
  const apply = useApplyUser();
  return useMutation({
    mutationFn: confirmEmailChange,
    onSuccess: (res: ProfileResponse) => apply(res),
  });
}

/** POST /api/users/me/password/ (a wrong current password is a 400: no refresh, no sign-out). */
export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}

export function useMfaSetup() {
  return useMutation({ mutationFn: setupMfa });
}

export function useEnableMfa() {
  const markMfa = useMarkMfa();
  return useMutation({ mutationFn: enableMfa, onSuccess: () => markMfa(true) });
}

export function useDisableMfa() {
  const markMfa = useMarkMfa();
  return useMutation({ mutationFn: disableMfa, onSuccess: () => markMfa(false) });
}

export function useRegenerateBackupCodes() {
  return useMutation({ mutationFn: regenerateBackupCodes });
}

/** The API's per-field messages of a failed call (400/409), if any. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  return readApiError(error).errors ?? {};
}
