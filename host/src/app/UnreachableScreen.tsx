import { useSession } from '@qc/auth';
import { useDocumentTitle } from '@qc/ui';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ensurePublicStyles } from './public-styles';

ensurePublicStyles();

/**
 * Start-up could not reach the api (network down, api restarting, 503 while its database is down)
 * with a sign-in that may be perfectly valid: the tokens are kept and this screen says so, with a
 * Retry (also tried by itself when the browser comes back online) and a way out to the login page.
 * Only a refusal of the session shows /login (spec §4). Plain markup: it sits in the first chunk.
 */
export function UnreachableScreen() {
  const { t } = useTranslation('host');
  const [leaving, setLeaving] = useState(false);
  useDocumentTitle(t('unreachable.title'));

  useEffect(() => {
    const retry = () => void useSession.getState().retryStartUp();
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, []);

  return (
    <main
      style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 24 }}
      data-testid="service-unreachable"
    >
      <section
        role="alert"
        aria-labelledby="unreachable-title"
        className="qc-card"
        style={{ maxWidth: 480, textAlign: 'center' }}
      >
        <h1 id="unreachable-title" className="qc-h1">
          {t('unreachable.title')}
        </h1>
        <p className="qc-muted">{t('unreachable.description')}</p>
        <div style={{ display: 'flex', gap: 8, justifyContent: 'center', flexWrap: 'wrap' }}>
          <button
            type="button"
            className="qc-btn qc-btn-primary"
            onClick={() => void useSession.getState().retryStartUp()}
          >
            {t('unreachable.retry')}
          </button>
          <button
            type="button"
            className="qc-btn"
            aria-busy={leaving}
            onClick={() => {
              setLeaving(true);
              // Ends this sign-in (revoked when the api answers within the logout timeout).
              void useSession.getState().logout();
            }}
          >
            {leaving ? <span className="qc-spin" aria-hidden /> : null}
            {t('unreachable.sign_in_again')}
          </button>
        </div>
      </section>
    </main>
  );
}
