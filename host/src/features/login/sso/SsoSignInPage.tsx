import { useDocumentTitle } from '@qc/ui';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { PublicPageLayout } from '../PublicPageLayout';
import { signInWithTicket } from './sign-in-with-ticket';
import { ssoTicket } from './sso-address';

export interface SsoSignInPageProps {
  /** Called when the ticket is sent: the host fetches the shell meanwhile. */
  onSignInStart?: () => void;
}

/**
 * `/login/sso#ticket=…`, where the single sign-on provider's round trip ends (DESIGN §4.2 "OIDC").
 * Drawn like /login, outside the router, in its own lazy chunk; it only says it is signing in while
 * the ticket is traded for a session.
 */
export default function SsoSignInPage({ onSignInStart }: SsoSignInPageProps) {
  const { t } = useTranslation('host');
  useDocumentTitle(t('login.title'));
  useEffect(() => signInWithTicket(ssoTicket(), t, onSignInStart), [t, onSignInStart]);

  return (
    <PublicPageLayout title={t('login.title')} testId="sso-sign-in-page">
      <p className="qc-muted qc-row" role="status" aria-busy="true">
        <span className="qc-spin" aria-hidden />
        {t('sso.signing_in')}
      </p>
    </PublicPageLayout>
  );
}
