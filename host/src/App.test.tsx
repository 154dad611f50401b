import { resetSessionForTests, useSession } from '@qc/auth';
import { act, screen, waitFor } from '@testing-library/react';
import { App } from './App';
import { renderWithTheme, USER } from './test-utils';

jest.mock('./shell/RouterShell', () => ({
  __esModule: true,
  default: () => <p>shell at {window.location.pathname}</p>,
}));

const realInitialize = useSession.getState().initialize;

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

describe('start-up while the api cannot be reached', () => {
  // Other tests stub initialize(); these run the real start-up check.
  beforeEach(() => useSession.setState({ initialize: realInitialize }));

  function jwt(expInSeconds: number) {
    const enc = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url');
    return `${enc({ alg: 'HS256' })}.${enc({ exp: Math.floor(Date.now() / 1000) + expInSeconds })}.s`;
  }

  it('an expired access token and a 503 from the refresh: "cannot reach the service", tokens kept, Retry signs in', async () => {
    window.history.replaceState(null, '', '/history');
    const old = jwt(-10);
    localStorage.setItem('accessToken', old);
    localStorage.setItem('refreshToken', 'r1');
    let down = true;
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const path = new URL(input instanceof Request ? input.url : String(input), 'http://localhost/').pathname;
      if (down)
        return new Response(JSON.stringify({ detail: 'down', code: 'database_unavailable' }), {
          status: 503,
          headers: { 'Content-Type': 'application/json' },
        });
      if (path === '/api/auth/refresh/')
        return new Response(JSON.stringify({ access: jwt(300), refresh: 'r2' }), { status: 200 });
      return new Response(JSON.stringify(USER), { status: 200 });
    });
    renderWithTheme(<App />);
    expect(await screen.findByRole('heading', { name: 'Service injoignable' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Se connecter' })).not.toBeInTheDocument();
    expect(window.location.pathname).toBe('/history');
    expect([localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]).toEqual([old, 'r1']);

    down = false;
    act(() => screen.getByRole('button', { name: 'Réessayer' }).click());
    expect(await screen.findByText('shell at /history')).toBeInTheDocument();
    expect(localStorage.getItem('refreshToken')).toBe('r2');
  });

  it('a refused refresh (401) still goes to /login with the tokens cleared', async () => {
    window.history.replaceState(null, '', '/history');
    localStorage.setItem('accessToken', jwt(-10));
    localStorage.setItem('refreshToken', 'r1');
    jest
      .spyOn(globalThis, 'fetch')
      .mockResolvedValue(new Response(JSON.stringify({ detail: 'no', code: 'token_invalid' }), { status: 401 }));
    renderWithTheme(<App />);
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
    expect(window.location.pathname).toBe('/login');
    expect(localStorage.getItem('refreshToken')).toBeNull();
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
