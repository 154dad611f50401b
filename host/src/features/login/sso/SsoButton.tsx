import { AUTH_PATHS, fetchOidcInfo } from '@qc/auth';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { navigateAway, stashOriginForSso } from '../../../app/location';

/**
 * "Sign in with <provider>" under the form, when the api says single sign-on is on (DESIGN §4.2
 * "OIDC"). Nothing is drawn until then, nor when it is off or the api does not answer: the password
 * form is all there is. Plain markup (/login's byte budget, issue 22).
 */
export function SsoButton() {
  const { t } = useTranslation('host');
  const [label, setLabel] = useState<string | null>(null);

  useEffect(() => {
    const abort = new AbortController();
    fetchOidcInfo(abort.signal).then(
      (info) => {
        if (info.enabled) setLabel(info.label || 'SSO');
      },
      () => undefined, // no button: the password form still works
    );
    return () => abort.abort();
  }, []);

  if (label === null) return null;
  return (
    <>
      <div className="qc-or">{t('login.sso_or')}</div>
      <button
        type="button"
        className="qc-btn qc-block"
        onClick={() => {
          stashOriginForSso(); // the provider brings the browser back to a new history entry
          navigateAway(AUTH_PATHS.oidcStart);
        }}
      >
        {t('login.sso_button', { label })}
      </button>
    </>
  );
}
