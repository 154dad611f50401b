import { useSession } from '@qc/auth';
import { retryableLazy } from '@qc/ui';
import { useNotices } from '@qc/ui-state';
import { Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { BootScreen } from './app/BootScreen';
import { LoadBoundary } from './app/LoadBoundary';
import {
  INVITATION_PAGE_PATH,
  leaveLogin,
  LOGIN_PATH,
  redirectToLogin,
  SSO_LOGIN_PATH,
  usePathname,
} from './app/location';
import { PageBackground } from './app/PageBackground';
import { UnreachableScreen } from './app/UnreachableScreen';
import { usePreferencesSync } from './app/usePreferencesSync';
import { isDigestPath } from './features/digest-link/path';
import { LoginPage } from './features/login/LoginPage';

// The protected shell (router, layout, react-query) and the notice renderer are lazy chunks, so
// /login downloads neither (notes "A + C"); nor antd's theme (issue 22): every lazy page that uses
// antd comes wrapped in ThemeRoot by the "themed" chunk.
const loadThemed = () => import(/* webpackChunkName: "themed" */ './app/themed');
const loadShell = () => import(/* webpackChunkName: "shell" */ './shell/RouterShell');
// Retryable: a chunk that failed to download (network loss) is tried again on the next render.
const RouterShell = retryableLazy(() => loadThemed().then((m) => m.withTheme(loadShell())));
// Public, like /login (an invited user has no session yet): its own small chunk.
const InvitationPage = retryableLazy(() =>
  loadThemed().then((m) =>
    m.withTheme(import(/* webpackChunkName: "invitation" */ './features/invitation/InvitationPage')),
  ),
);
// Public too (a digest e-mail's links; the token is the credential), signed in or not.
const DigestLinkPage = retryableLazy(() =>
  loadThemed().then((m) =>
    m.withTheme(import(/* webpackChunkName: "digest-link" */ './features/digest-link/DigestLinkPage')),
  ),
);
// Where single sign-on comes back (`/login/sso#ticket=`): plain markup, its own small chunk.
const SsoSignInPage = retryableLazy(() => import(/* webpackChunkName: "sso" */ './features/login/sso/SsoSignInPage'));
// Themes itself (it sits outside every page).
const NotificationHost = retryableLazy(
  () => import(/* webpackChunkName: "notify" */ './features/notifications/NotificationHost'),
);

/** Started while the user signs in: the shell and antd download during the api's answer. */
function prefetchShell() {
  void Promise.all([loadThemed(), loadShell()]).catch(() => undefined);
}

/** The host root: theme, notices, and the login ↔ shell switch (outside any router). */
export function App() {
  const isLoading = useSession((s) => s.isLoading);
  const isAuthenticated = useSession((s) => s.isAuthenticated);
  // Start-up could not reach the api: the sign-in is kept, the user stays where they were.
  const unreachable = useSession((s) => s.unreachable);
  const path = usePathname();
  const hasNotices = useNotices((s) => s.notices.length > 0);
  const [notifyOn, setNotifyOn] = useState(hasNotices);
  if (hasNotices && !notifyOn) setNotifyOn(true); // load the renderer on the first notice, keep it

  usePreferencesSync();

  useEffect(() => {
    void useSession.getState().initialize();
  }, []);

  // Route guard of the whole protected area (spec §2): unauthenticated → /login (origin remembered);
  // signed in on /login → the remembered origin or /dashboard. /login/sso is a sign-in page too.
  // The invitation and digest link pages are for anyone.
  const onSso = path === SSO_LOGIN_PATH;
  const onLogin = path === LOGIN_PATH || onSso;
  const onInvitation = path === INVITATION_PAGE_PATH;
  const onDigest = isDigestPath(path);
  const onPublic = onInvitation || onDigest;
  useLayoutEffect(() => {
    if (isLoading || unreachable || onPublic) return;
    if (!isAuthenticated && !onLogin) redirectToLogin();
    else if (isAuthenticated && onLogin) leaveLogin();
  }, [isLoading, isAuthenticated, onLogin, onPublic, unreachable]);

  let body;
  if (onPublic)
    body = <Suspense fallback={<BootScreen />}>{onInvitation ? <InvitationPage /> : <DigestLinkPage />}</Suspense>;
  else if (unreachable && !isLoading) body = <UnreachableScreen />;
  else if (isLoading || (isAuthenticated && onLogin) || (!isAuthenticated && !onLogin)) body = <BootScreen />;
  else if (!isAuthenticated && onSso)
    body = (
      <Suspense fallback={<BootScreen />}>
        <SsoSignInPage onSignInStart={prefetchShell} />
      </Suspense>
    );
  else if (!isAuthenticated) body = <LoginPage onSubmitStart={prefetchShell} onTyping={prefetchShell} />;
  else
    body = (
      <Suspense fallback={<BootScreen />}>
        <RouterShell />
      </Suspense>
    );

  return (
    <>
      <PageBackground />
      <LoadBoundary>
        {notifyOn ? (
          <Suspense fallback={null}>
            <NotificationHost />
          </Suspense>
        ) : null}
        {body}
      </LoadBoundary>
    </>
  );
}
