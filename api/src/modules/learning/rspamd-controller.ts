import type { LearnAs } from '@qc/contracts';

/** How long Rspamd's controller has to answer a learn (connection included). */
export const LEARN_TIMEOUT_MS = 10_000;
/** Rspamd's answer as kept in an error message: enough to read, not a whole page. */
const ANSWER_MAX = 500;

export type LearnResult =
  | { outcome: 'learned'; answer: string }
  | { outcome: 'already'; answer: string }
  | { outcome: 'refused'; status: number; answer: string }
  /**
   * `error`: what kind of failure, safe to show (a timeout, a system error code such as
   * ECONNREFUSED), or null when the error was unexpected: that one (`unexpected`) may name the URL
   * or the client's internals and is for the log only.
   */
  | { outcome: 'unavailable'; error: string | null; unexpected?: unknown };

// A system or HTTP client error code (ECONNREFUSED, ENOTFOUND, UND_ERR_SOCKET...): names a kind, nothing more.
const ERROR_CODE = /^(E[A-Z]+|UND_ERR_[A-Z_]+)$/;

/** Rspamd 3.4 says "<id> has been already learned as spam, ignore it" (and 208 in later versions). */
const ALREADY = /already\s+learn/i;

/**
 * POST <url>/learnspam|learnham with the original bytes and the controller's `Password` header.
 * 200 learned; 208, or an error naming "already learned": already; another status: refused; no
 * connection or no answer within the timeout: unavailable.
 */
export async function learnWithRspamd(
  controller: { url: string; password: string | null },
  as: LearnAs,
  raw: Buffer,
  timeoutMs = LEARN_TIMEOUT_MS,
): Promise<LearnResult> {
  let response: Response;
  let answer: string;
  try {
    response = await fetch(`${controller.url}/learn${as}`, {
      method: 'POST',
      headers: {
        'content-type': 'message/rfc822',
        ...(controller.password !== null ? { password: controller.password } : {}),
      },
      body: Uint8Array.from(raw), // a copy whose buffer is a plain ArrayBuffer (BodyInit)
      signal: AbortSignal.timeout(timeoutMs),
      // The Password header must never go to wherever a redirect points: a 3xx is a failure.
      redirect: 'error',
    });
    answer = (await response.text()).trim().slice(0, ANSWER_MAX);
  } catch (err) {
    const e = err as { name?: string; cause?: { code?: unknown } };
    if (e.name === 'TimeoutError') return { outcome: 'unavailable', error: `no answer within ${timeoutMs / 1000} s` };
    const code = e.cause?.code;
    if (typeof code === 'string' && ERROR_CODE.test(code)) return { outcome: 'unavailable', error: code };
    return { outcome: 'unavailable', error: null, unexpected: err };
  }
  if (response.status === 208 || ALREADY.test(answer)) return { outcome: 'already', answer };
  if (response.ok && !/"success"\s*:\s*false/.test(answer)) return { outcome: 'learned', answer };
  return { outcome: 'refused', status: response.status, answer: answer || `HTTP ${response.status}` };
}
