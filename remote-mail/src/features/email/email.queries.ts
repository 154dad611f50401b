import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { deleteEmail, getEmail, getRawEmail, releaseEmail } from '../quarantine/quarantine.api';
import { dashboardKeys } from '../dashboard/dashboard.queries';
import { FOLLOW_EVERY_MS, FOLLOW_TRIES, quarantineKeys } from '../quarantine/quarantine.queries';

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

/**
 * While the e-mail is `releasing` (a release answered 202, or one under way when the page opened),
 * its detail is fetched again every FOLLOW_EVERY_MS, FOLLOW_TRIES times at most; once it settles,
 * the lists and counts refresh too. `gaveUp`: still under way after that (the history will tell).
 */
export function useFollowRelease(id: string, releasing: boolean): { gaveUp: boolean } {
  const queryClient = useQueryClient();
  const [tries, setTries] = useState(0);
  // A new release under way starts a new count (state adjusted while rendering, not in an effect).
  const [wasReleasing, setWasReleasing] = useState(releasing);
  if (wasReleasing !== releasing) {
    setWasReleasing(releasing);
    if (releasing) setTries(0);
  }
  const followed = useRef(false);
  useEffect(() => {
    if (!releasing) {
      if (followed.current) {
        followed.current = false;
        void queryClient.invalidateQueries({ queryKey: quarantineKeys.lists });
        void queryClient.invalidateQueries({ queryKey: dashboardKeys.counts });
      }
      return;
    }
    followed.current = true;
    if (tries >= FOLLOW_TRIES) return;
    const timer = setTimeout(() => {
      setTries((n) => n + 1);
      void queryClient.invalidateQueries({ queryKey: quarantineKeys.detail(id) });
    }, FOLLOW_EVERY_MS);
    return () => clearTimeout(timer);
  }, [id, releasing, tries, queryClient]);
  return { gaveUp: releasing && tries >= FOLLOW_TRIES };
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
