import { notify } from '@qc/ui-state';
import type { TFunction } from 'i18next';
import { LOGIN_PATH, takeStashedOrigin } from '../../../app/location';
import { ssoErrorKey } from './sso-messages';

/** The code of `/login?sso_error=<code>` (null: none), removed from the address on the way. */
export function takeSsoError(): string | null {
  const { pathname, search, hash } = window.location;
  const params = new URLSearchParams(search);
  const code = pathname === LOGIN_PATH ? params.get('sso_error') : null;
  if (code === null) return null;
  params.delete('sso_error');
  const rest = params.toString();
  // Replaced, so a reload does not say it again; the origin the user wanted comes back with it.
  window.history.replaceState(
    takeStashedOrigin() ?? window.history.state,
    '',
    `${LOGIN_PATH}${rest ? `?${rest}` : ''}${hash}`,
  );
  return code;
}

/** `/login?sso_error=<code>`: says, once, why the single sign-on came back without a session. */
export function sayWhySsoFailed(t: TFunction) {
  const code = takeSsoError();
  if (code !== null) notify({ type: 'error', title: t(ssoErrorKey(code)) });
}
