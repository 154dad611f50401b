import { api, LONG_ACTION_TIMEOUT_MS } from '@qc/api-client';
import { suggestedFilename } from '../quarantine/quarantine.api';
import type { ReleaseInProgress, ReleaseResponse } from '../quarantine/quarantine.types';

const emailPath = (id: string) => `quarantine/${encodeURIComponent(id)}/`;

/** A name safe on any file system; its extension kept (what the file claims to be stays visible). */
export function attachmentFilename(suggested: string, index: number): string {
  const name = suggested
    .replace(/[^\p{L}\p{N} ._-]+/gu, '_')
    .replace(/[ _]{2,}/g, '_')
    .replace(/^[ ._]+|[ ._]+$/g, '')
    .slice(-120);
  return name || `attachment-${index + 1}`;
}

/**
 * GET /api/quarantine/{id}/attachments/{index}/: one attachment's bytes, as a file to save (the
 * server sends it as application/octet-stream, never to render). Recorded as a download.
 */
export async function downloadAttachment(id: string, index: number): Promise<{ blob: Blob; filename: string }> {
  const response = await api.get(`${emailPath(id)}attachments/${index}/`, {
    headers: { Accept: 'application/octet-stream, */*' },
  });
  const suggested = suggestedFilename(response.headers.get('content-disposition') ?? '');
  return { blob: await response.blob(), filename: attachmentFilename(suggested, index) };
}

/**
 * POST /api/quarantine/{id}/release-to/: a copy to another address of the caller's scope (202
 * `releasing`: the relay had not answered in time, the outcome goes to the history).
 */
export function releaseTo(id: string, address: string): Promise<ReleaseResponse | ReleaseInProgress> {
  return api
    .post(`${emailPath(id)}release-to/`, { timeout: LONG_ACTION_TIMEOUT_MS, json: { address } })
    .json<ReleaseResponse | ReleaseInProgress>();
}
