import { resetSessionForTests, useSession } from '@qc/auth';
import { navigateAway } from '../app/location';
import { jsonResponse, mockApi, USER } from '../test-utils';
import { signOut } from './sign-out';

// jsdom cannot leave the page: the full-page navigation to the provider is recorded instead.
jest.mock('../app/location', () => ({
  ...jest.requireActual<typeof import('../app/location')>('../app/location'),
  navigateAway: jest.fn(),
}));

const END_SESSION = 'https://id.example.org/logout?client_id=qc&post_logout_redirect_uri=https%3A%2F%2Fqc%2Flogin';

function signedInAs(source: 'local' | 'ldap' | 'oidc') {
  localStorage.setItem('accessToken', 'a1');
  localStorage.setItem('refreshToken', 'r1');
  useSession.setState({ user: { ...USER, source }, isAuthenticated: true, isLoading: false });
}

function api(info: unknown) {
  return mockApi((c) => (c.path === '/api/auth/oidc/' ? jsonResponse(200, info) : new Response(null, { status: 204 })));
}

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  jest.restoreAllMocks();
  jest.mocked(navigateAway).mockClear();
});

describe('sign-out of a single sign-on account (issue 32)', () => {
  it('an oidc account: the console session ends, then the browser goes to the provider’s sign-out page', async () => {
    signedInAs('oidc');
    const { calls } = api({ enabled: true, label: 'Entra ID', end_session_url: END_SESSION });
    await expect(signOut()).resolves.toBe(true);
    expect(calls.map((c) => `${c.method} ${c.path}`).sort()).toEqual(['GET /api/auth/oidc/', 'POST /api/auth/logout/']);
    expect(useSession.getState()).toMatchObject({ isAuthenticated: false, user: null });
    expect(localStorage.getItem('refreshToken')).toBeNull();
    expect(navigateAway).toHaveBeenCalledWith(END_SESSION);
  });

  it.each(['local', 'ldap'] as const)('a %s account: the usual sign-out, the provider is not asked', async (source) => {
    signedInAs(source);
    const { calls } = api({ enabled: true, label: 'Entra ID', end_session_url: END_SESSION });
    await expect(signOut()).resolves.toBe(false);
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual(['POST /api/auth/logout/']);
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(navigateAway).not.toHaveBeenCalled();
  });

  it.each([
    ['no sign-out page at the provider', () => jsonResponse(200, { enabled: true, label: 'X', end_session_url: null })],
    ['not a web page', () => jsonResponse(200, { enabled: true, label: 'X', end_session_url: 'javascript:alert(1)' })],
    ['the api does not answer', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('an oidc account, %s: signed out here only', async (_, info) => {
    signedInAs('oidc');
    mockApi((c) => (c.path === '/api/auth/oidc/' ? info() : new Response(null, { status: 204 })));
    await expect(signOut()).resolves.toBe(false);
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(navigateAway).not.toHaveBeenCalled();
  });
});
