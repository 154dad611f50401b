import { listFeedback, sendFeedback } from '@qc/api-client';
import { useInfiniteQuery, useMutation } from '@tanstack/react-query';

export const feedbackKeys = { list: ['feedback', 'list'] as const };

/** POST /api/feedback/ (multipart, 30 s timeout). */
export function useSendFeedback() {
  return useMutation({ mutationFn: sendFeedback });
}

/** GET /api/feedback/ (admin), page after page with the keyset cursor. */
export function useFeedbackList() {
  return useInfiniteQuery({
    queryKey: feedbackKeys.list,
    queryFn: ({ pageParam }) => listFeedback(pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next_cursor ?? undefined,
  });
}
