import Button from 'antd/es/button';
import { useSession } from '@qc/auth';
import { useDocumentTitle, useThemeToken } from '@qc/ui';
import { useEffect, useState, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * Start-up could not reach the api (network down, api restarting, 503 while its database is down)
 * with a sign-in that may be perfectly valid: the tokens are kept and this screen says so, with a
 * Retry (also tried by itself when the browser comes back online) and a way out to the login page.
 * Only a refusal of the session shows /login (spec §4). Plain markup: it sits in the first chunk.
 */
export function UnreachableScreen() {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  const [leaving, setLeaving] = useState(false);
  useDocumentTitle(t('unreachable.title'));

  useEffect(() => {
    const retry = () => void useSession.getState().retryStartUp();
    window.addEventListener('online', retry);
    return () => window.removeEventListener('online', retry);
  }, []);

  const box: CSSProperties = {
    maxWidth: 480,
    padding: 32,
    textAlign: 'center',
    background: token.colorBgContainer,
    borderRadius: token.borderRadiusLG,
    border: `1px solid ${token.colorBorderSecondary}`,
  };
  return (
    <main
      style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 24 }}
      data-testid="service-unreachable"
    >
      <section role="alert" aria-labelledby="unreachable-title" style={box}>
        <h1
          id="unreachable-title"
          style={{
            margin: '0 0 8px',
            fontSize: token.fontSizeHeading3,
            fontWeight: 600,
            color: token.colorTextHeading,
          }}
        >
          {t('unreachable.title')}
        </h1>
        <p style={{ margin: '0 0 24px', color: token.colorTextSecondary }}>{t('unreachable.description')}</p>
        <div style={{ display: 'flex', gap: 8, justifyContent: 'center', flexWrap: 'wrap' }}>
          <Button type="primary" onClick={() => void useSession.getState().retryStartUp()}>
            {t('unreachable.retry')}
          </Button>
          <Button
            loading={leaving}
            onClick={() => {
              setLeaving(true);
              // Ends this sign-in (revoked when the api answers within the logout timeout).
              void useSession.getState().logout();
            }}
          >
            {t('unreachable.sign_in_again')}
          </Button>
        </div>
      </section>
    </main>
  );
}
