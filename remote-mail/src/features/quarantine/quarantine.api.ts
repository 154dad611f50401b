import { api, fetchBlob, LONG_ACTION_TIMEOUT_MS } from '@qc/api-client';
import type {
  BulkAction,
  BulkResponse,
  ListQueryParams,
  QuarantineDetail,
  QuarantineList,
  ReleaseInProgress,
  ReleaseResponse,
} from './quarantine.types';

/**
 * Calls of the quarantine endpoints (DESIGN §4) through the app's api client: Bearer header,
 * one refresh on 401. Failures reject with ky's HTTPError (read them with readApiError()).
 */

const emailPath = (id: string) => `quarantine/${encodeURIComponent(id)}/`;

/** GET /api/quarantine/: one keyset page. */
export function listQuarantine(query: ListQueryParams, signal?: AbortSignal): Promise<QuarantineList> {
  const searchParams = Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== ''));
  return api.get('quarantine/', { searchParams, ...(signal ? { signal } : {}) }).json<QuarantineList>();
}

/** GET /api/quarantine/{id}/ */
export function getEmail(id: string, signal?: AbortSignal): Promise<QuarantineDetail> {
  return api.get(emailPath(id), signal ? { signal } : {}).json<QuarantineDetail>();
}

/**
 * GET /api/quarantine/{id}/raw/ as a Blob, with the Authorization header (never a token in a URL,
 * DESIGN §7). The server records it in the history as a download.
 */
export function getRawEmail(id: string, signal?: AbortSignal): Promise<Blob> {
  return fetchBlob(`/api/${emailPath(id)}raw/`, signal);
}

/** The raw message to save as a file, named as the server suggests (Content-Disposition). */
export async function downloadRawEmail(id: string): Promise<{ blob: Blob; filename: string }> {
  const response = await api.get(`${emailPath(id)}raw/`, { headers: { Accept: 'message/rfc822, */*' } });
  const suggested = suggestedFilename(response.headers.get('content-disposition') ?? '');
  return { blob: await response.blob(), filename: safeFilename(suggested, id) };
}

/** The name a Content-Disposition suggests: `filename*` (UTF-8, RFC 5987) when given, else `filename`. */
export function suggestedFilename(disposition: string): string {
  const written = /filename\*=UTF-8''([^;\s]+)/i.exec(disposition)?.[1];
  if (written) {
    try {
      return decodeURIComponent(written);
    } catch {
      // Malformed percent-encoding: the ASCII name below.
    }
  }
  return /filename="([^"]+)"/i.exec(disposition)?.[1] ?? '';
}

/** A name safe on any file system, ending in .eml. */
export function safeFilename(suggested: string, id: string): string {
  const base = suggested
    .replace(/\.eml$/i, '')
    .replace(/[^\p{L}\p{N} ._-]+/gu, '_')
    .replace(/[ ._]{2,}/g, '_')
    .replace(/^[ ._]+|[ ._]+$/g, '')
    .slice(0, 100);
  return `${base || id.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 100) || 'message'}.eml`;
}

/**
 * POST /api/quarantine/{id}/release/; `confirmResend` after an unknown outcome (may deliver twice).
 * 202 `releasing`: the relay had not answered in time, the release goes on (the detail follows it).
 */
export function releaseEmail(id: string, confirmResend = false): Promise<ReleaseResponse | ReleaseInProgress> {
  return api
    .post(`${emailPath(id)}release/`, {
      timeout: LONG_ACTION_TIMEOUT_MS,
      ...(confirmResend ? { json: { confirm_resend: true } } : {}),
    })
    .json<ReleaseResponse | ReleaseInProgress>();
}

/** DELETE /api/quarantine/{id}/ → 204. */
export async function deleteEmail(id: string): Promise<void> {
  await api.delete(emailPath(id));
}

/** POST /api/quarantine/bulk/: the same action on each id; one result per id. */
export function bulkAction(ids: string[], action: BulkAction): Promise<BulkResponse> {
  return api.post('quarantine/bulk/', { json: { ids, action }, timeout: LONG_ACTION_TIMEOUT_MS }).json<BulkResponse>();
}
