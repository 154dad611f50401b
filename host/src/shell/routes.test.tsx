import { resetSessionForTests, useSession } from '@qc/auth';
import type { Role } from '@qc/contracts';
import { useNotices } from '@qc/ui-state';
import { render, screen, waitFor } from '@testing-library/react';
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router-dom';
import { registerHostNamespace } from '../i18n';
import { USER } from '../test-utils';
import { buildRoutes } from './routes';

// The layout and the remote loader are not under test here: the route tree and its guards are.
jest.mock('./ProtectedLayout', () => ({ ProtectedLayout: () => <Outlet /> }));
jest.mock('./RemotePage', () => ({
  RemotePage: ({ entry }: { entry: { id: string } }) => {
    if (entry.id === 'statistics') throw new Error('boom');
    return <p>page {entry.id}</p>;
  },
}));
jest.mock('./HostPage', () => ({ HostPage: ({ page }: { page: string }) => <p>host page {page}</p> }));

function visit(path: string, role: Role) {
  useSession.setState({ user: { ...USER, role }, isAuthenticated: true, isLoading: false });
  const router = createMemoryRouter(buildRoutes(), { initialEntries: [path] });
  render(<RouterProvider router={router} />);
  return router;
}

beforeAll(() => registerHostNamespace());
beforeEach(() => {
  resetSessionForTests();
  useNotices.getState().clear();
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('route guards (spec §2, DESIGN §3)', () => {
  it('/ redirects to /dashboard', async () => {
    const router = visit('/', 'user');
    expect(await screen.findByText('page dashboard')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
  });

  it.each([
    ['/users', 'user'],
    ['/users/new', 'user'],
    ['/domains', 'domain_admin'],
    ['/rspamd/system-rules', 'domain_admin'],
    ['/haraka/logs', 'user'],
    ['/feedback', 'domain_admin'],
  ] as const)('%s without the role (%s) redirects to /dashboard', async (path, role) => {
    const router = visit(path, role);
    expect(await screen.findByText('page dashboard')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard');
    // Saying why, once.
    expect(useNotices.getState().notices.map((n) => `${n.type}:${n.title}`)).toEqual([
      'warning:Vous n’avez pas accès à cette page. Retour au tableau de bord.',
    ]);
  });

  it.each([
    ['/users/42', 'domain_admin', 'page users'],
    ['/users/42', 'admin', 'page users'], // admin passes every guard
    ['/rspamd/apanel-filters/edit/3', 'admin', 'page apanel_filters'],
  ] as const)('lets the role through: %s as %s', async (path, role, page) => {
    const router = visit(path, role);
    expect(await screen.findByText(page)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe(path);
    expect(useNotices.getState().notices).toEqual([]);
  });

  // Spec §2's admin-only rspamd routes (and the system rules' create/edit in the same style).
  const RSPAMD_ROUTES: [string, string][] = [
    ['/rspamd', 'rspamd'],
    ['/rspamd/domains', 'rspamd'],
    ['/rspamd/ips', 'rspamd'],
    ['/rspamd/users', 'rspamd'],
    ['/rspamd/special', 'rspamd'],
    ['/rspamd/domains/create', 'rspamd'],
    ['/rspamd/special/edit/f1', 'rspamd'],
    ['/rspamd/apanel-filters', 'apanel_filters'],
    ['/rspamd/apanel-filters/create', 'apanel_filters'],
    ['/rspamd/apanel-filters/edit/p1', 'apanel_filters'],
    ['/rspamd/system-rules', 'system_rules'],
    ['/rspamd/system-rules/create', 'system_rules'],
    ['/rspamd/system-rules/edit/s1', 'system_rules'],
  ];

  it.each(RSPAMD_ROUTES)('%s: page %s for an admin; domain_admin and user go to /dashboard', async (path, page) => {
    visit(path, 'admin');
    expect(await screen.findByText(`page ${page}`)).toBeInTheDocument();
    for (const role of ['domain_admin', 'user'] as const) {
      const router = visit(path, role);
      await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    }
  });

  it('picks the most specific rspamd route', async () => {
    visit('/rspamd/apanel-filters/edit/3', 'admin');
    expect(await screen.findByText('page apanel_filters')).toBeInTheDocument();
  });

  it.each(['/no/such/page', '/history/foo', '/statistics/2026', '/dashboard/x'])(
    'any other path shows the not-found page: %s',
    async (path) => {
      const router = visit(path, 'user');
      expect(await screen.findByText('Page introuvable')).toBeInTheDocument();
      expect(router.state.location.pathname).toBe(path);
      expect(document.title).toBe('Page introuvable · Quarantine Console');
      // antd's picture is titled "No Found" in English: shown, not read out.
      expect(screen.getByTestId('result-picture-404')).toHaveAttribute('aria-hidden', 'true');
      expect(screen.getByTestId('result-picture-404').querySelector('svg')).not.toBeNull();
    },
  );

  it('a trailing slash still finds the page', async () => {
    visit('/history/', 'user');
    expect(await screen.findByText('page history')).toBeInTheDocument();
  });

  it('the host’s own pages: profile, the e-mail confirmation link, settings; feedback for an admin', async () => {
    visit('/profile', 'user');
    expect(await screen.findByText('host page profile')).toBeInTheDocument();
    visit('/profile/confirm-email?token=abc', 'user');
    expect(await screen.findByText('host page confirm_email')).toBeInTheDocument();
    visit('/settings', 'user');
    expect(await screen.findByText('host page settings')).toBeInTheDocument();
    visit('/feedback', 'admin');
    expect(await screen.findByText('host page feedback')).toBeInTheDocument();
  });

  it('an unhandled route error shows "Unexpected Application Error!"', async () => {
    visit('/statistics', 'user');
    expect(await screen.findByRole('heading', { name: 'Unexpected Application Error!' })).toBeInTheDocument();
  });
});
