import { MenuFoldOutlined, MenuUnfoldOutlined } from '@ant-design/icons';
import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Layout from 'antd/es/layout';
import { getCurrentUser } from '@qc/api-client';
import { useSession } from '@qc/auth';
import { documentTitle, matchesMedia, NARROW_QUERY, PageLoading, useThemeToken } from '@qc/ui';
import { onlineManager, useQuery } from '@tanstack/react-query';
import { Suspense, useEffect, useLayoutEffect, useRef, useState, useSyncExternalStore } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router-dom';
import { useRemotes } from '../app/remotes';
import { LanguageSelect } from '../features/controls/LanguageSelect';
import { ThemeToggle } from '../features/controls/ThemeToggle';
import { FEEDBACK_BUTTON_AREA, FeedbackButton } from '../features/feedback/FeedbackButton';
import { pushPreferences } from '../features/settings/preferences-sync';
import { useAccountPreferences } from '../features/settings/settings.queries';
import { NavMenu, selectedEntry } from './NavMenu';
import { useFocusOnNavigation, useOverlayDrawer } from './shell-focus';
import { ROUTES } from './route-table';
import { ProfileMenu } from './ProfileMenu';
import { SkipLink } from './SkipLink';
import { readDrawerCollapsed, saveDrawerCollapsed } from './drawer-state';

/** Spec §9: the drawer is 240 px wide and collapses to 64 px. */
export const DRAWER_WIDTH = 240;
export const DRAWER_COLLAPSED_WIDTH = 64;

/** Whether the browser says it is online (react-query pauses its requests while it is not). */
function useOnline(): boolean {
  return useSyncExternalStore(
    (onChange) => onlineManager.subscribe(onChange),
    () => onlineManager.isOnline(),
  );
}

/** Keeps the signed-in user in react-query (['me']) and mirrors it into the session store. */
function useCurrentUserQuery() {
  const user = useSession((s) => s.user);
  const setUser = useSession((s) => s.setUser);
  const me = useQuery({
    queryKey: ['me'],
    queryFn: getCurrentUser,
    ...(user ? { initialData: user } : {}),
    staleTime: 60_000,
  });
  useEffect(() => {
    if (me.data) setUser(me.data);
  }, [me.data, setUser]);
}

/**
 * The tab's title names the page (in the user's language): several console tabs can be told apart.
 * Set again on every path, so leaving an e-mail (whose page names the tab by its subject) for the
 * list under the same entry gives the list's name back; the not-found page names itself.
 */
function usePageTitle() {
  const { t } = useTranslation('host');
  const { pathname } = useLocation();
  const entry = selectedEntry(pathname, ROUTES);
  const page = entry ? t(`nav.${entry.id}`, { defaultValue: '' }) : '';
  // A layout effect: it runs before the pages' own (useDocumentTitle), which may be more precise.
  useLayoutEffect(() => {
    document.title = documentTitle(page);
  }, [page, pathname]);
}

/** The authenticated wrapper (spec §2): drawer, top bar, profile menu, main content, feedback button. */
export function ProtectedLayout() {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  const remotesFailed = useRemotes((s) => s.status === 'failed');
  const online = useOnline();
  // Below antd's lg breakpoint (992 px: a phone, a small tablet) the drawer starts collapsed and the
  // content's margin shrinks: an expanded drawer left a 390 px phone about 100 px for the page. Read
  // on the first render (the Sider's onBreakpoint comes after it: the page drew wide for a few frames).
  const [narrow, setNarrow] = useState(() => matchesMedia(NARROW_QUERY));
  // Wide, the drawer is as the user left it (kept across reloads); narrow, it starts closed.
  const [collapsed, setCollapsed] = useState(() => narrow || readDrawerCollapsed());
  useCurrentUserQuery();
  useAccountPreferences();
  usePageTitle();
  const { overlay, nav, toggle, close: closeDrawer } = useOverlayDrawer(narrow, collapsed, setCollapsed);
  const content = useRef<HTMLElement>(null);
  useFocusOnNavigation(content);
  // What the keyboard focuses is scrolled into view below the sticky top bar, not under it.
  useEffect(() => {
    const root = document.documentElement;
    root.style.scrollPaddingTop = '72px';
    return () => {
      root.style.removeProperty('scroll-padding-top');
    };
  }, []);

  return (
    <Layout style={{ minHeight: '100vh' }}>
      <SkipLink target={content} />
      <Layout.Sider
        width={DRAWER_WIDTH}
        collapsedWidth={DRAWER_COLLAPSED_WIDTH}
        collapsible
        collapsed={collapsed}
        breakpoint="lg"
        onBreakpoint={(below) => {
          setNarrow(below);
          setCollapsed(below || readDrawerCollapsed());
        }}
        trigger={null}
        // One palette in dark mode (issue 23): antd's "dark" drawer is navy (#001529) beside the
        // grey top bar and cards; its "light" one under the dark algorithm is their #141414.
        theme="light"
        data-testid="drawer"
        data-collapsed={collapsed ? 'true' : 'false'}
        style={{
          borderInlineEnd: `1px solid ${token.colorBorderSecondary}`,
          // Stays in view on a long page (the navigation scrolled away with it); scrolls on its own
          // when taller than the window.
          ...(overlay
            ? { position: 'fixed', insetBlock: 0, insetInlineStart: 0, zIndex: 1001, overflowY: 'auto' }
            : { position: 'sticky', top: 0, alignSelf: 'flex-start', height: '100vh', overflowY: 'auto' }),
        }}
      >
        {/* A column: the navigation, then (narrow) the feedback entry at the rail's foot, in view. */}
        <div style={{ display: 'flex', flexDirection: 'column', minHeight: '100%' }}>
          <Link
            to="/dashboard"
            style={{
              display: 'flex',
              alignItems: 'center',
              height: 64,
              paddingInline: collapsed ? 0 : 24,
              justifyContent: collapsed ? 'center' : 'flex-start',
              fontWeight: 600,
              fontSize: 16,
              color: token.colorText,
              whiteSpace: 'nowrap',
              overflow: 'hidden',
            }}
          >
            {collapsed ? 'QC' : t('common:app.name')}
          </Link>
          <nav ref={nav} aria-label={t('nav.main')} style={{ flex: 1 }}>
            <NavMenu collapsed={collapsed} />
          </nav>
          {narrow ? (
            <div
              style={{
                position: 'sticky',
                bottom: 0,
                padding: 8,
                background: token.colorBgContainer,
                borderTop: `1px solid ${token.colorBorderSecondary}`,
              }}
            >
              <FeedbackButton inDrawer expanded={!collapsed} />
            </div>
          ) : null}
        </div>
      </Layout.Sider>
      {overlay ? (
        <>
          {/* Holds the rail's place under the open drawer, so the page does not move. */}
          <div style={{ flex: `0 0 ${DRAWER_COLLAPSED_WIDTH}px` }} />
          <div
            aria-hidden
            data-testid="drawer-backdrop"
            onClick={closeDrawer}
            style={{ position: 'fixed', inset: 0, zIndex: 1000, background: token.colorBgMask }}
          />
        </>
      ) : null}
      {/* Behind the open overlay drawer, the page is out of reach (Tab, screen readers). */}
      <Layout inert={overlay}>
        <Layout.Header
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: 8,
            paddingInline: 16,
            background: token.colorBgContainer,
            borderBottom: `1px solid ${token.colorBorderSecondary}`,
            // Theme, language and profile stay at hand on a long page.
            position: 'sticky',
            top: 0,
            zIndex: 10,
          }}
        >
          <Button
            type="text"
            icon={collapsed ? <MenuUnfoldOutlined aria-hidden /> : <MenuFoldOutlined aria-hidden />}
            aria-label={collapsed ? t('layout.expand') : t('layout.collapse')}
            aria-expanded={!collapsed}
            ref={toggle}
            data-testid="drawer-toggle"
            onClick={() => {
              const next = !collapsed;
              setCollapsed(next);
              if (!narrow) saveDrawerCollapsed(next);
            }}
          />
          <div style={{ flex: 1 }} />
          <ThemeToggle onSaved={pushPreferences} />
          <LanguageSelect />
          <ProfileMenu />
        </Layout.Header>
        {/* Offline, a reload waits for the connection silently: say so, above whatever is shown. */}
        {online ? null : (
          <Alert type="warning" banner showIcon title={t('connection.offline')} role="status" data-testid="offline" />
        )}
        {remotesFailed ? (
          <Alert type="warning" banner showIcon title={t('layout.remotes_unavailable')} data-testid="remotes-error" />
        ) : null}
        {/* On a desktop the floating feedback button (40 px, 16 px from the edge) has a gutter of
            its own at the right: no row, tag or chart ever passes under it as the page scrolls
            (issue 23). Narrow, the button is in the drawer: no gutter. */}
        <Layout.Content
          ref={content}
          id="content"
          tabIndex={-1}
          style={{ margin: narrow ? 12 : 24, marginInlineEnd: narrow ? 12 : FEEDBACK_BUTTON_AREA, outline: 'none' }}
          data-testid="content"
        >
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
      {narrow ? null : <FeedbackButton />}
    </Layout>
  );
}
