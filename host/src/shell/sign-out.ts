import { fetchOidcInfo, useSession } from '@qc/auth';
import { markSigningOut, navigateAway } from '../app/location';

/** Only a web page is followed (the api's answer names it; never `javascript:`). */
function isWebPage(url: string): boolean {
  try {
    return ['http:', 'https:'].includes(new URL(url, window.location.origin).protocol);
  } catch {
    return false;
  }
}

/**
 * The user signs out (the profile menu): the console session ends as always; an account of the
 * single sign-on provider is then sent to the provider's sign-out page (RP-initiated logout, back to
 * /login), else the provider would sign them straight in again. Resolves true when the browser is
 * leaving for it.
 */
export async function signOut(): Promise<boolean> {
  const { user, logout } = useSession.getState();
  // Asked while the session ends (a public call): the sign-out takes no longer.
  const info = user?.source === 'oidc' ? fetchOidcInfo().catch(() => null) : null;
  markSigningOut();
  await logout();
  const endSession = (await info)?.end_session_url;
  if (!endSession || !isWebPage(endSession)) return false;
  navigateAway(endSession);
  return true;
}
