import { AuthError } from '@qc/auth';

/** POST /api/auth/invitation/ (InvitationAcceptRequest of @qc/contracts; no zod on this page). */
export const INVITATION_ACCEPT_PATH = '/api/auth/invitation/';

/** An answer the page shows by its code: the field errors of a 400 too. */
export class InvitationError extends AuthError {
  readonly errors: Record<string, string>;
  constructor(status: number, code: string, errors: Record<string, string> = {}, retryAfter: number | null = null) {
    super(`Invitation refused (${code})`, status, code, retryAfter);
    this.name = 'InvitationError';
    this.errors = errors;
  }
}

/**
 * Sets the invited user's password; the link is then spent. Plain fetch: there is no session here,
 * so nothing to refresh (and no Authorization header).
 */
export async function acceptInvitation(token: string, password: string): Promise<void> {
  let res: Response;
  try {
    res = await fetch(new URL(INVITATION_ACCEPT_PATH, window.location.origin).href, {
      method: 'POST',
      credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify({ token, password }),
    });
  } catch {
    throw new InvitationError(0, 'network_error');
  }
  if (res.ok) return;
  let code = `http_${res.status}`;
  let errors: Record<string, string> = {};
  try {
    const body = (await res.json()) as { code?: unknown; errors?: unknown };
    if (typeof body.code === 'string') code = body.code;
    if (body.errors && typeof body.errors === 'object') errors = body.errors as Record<string, string>;
  } catch {
    /* not JSON: the status says enough */
  }
  const retryAfter = Number(res.headers.get('retry-after') ?? NaN);
  throw new InvitationError(
    res.status,
    code,
    errors,
    Number.isFinite(retryAfter) && retryAfter > 0 ? retryAfter : null,
  );
}
