import { useSession } from '@qc/auth';
import { retryableLazy, useDocumentTitle } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { Suspense, useEffect, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { LoginForm } from './LoginForm';
import { PublicPageLayout } from './PublicPageLayout';
import { SsoButton } from './sso/SsoButton';
import TwoFactorStep from './TwoFactorStep';

// Lazy, and themed when loaded: antd is not on /login's first load (issue 22).
const themedStep = <P extends object>(load: () => Promise<{ default: ComponentType<P> }>) =>
  retryableLazy(() => import(/* webpackChunkName: "themed" */ '../../app/themed').then((m) => m.withTheme(load())));
// The set-up a sign-in may require (QR code library and all): downloaded only when it is.
const TwoFactorSetupStep = themedStep(() => import(/* webpackChunkName: "two-factor-setup" */ './TwoFactorSetupStep'));

export interface LoginPageProps {
  /** Called when a sign-in is submitted: the host starts fetching the shell chunk in parallel. */
  onSubmitStart?: () => void;
  /** Called as the user types (prefetch of what comes after sign-in). */
  onTyping?: () => void;
  /** Injected for tests. */
  year?: number;
}

/**
 * /login, rendered OUTSIDE the router (notes "A + C"): title, description, e-mail, password with
 * show/hide, submit, 'forgot password' notice, theme toggle and language selector in the top bar,
 * © line with the current year. With a second factor pending, the code step replaces the form; with
 * a two-factor set-up the account requires, the set-up step does. Single sign-on, when on: its
 * button under the form, and the reason of a failed one (`?sso_error=`).
 * No antd on this path (issue 22's /login budget): the code step is plain markup like the form; the
 * two-factor set-up, which uses antd and a QR library, is a lazy chunk with its own ThemeRoot.
 */
export function LoginPage({ onSubmitStart, onTyping, year }: LoginPageProps) {
  const { t } = useTranslation('host');
  const requires2FA = useSession((s) => s.requires2FA);
  const requiresSetup = useSession((s) => s.requires2FASetup);
  const expired = useSession((s) => s.expired);
  useEffect(() => {
    if (!expired) return;
    notify({ type: 'warning', title: t('login.session_expired') });
    useSession.getState().dismissExpired(); // said once, not again in another language
  }, [expired, t]);
  useEffect(() => {
    // Back from the single sign-on provider without a session: say why (code and texts are lazy).
    if (!new URLSearchParams(window.location.search).has('sso_error')) return;
    import(/* webpackChunkName: "sso" */ './sso/sso-error').then(
      (m) => m.sayWhySsoFailed(t),
      () => notify({ type: 'error', title: t('common:errors.network') }),
    );
  }, [t]);
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
        <TwoFactorStep {...submitStart} />
      ) : (
        <>
          <p className="qc-muted">{t('login.description')}</p>
          <LoginForm {...submitStart} {...(onTyping ? { onTyping } : {})} />
          <p style={{ margin: '16px 0 0', textAlign: 'center' }}>
            <a
              href="#forgot-password"
              className="qc-link"
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
          <SsoButton />
        </>
      )}
    </PublicPageLayout>
  );
}
