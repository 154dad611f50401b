import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { deleteEmail, getEmail, getRawEmail, releaseEmail } from '../quarantine/quarantine.api';
import { dashboardKeys } from '../dashboard/dashboard.queries';
import { quarantineKeys } from '../quarantine/quarantine.queries';

/** How much of the raw source the Raw tab shows (the download has it all). */
export const RAW_PREVIEW_BYTES = 256 * 1024;

export interface RawPreview {
  text: string;
  /** Size of the whole message, in bytes. */
  size: number;
  truncated: boolean;
}

/** GET /api/quarantine/{id}/ */
export function useEmail(id: string) {
  return useQuery({ queryKey: quarantineKeys.detail(id), queryFn: ({ signal }) => getEmail(id, signal) });
}

/** The raw source as text, fetched only when asked for (Raw tab), capped to RAW_PREVIEW_BYTES. */
export function useRawPreview(id: string) {
  return useQuery({
    queryKey: quarantineKeys.raw(id),
    queryFn: async ({ signal }): Promise<RawPreview> => {
      const blob = await getRawEmail(id, signal);
      const text = await blob.slice(0, RAW_PREVIEW_BYTES).text();
      return { text, size: blob.size, truncated: blob.size > RAW_PREVIEW_BYTES };
    },
    staleTime: Infinity,
  });
}

/** After a release or a deletion: the list pages, this message and the dashboard counts are stale. */
function useInvalidateAfterAction(id: string) {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: quarantineKeys.lists }),
      queryClient.invalidateQueries({ queryKey: quarantineKeys.detail(id) }),
      queryClient.invalidateQueries({ queryKey: dashboardKeys.counts }),
    ]);
}

/** POST /api/quarantine/{id}/release/ (`confirmResend` after an unknown outcome). */
export function useReleaseEmail(id: string) {
  const invalidate = useInvalidateAfterAction(id);
  return useMutation({
    mutationFn: (confirmResend: boolean) => releaseEmail(id, confirmResend),
    // A 502 leaves the message quarantined, but its status/last delivery changed: refresh either way.
    onSettled: () => invalidate(),
  });
}

/** DELETE /api/quarantine/{id}/ */
export function useDeleteEmail(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => deleteEmail(id),
    // The page leaves for the list; a Back to this e-mail refetches it (staleness is the default).
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: quarantineKeys.lists }),
        queryClient.invalidateQueries({ queryKey: dashboardKeys.counts }),
      ]),
  });
}
