import { LIMITS, type FeedbackCreated, type FeedbackList, type FeedbackType } from '@qc/contracts';
import { api } from './client';

export interface FeedbackSubmission {
  type: FeedbackType;
  message: string;
  email?: string;
  /** Sent as image0, image1, image2. */
  images?: readonly Blob[];
}

/** POST /api/feedback/ as multipart/form-data, with the 30 s timeout of spec §7/§9. */
export function sendFeedback(f: FeedbackSubmission): Promise<FeedbackCreated> {
  const body = new FormData();
  body.append('type', f.type);
  body.append('message', f.message);
  if (f.email) body.append('email', f.email);
  (f.images ?? []).slice(0, LIMITS.feedbackMaxFiles).forEach((image, i) => {
    const name = 'name' in image && typeof image.name === 'string' ? image.name : `image${i}`;
    body.append(`image${i}`, image, name);
  });
  return api.post('feedback/', { body, timeout: LIMITS.feedbackTimeoutMs }).json<FeedbackCreated>();
}

/** GET /api/feedback/ (admin): newest first; pass `next_cursor` back for the next page. */
export function listFeedback(cursor?: string | null): Promise<FeedbackList> {
  return api.get('feedback/', cursor ? { searchParams: { cursor } } : {}).json<FeedbackList>();
}

/**
 * Bytes of a same-origin API path (e.g. a feedback image's `url`) with the Authorization header, as a
 * Blob: never a token in a URL (DESIGN §7).
 */
export function fetchBlob(path: string, signal?: AbortSignal): Promise<Blob> {
  const relative = path.replace(/^\/?api\//, '');
  return api.get(relative, { ...(signal ? { signal } : {}), headers: { Accept: '*/*' } }).blob();
}
