import { resetSessionForTests, useSession } from '@qc/auth';
import { act, screen, waitFor } from '@testing-library/react';
import { App } from './App';
import { renderWithTheme, USER } from './test-utils';

jest.mock('./shell/RouterShell', () => ({
  __esModule: true,
  default: () => <p>shell at {window.location.pathname}</p>,
}));

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  jest.restoreAllMocks();
  jest.spyOn(globalThis, 'fetch').mockResolvedValue(new Response(null, { status: 500 }));
});

describe('host root: the login ↔ shell switch (spec §2, §4)', () => {
  it('sends an unauthenticated visitor of a protected route to /login, then back to the origin', async () => {
    window.history.replaceState(null, '', '/history');
    renderWithTheme(<App />);
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');

    act(() => useSession.setState({ isAuthenticated: true, user: USER, isLoading: false }));
    expect(await screen.findByText('shell at /history')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/history');
  });

  it('shows the loading screen while the start-up check runs', () => {
    window.history.replaceState(null, '', '/dashboard');
    useSession.setState({ initialize: () => new Promise(() => undefined) });
    renderWithTheme(<App />);
    expect(screen.getByRole('status', { name: 'Chargement de la console…' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/dashboard');
  });

  it('a signed-in visitor of /login goes to /dashboard', async () => {
    window.history.replaceState(null, '', '/login');
    useSession.setState({ isAuthenticated: true, user: USER, isLoading: false, initialize: async () => undefined });
    renderWithTheme(<App />);
    await waitFor(() => expect(window.location.pathname).toBe('/dashboard'));
    expect(await screen.findByText('shell at /dashboard')).toBeInTheDocument();
  });
});

describe('preferences follow the session (spec §4)', () => {
  it('reloads userPreferences when the user id changes', async () => {
    const { useTheme } = await import('@qc/ui-state');
    window.history.replaceState(null, '', '/login');
    useSession.setState({ isAuthenticated: false, isLoading: false, initialize: async () => undefined });
    renderWithTheme(<App />);
    await screen.findByRole('button', { name: 'Se connecter' });
    expect(useTheme.getState().mode).toBe('light');
    localStorage.setItem('userPreferences', JSON.stringify({ themeMode: 'dark' }));
    act(() => useSession.setState({ isAuthenticated: true, user: { ...USER, id: 'u2' } }));
    await waitFor(() => expect(useTheme.getState().mode).toBe('dark'));
  });
});
