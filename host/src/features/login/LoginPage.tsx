import { useSession } from '@qc/auth';
import { retryableLazy, useDocumentTitle, useThemeToken } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { Suspense, useEffect, type CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../controls/LanguageSelect';
import { ThemeToggle } from '../controls/ThemeToggle';
import { LoginForm } from './LoginForm';

const TwoFactorStep = retryableLazy(() => import(/* webpackChunkName: "two-factor" */ './TwoFactorStep'));

export interface LoginPageProps {
  /** Called when a sign-in is submitted: the host starts fetching the shell chunk in parallel. */
  onSubmitStart?: () => void;
  /** Injected for tests. */
  year?: number;
}

/**
 * /login, rendered OUTSIDE the router (notes "A + C"): title, description, e-mail, password with
 * show/hide, submit, 'forgot password' notice, theme toggle and language selector in the top bar,
 * © line with the current year. With a second factor pending, the code step replaces the form.
 * Kept light: no antd Typography/Select/Card here (a /login JS budget of 250 KB gzip).
 */
export function LoginPage({ onSubmitStart, year = new Date().getFullYear() }: LoginPageProps) {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  const requires2FA = useSession((s) => s.requires2FA);
  const expired = useSession((s) => s.expired);
  useEffect(() => {
    if (!expired) return;
    notify({ type: 'warning', title: t('login.session_expired') });
    useSession.getState().dismissExpired(); // said once, not again in another language
  }, [expired, t]);
  useDocumentTitle(requires2FA ? t('login.totp_title') : t('login.title'));

  const page: CSSProperties = { minHeight: '100vh', display: 'flex', flexDirection: 'column', color: token.colorText };
  const bar: CSSProperties = {
    display: 'flex',
    alignItems: 'center',
    justifyContent: 'space-between',
    gap: 12,
    padding: '12px 24px',
    background: token.colorBgContainer,
    borderBottom: `1px solid ${token.colorBorderSecondary}`,
  };
  const card: CSSProperties = {
    width: '100%',
    maxWidth: 400,
    padding: 32,
    background: token.colorBgContainer,
    borderRadius: token.borderRadiusLG,
    boxShadow: token.boxShadowTertiary,
    border: `1px solid ${token.colorBorderSecondary}`,
  };

  return (
    <div style={page} data-testid="login-page">
      <header style={bar} aria-label={t('login.top_bar')}>
        <span style={{ fontWeight: 600, fontSize: token.fontSizeLG }}>{t('common:app.name')}</span>
        <div style={{ display: 'flex', alignItems: 'center', gap: 8 }}>
          <ThemeToggle />
          <LanguageSelect />
        </div>
      </header>
      <main style={{ flex: 1, display: 'flex', alignItems: 'center', justifyContent: 'center', padding: 24 }}>
        <section style={card} aria-labelledby="login-title">
          <h1
            id="login-title"
            style={{
              margin: '0 0 8px',
              fontSize: token.fontSizeHeading3,
              fontWeight: 600,
              color: token.colorTextHeading,
            }}
          >
            {requires2FA ? t('login.totp_title') : t('login.title')}
          </h1>
          {requires2FA ? (
            <Suspense fallback={<div style={{ minHeight: 180 }} aria-busy="true" />}>
              <TwoFactorStep {...(onSubmitStart ? { onSubmitStart } : {})} />
            </Suspense>
          ) : (
            <>
              <p style={{ margin: '0 0 24px', color: token.colorTextSecondary }}>{t('login.description')}</p>
              <LoginForm {...(onSubmitStart ? { onSubmitStart } : {})} />
              <p style={{ margin: '16px 0 0', textAlign: 'center' }}>
                <a
                  href="#forgot-password"
                  style={{ color: token.colorLink }}
                  onClick={(e) => {
                    e.preventDefault();
                    notify({
                      type: 'info',
                      title: t('login.forgot_password_title'),
                      description: t('login.forgot_password_notice'),
                    });
                  }}
                >
                  {t('login.forgot_password')}
                </a>
              </p>
            </>
          )}
        </section>
      </main>
      <footer style={{ textAlign: 'center', padding: 16, color: token.colorTextTertiary, fontSize: token.fontSizeSM }}>
        {t('login.copyright', { year })}
      </footer>
    </div>
  );
}
