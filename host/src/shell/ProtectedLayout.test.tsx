import { resetSessionForTests } from '@qc/auth';
import { NARROW_QUERY, useDocumentTitle } from '@qc/ui';
import { onlineManager, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, Link, RouterProvider } from 'react-router-dom';
import { useTheme } from '@qc/ui-state';
import { registerShellStrings } from '../i18n/shell';
import { jsonResponse, mockApi, signIn, USER } from '../test-utils';
import { DRAWER_COLLAPSED_KEY } from './drawer-state';
import { ProtectedLayout } from './ProtectedLayout';

function renderShell(path: string) {
  registerShellStrings();
  const router = createMemoryRouter(
    [{ path: '/', element: <ProtectedLayout />, children: [{ path: '*', element: <p>page content</p> }] }],
    { initialEntries: [path] },
  );
  render(
    <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
      <RouterProvider router={router} />
    </QueryClientProvider>,
  );
  return router;
}

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  jest.restoreAllMocks();
});

describe('protected layout (spec §2)', () => {
  it.each(['/dashboard', '/settings', '/no/such/page'])('%s has the floating feedback button', async (path) => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    renderShell(path);
    const button = await screen.findByRole('button', { name: 'Envoyer un avis' });
    expect(button).toHaveAttribute('data-testid', 'feedback-button');
    await userEvent.setup().click(button);
    expect(await screen.findByRole('dialog', { name: 'Envoyer un avis' })).toBeInTheDocument();
    // The content leaves it a gutter at the right (16 + 40 px, and 8 px of air): rows scroll past
    // it, never under it. (e2e review-layout checks the boxes in a real browser.)
    expect(button).toHaveAttribute('data-placement', 'float');
    expect(screen.getByTestId('content')).toHaveStyle({ marginInlineEnd: '64px' });
  });

  it('offline, a banner says what is shown may be out of date; back online, it goes', async () => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    renderShell('/dashboard');
    await screen.findByText('page content');
    expect(screen.queryByTestId('offline')).toBeNull();
    act(() => onlineManager.setOnline(false));
    try {
      expect(screen.getByTestId('offline')).toHaveTextContent('Vous êtes hors ligne');
    } finally {
      act(() => onlineManager.setOnline(true));
    }
    expect(screen.queryByTestId('offline')).toBeNull();
  });

  it('the admin feedback page is in the drawer of an admin only', async () => {
    signIn({ ...USER, role: 'admin' });
    mockApi(() => jsonResponse(200, { ...USER, role: 'admin' }));
    renderShell('/dashboard');
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' });
    const link = await within(nav).findByRole('link', { name: 'Avis' });
    expect(link).toHaveAttribute('href', '/feedback');
    // Its label as a title too: the drawer cuts a long one short.
    expect(link).toHaveAttribute('title', 'Avis');
  });

  it('the tab title names the page; a page may name it better, and leaving it gives the route name back', async () => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    registerShellStrings();
    function Subject() {
      useDocumentTitle('You won a prize');
      return <Link to="/mail">back</Link>;
    }
    const router = createMemoryRouter(
      [
        {
          path: '/',
          element: <ProtectedLayout />,
          children: [
            { path: 'mail/:id', element: <Subject /> },
            { path: '*', element: <p>page content</p> },
          ],
        },
      ],
      { initialEntries: ['/history'] },
    );
    render(
      <QueryClientProvider client={new QueryClient({ defaultOptions: { queries: { retry: false } } })}>
        <RouterProvider router={router} />
      </QueryClientProvider>,
    );
    await screen.findByRole('navigation', { name: 'Navigation principale' });
    expect(document.title).toBe('Historique · Quarantine Console');
    await act(() => router.navigate('/mail/m1'));
    expect(document.title).toBe('You won a prize · Quarantine Console');
    await userEvent.setup().click(screen.getByRole('link', { name: 'back' }));
    await waitFor(() => expect(document.title).toBe('Quarantaine · Quarantine Console'));
  });

  it('going to another page puts the focus on its content (not on a link that is gone, nor nowhere)', async () => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    renderShell('/dashboard');
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' });
    expect(screen.getByTestId('content')).not.toHaveFocus();
    await userEvent.setup().click(await within(nav).findByRole('link', { name: 'Historique' }));
    await waitFor(() => expect(screen.getByTestId('content')).toHaveFocus());
  });

  it('a redirect (replace) leaves the focus alone', async () => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    const router = renderShell('/');
    await screen.findByRole('navigation', { name: 'Navigation principale' });
    await act(() => router.navigate('/dashboard', { replace: true }));
    expect(screen.getByTestId('content')).not.toHaveFocus();
    await act(() => router.navigate('/history'));
    await waitFor(() => expect(screen.getByTestId('content')).toHaveFocus());
  });

  it('the profile menu button says it opens a menu, and whether it is open', async () => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    renderShell('/dashboard');
    const button = screen.getByTestId('profile-menu');
    expect(button).toHaveAttribute('aria-haspopup', 'menu');
    expect(button).toHaveAttribute('aria-expanded', 'false');
    await userEvent.setup().click(button);
    expect(await screen.findByRole('menuitem', { name: /Se déconnecter/ })).toBeInTheDocument();
    expect(button).toHaveAttribute('aria-expanded', 'true');
  });

  it('a user does not see it', async () => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    renderShell('/dashboard');
    const nav = screen.getByRole('navigation', { name: 'Navigation principale' });
    expect(await within(nav).findByRole('link', { name: 'Paramètres' })).toBeInTheDocument();
    expect(within(nav).queryByRole('link', { name: 'Avis' })).not.toBeInTheDocument();
  });
});

/** A 390 px phone: ours (NARROW_QUERY) and antd's Sider breakpoint query (max-width: 991.98px) match. */
function asPhone(): () => void {
  const matchMedia = window.matchMedia;
  window.matchMedia = ((query: string) => ({
    ...matchMedia(query),
    matches: query === NARROW_QUERY || query.includes('max-width: 991'),
  })) as typeof window.matchMedia;
  return () => {
    window.matchMedia = matchMedia;
  };
}

describe('the feedback button covers nothing (issue 23)', () => {
  it('on a phone it is the foot of the drawer’s rail, not floating over the page; the page needs no room for it', async () => {
    const restore = asPhone();
    try {
      signIn();
      mockApi(() => jsonResponse(200, USER));
      renderShell('/dashboard');
      const button = await screen.findByRole('button', { name: 'Envoyer un avis' });
      expect(button).toHaveAttribute('data-placement', 'drawer');
      expect(screen.getByTestId('drawer')).toContainElement(button);
      expect(screen.getAllByTestId('feedback-button')).toHaveLength(1);
      expect(document.querySelector('.ant-float-btn')).toBeNull();
      expect(screen.getByTestId('content')).toHaveStyle({ marginInlineEnd: '12px' });
      await userEvent.setup().click(button);
      expect(await screen.findByRole('dialog', { name: 'Envoyer un avis' })).toBeInTheDocument();
    } finally {
      restore();
    }
  });
});

describe('the drawer’s groups', () => {
  it.each([
    ['on a phone', true],
    ['on a collapsed desktop rail', false],
  ])('%s, a page of a group does not open the group’s menu over the page', async (_, phone) => {
    if (!phone) localStorage.setItem(DRAWER_COLLAPSED_KEY, 'true');
    const restore = phone ? asPhone() : () => undefined;
    try {
      signIn({ ...USER, role: 'admin' });
      mockApi(() => jsonResponse(200, { ...USER, role: 'admin' }));
      renderShell('/rspamd/system-rules');
      expect(await screen.findByText('page content')).toBeInTheDocument();
      expect(screen.getByTestId('drawer')).toHaveAttribute('data-collapsed', 'true');
      // The group holds the page's entry (its icon is marked), and stays closed until asked.
      await waitFor(() => expect(document.querySelector('.ant-menu-submenu-selected')).not.toBeNull());
      expect(screen.queryByRole('menuitem', { name: 'Règles système' })).toBeNull();
    } finally {
      restore();
    }
  });

  it('expanded, the group of the page is open', async () => {
    signIn({ ...USER, role: 'admin' });
    mockApi(() => jsonResponse(200, { ...USER, role: 'admin' }));
    renderShell('/rspamd/system-rules');
    expect(await screen.findByRole('menuitem', { name: 'Règles système' })).toBeVisible();
  });
});

describe('one dark palette (issue 23)', () => {
  afterEach(() => useTheme.getState().setMode('light'));

  it('in dark mode the drawer and its menu take the shell’s palette (antd’s “light” under the dark algorithm), not navy', async () => {
    useTheme.getState().setMode('dark');
    signIn();
    mockApi(() => jsonResponse(200, USER));
    renderShell('/dashboard');
    const drawer = screen.getByTestId('drawer');
    expect(drawer).toHaveClass('ant-layout-sider-light');
    expect(drawer).not.toHaveClass('ant-layout-sider-dark');
    expect(drawer.querySelector('.ant-menu')).toHaveClass('ant-menu-light');
    expect(drawer.querySelector('.ant-menu-dark')).toBeNull();
  });
});

describe('drawer state across reloads (issue 23)', () => {
  it('a collapsed drawer is collapsed again after a reload; expanded again, it stays expanded', async () => {
    signIn();
    mockApi(() => jsonResponse(200, USER));
    const first = renderShell('/dashboard');
    expect(screen.getByTestId('drawer')).toHaveAttribute('data-collapsed', 'false');
    await userEvent.setup().click(screen.getByTestId('drawer-toggle'));
    expect(screen.getByTestId('drawer')).toHaveAttribute('data-collapsed', 'true');
    expect(localStorage.getItem(DRAWER_COLLAPSED_KEY)).toBe('true');
    first.dispose();
    cleanup();
    // The "reload": a new shell that reads the choice back from storage.
    renderShell('/dashboard');
    expect(screen.getByTestId('drawer')).toHaveAttribute('data-collapsed', 'true');
    expect(screen.getByTestId('drawer-toggle')).toHaveAttribute('aria-expanded', 'false');
    await userEvent.setup().click(screen.getByTestId('drawer-toggle'));
    expect(localStorage.getItem(DRAWER_COLLAPSED_KEY)).toBe('false');
    cleanup();
    renderShell('/dashboard');
    expect(screen.getByTestId('drawer')).toHaveAttribute('data-collapsed', 'false');
  });

  it('on a phone the drawer starts closed, and opening it there does not change the desktop choice', async () => {
    localStorage.setItem(DRAWER_COLLAPSED_KEY, 'true');
    const restore = asPhone();
    try {
      signIn();
      mockApi(() => jsonResponse(200, USER));
      renderShell('/dashboard');
      expect(screen.getByTestId('drawer')).toHaveAttribute('data-collapsed', 'true');
      await userEvent.setup().click(screen.getByTestId('drawer-toggle'));
      expect(screen.getByTestId('drawer')).toHaveAttribute('data-collapsed', 'false');
      expect(localStorage.getItem(DRAWER_COLLAPSED_KEY)).toBe('true');
    } finally {
      restore();
    }
  });
});
