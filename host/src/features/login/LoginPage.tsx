import { useSession } from '@qc/auth';
import { retryableLazy, useDocumentTitle, useThemeToken } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { Suspense, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LoginForm } from './LoginForm';
import { PublicPageLayout } from './PublicPageLayout';

const TwoFactorStep = retryableLazy(() => import(/* webpackChunkName: "two-factor" */ './TwoFactorStep'));
// The set-up a sign-in may require (QR code library and all): downloaded only when it is.
const TwoFactorSetupStep = retryableLazy(
  () => import(/* webpackChunkName: "two-factor-setup" */ './TwoFactorSetupStep'),
);

export interface LoginPageProps {
  /** Called when a sign-in is submitted: the host starts fetching the shell chunk in parallel. */
  onSubmitStart?: () => void;
  /** Injected for tests. */
  year?: number;
}

/**
 * /login, rendered OUTSIDE the router (notes "A + C"): title, description, e-mail, password with
 * show/hide, submit, 'forgot password' notice, theme toggle and language selector in the top bar,
 * © line with the current year. With a second factor pending, the code step replaces the form; with
 * a two-factor set-up the account requires, the set-up step does.
 * Kept light: no antd Typography/Select/Card here (a /login JS budget of 250 KB gzip).
 */
export function LoginPage({ onSubmitStart, year }: LoginPageProps) {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  const requires2FA = useSession((s) => s.requires2FA);
  const requiresSetup = useSession((s) => s.requires2FASetup);
  const expired = useSession((s) => s.expired);
  useEffect(() => {
    if (!expired) return;
    notify({ type: 'warning', title: t('login.session_expired') });
    useSession.getState().dismissExpired(); // said once, not again in another language
  }, [expired, t]);
  const title = requires2FA || requiresSetup ? t('login.totp_title') : t('login.title');
  useDocumentTitle(title);
  const submitStart = onSubmitStart ? { onSubmitStart } : {};
  const waiting = (height: number) => <div style={{ minHeight: height }} aria-busy="true" />;

  return (
    <PublicPageLayout
      title={title}
      testId="login-page"
      width={requiresSetup ? 480 : 400}
      {...(year !== undefined ? { year } : {})}
    >
      {requiresSetup ? (
        <Suspense fallback={waiting(360)}>
          <TwoFactorSetupStep {...submitStart} />
        </Suspense>
      ) : requires2FA ? (
        <Suspense fallback={waiting(180)}>
          <TwoFactorStep {...submitStart} />
        </Suspense>
      ) : (
        <>
          <p style={{ margin: '0 0 24px', color: token.colorTextSecondary }}>{t('login.description')}</p>
          <LoginForm {...submitStart} />
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
    </PublicPageLayout>
  );
}
