import {
  getNotificationDefaults,
  getNotificationSettings,
  saveNotificationDefaults,
  saveNotificationSettings,
  sendTestDigest,
  type NotificationSettingsBody,
} from '@qc/api-client';
import { useSession } from '@qc/auth';
import type { NotificationDefaults } from '@qc/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';

/** Per user: another user signing in on this browser reads their own settings, not a cached copy. */
export const notificationKeys = {
  settings: (userId: string | undefined) => ['notification-settings', userId ?? null] as const,
  defaults: ['notification-defaults'] as const,
};

/** GET /api/users/me/notifications/ */
export function useNotificationSettings() {
  const userId = useSession((s) => s.user?.id);
  return useQuery({
    queryKey: notificationKeys.settings(userId),
    queryFn: ({ signal }) => getNotificationSettings(signal),
    retry: false,
  });
}

/** PUT /api/users/me/notifications/ */
export function useSaveNotificationSettings() {
  const queryClient = useQueryClient();
  const userId = useSession((s) => s.user?.id);
  return useMutation({
    mutationFn: (body: NotificationSettingsBody) => saveNotificationSettings(body),
    onSuccess: (saved) => queryClient.setQueryData(notificationKeys.settings(userId), saved),
  });
}

/** POST /api/users/me/notifications/test/ */
export function useSendTestDigest() {
  const queryClient = useQueryClient();
  const userId = useSession((s) => s.user?.id);
  return useMutation({
    mutationFn: sendTestDigest,
    // A test send may change "last sent" / "last attempt failed".
    onSettled: () => queryClient.invalidateQueries({ queryKey: notificationKeys.settings(userId) }),
  });
}

/** GET /api/notifications/defaults/ (admin only: not asked for other roles). */
export function useNotificationDefaults(enabled: boolean) {
  return useQuery({
    queryKey: notificationKeys.defaults,
    queryFn: ({ signal }) => getNotificationDefaults(signal),
    enabled,
    retry: false,
  });
}

/** PUT /api/notifications/defaults/ */
export function useSaveNotificationDefaults() {
  const queryClient = useQueryClient();
  const userId = useSession((s) => s.user?.id);
  return useMutation({
    mutationFn: (body: NotificationDefaults) => saveNotificationDefaults(body),
    onSuccess: (saved) => {
      queryClient.setQueryData(notificationKeys.defaults, saved);
      // The admin's own settings follow the defaults while they have not saved their own.
      void queryClient.invalidateQueries({ queryKey: notificationKeys.settings(userId) });
    },
  });
}
