import type { DigestActOutcome, DigestLinkInfo } from '@qc/contracts';

/**
 * /api/digest/<token>/ (public: the token is the credential). Plain fetch like the invitation page:
 * no Authorization header, nothing to refresh, whether or not someone is signed in here.
 */
export const digestApiPath = (token: string) => `/api/digest/${encodeURIComponent(token)}/`;

export class DigestHttpError extends Error {
  readonly status: number;
  readonly code: string;
  /** 409 `digest_link_used`: the first outcome, when the answer carries it. */
  readonly outcome: DigestActOutcome | null;
  readonly retryAfter: number | null;
  constructor(status: number, code: string, outcome: DigestActOutcome | null = null, retryAfter: number | null = null) {
    super(`Digest link request failed (${code})`);
    this.name = 'DigestHttpError';
    this.status = status;
    this.code = code;
    this.outcome = outcome;
    this.retryAfter = retryAfter;
  }
}

function isOutcome(v: unknown): v is DigestActOutcome {
  return !!v && typeof v === 'object' && typeof (v as { result?: unknown }).result === 'string';
}

async function call<T>(token: string, method: 'GET' | 'POST'): Promise<T> {
  let res: Response;
  try {
    res = await fetch(new URL(digestApiPath(token), window.location.origin).href, {
      method,
      credentials: 'omit',
      headers: { Accept: 'application/json' },
      cache: 'no-store',
    });
  } catch {
    throw new DigestHttpError(0, 'network_error');
  }
  let body: unknown = null;
  try {
    body = await res.json();
  } catch {
    /* not JSON: the status says enough */
  }
  if (res.ok && body && typeof body === 'object') return body as T;
  const data = (body ?? {}) as { code?: unknown; outcome?: unknown };
  const retryAfter = Number(res.headers.get('retry-after') ?? NaN);
  throw new DigestHttpError(
    res.status,
    typeof data.code === 'string' ? data.code : `http_${res.status}`,
    isOutcome(data.outcome) ? data.outcome : null,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}

/** GET: what the link will do. Changes nothing (mail scanners prefetch links). */
export const getDigestLink = (token: string) => call<DigestLinkInfo>(token, 'GET');

/** POST: acts, once. */
export const actOnDigestLink = (token: string) => call<DigestActOutcome>(token, 'POST');
