import { api, LONG_ACTION_TIMEOUT_MS } from '@qc/api-client';
import type { LearnAs, LearnResponse, NotSpamRequest, NotSpamResponse } from '@qc/contracts';

const emailPath = (id: string) => `quarantine/${encodeURIComponent(id)}/`;

/** POST /api/quarantine/{id}/learn/ {as}: 200 with Rspamd's answer; 502 rspamd_refused/unavailable. */
export function learnEmail(id: string, as: LearnAs): Promise<LearnResponse> {
  return api.post(`${emailPath(id)}learn/`, { json: { as } }).json<LearnResponse>();
}

/** POST /api/quarantine/{id}/not-spam/: release + learn ham + whitelist, each step's outcome. */
export function notSpam(id: string, body: NotSpamRequest): Promise<NotSpamResponse> {
  // It waits on the relay like a release does.
  return api.post(`${emailPath(id)}not-spam/`, { json: body, timeout: LONG_ACTION_TIMEOUT_MS }).json<NotSpamResponse>();
}
