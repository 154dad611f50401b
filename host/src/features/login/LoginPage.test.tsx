import { resetSessionForTests, useSession } from '@qc/auth';
import { useNotices } from '@qc/ui-state';
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { navigateAway } from '../../app/location';
import { jsonResponse, makeJwt, renderWithTheme, USER } from '../../test-utils';
import { LoginPage } from './LoginPage';

// jsdom cannot leave the page: the full-page navigation to the provider is recorded instead.
jest.mock('../../app/location', () => ({
  ...jest.requireActual<typeof import('../../app/location')>('../../app/location'),
  navigateAway: jest.fn(),
}));

const noticeTitles = () => useNotices.getState().notices.map((n) => `${n.type}:${n.title}`);
let fetchSpy: jest.SpyInstance;
const pathOf = (input: unknown) => new URL(String(input instanceof Request ? input.url : input)).pathname;
/** The calls but GET /api/auth/oidc/ (the single sign-on button asks it on every visit). */
const sentCalls = () => fetchSpy.mock.calls.filter(([input]) => pathOf(input) !== '/api/auth/oidc/');
/** What GET /api/auth/oidc/ answers (404: an api without single sign-on). */
let oidcInfo: () => Response = () => jsonResponse(404, { detail: 'nf', code: 'oidc_not_configured' });

function answerLogin(login: () => Response) {
  fetchSpy = jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
    const path = pathOf(input);
    if (path === '/api/auth/oidc/') return oidcInfo();
    if (path === '/api/auth/login/') return login();
    if (path === '/api/users/me/') return jsonResponse(200, USER);
    if (path === '/api/auth/verify-totp/') return jsonResponse(401, { detail: 'bad code', code: 'invalid_totp' });
    return jsonResponse(404, { detail: 'nf', code: 'not_found' });
  });
}

async function fillAndSubmit(email: string, password: string) {
  const user = userEvent.setup();
  if (email) await user.type(screen.getByLabelText('Adresse e-mail'), email);
  if (password) await user.type(screen.getByLabelText('Mot de passe'), password);
  await user.click(screen.getByRole('button', { name: 'Se connecter' }));
  return user;
}

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  useSession.setState({ isLoading: false });
  useNotices.getState().clear();
  jest.restoreAllMocks();
  jest.mocked(navigateAway).mockClear();
  oidcInfo = () => jsonResponse(404, { detail: 'nf', code: 'oidc_not_configured' });
  window.history.replaceState(null, '', '/login');
  sessionStorage.clear();
  answerLogin(() => jsonResponse(500));
});

describe('/login (spec §2, §5, §8)', () => {
  it('shows the title, description, top-bar controls and the © line with the year', () => {
    renderWithTheme(<LoginPage year={2031} />);
    expect(screen.getByRole('heading', { level: 1, name: 'Connexion' })).toBeInTheDocument();
    expect(screen.getByText(/Connectez-vous pour consulter/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Activer le thème sombre' })).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Langue' })).toHaveValue('fr');
    expect(screen.getByText('© 2031 Quarantine Console')).toBeInTheDocument();
    expect(document.title).toBe('Connexion · Quarantine Console');
  });

  it('after a session that ended on its own (refused refresh), says it expired', async () => {
    useSession.setState({ expired: true });
    renderWithTheme(<LoginPage />);
    await waitFor(() =>
      expect(useNotices.getState().notices.map((n) => n.title)).toContain(
        'Votre session a expiré. Veuillez vous reconnecter.',
      ),
    );
  });

  it('validates: e-mail and password required, e-mail must be valid; nothing is sent', async () => {
    renderWithTheme(<LoginPage />);
    await fillAndSubmit('', '');
    expect(await screen.findByText('Veuillez saisir votre adresse e-mail')).toBeInTheDocument();
    expect(screen.getByText('Veuillez saisir votre mot de passe')).toBeInTheDocument();
    await fillAndSubmit('not-an-address', 'pw');
    expect(await screen.findByText('Adresse e-mail invalide')).toBeInTheDocument();
    expect(sentCalls()).toEqual([]);
  });

  it('shows and hides the password', async () => {
    renderWithTheme(<LoginPage />);
    const user = userEvent.setup();
    const input = screen.getByLabelText('Mot de passe');
    expect(input).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Afficher le mot de passe' }));
    expect(input).toHaveAttribute('type', 'text');
    await user.click(screen.getByRole('button', { name: 'Masquer le mot de passe' }));
    expect(input).toHaveAttribute('type', 'password');
  });

  it('signs in: stores the tokens, marks the session authenticated and says "Connexion réussie"', async () => {
    const access = makeJwt(300);
    answerLogin(() => jsonResponse(200, { access, refresh: 'r1' }));
    renderWithTheme(<LoginPage />);
    await fillAndSubmit('  jane@example.com ', 'secret');
    await waitFor(() => expect(useSession.getState().isAuthenticated).toBe(true));
    const body = JSON.parse((sentCalls()[0]![1] as RequestInit).body as string) as unknown;
    expect(body).toEqual({ email: 'jane@example.com', password: 'secret' });
    expect(localStorage.getItem('accessToken')).toBe(access);
    expect(noticeTitles()).toEqual(['success:Connexion réussie']);
  });

  it('a refused sign-in shows the failure notice and keeps the form usable', async () => {
    answerLogin(() => jsonResponse(401, { detail: 'Invalid credentials', code: 'invalid_credentials' }));
    renderWithTheme(<LoginPage />);
    await fillAndSubmit('jane@example.com', 'wrong');
    await waitFor(() => expect(noticeTitles()).toEqual(['error:Échec de la connexion. Vérifiez vos identifiants.']));
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeEnabled();
  });

  it.each([
    [
      503,
      'directory_unavailable',
      'L’annuaire est injoignable\u00a0; réessayez dans quelques instants. Les comptes locaux fonctionnent toujours.',
    ],
    [
      403,
      'directory_no_domain',
      'Aucune de vos adresses n’appartient à un domaine de cette console. Contactez votre administrateur.',
    ],
    [
      403,
      'directory_address_conflict',
      'Une de vos adresses appartient déjà à un autre compte de la console. Contactez votre administrateur.',
    ],
  ])('a sign-in through the directory refused with %i %s says why (issue 31)', async (status, code, text) => {
    answerLogin(() => jsonResponse(status, { detail: 'refused', code }));
    renderWithTheme(<LoginPage />);
    await fillAndSubmit('jane@example.com', 'secret');
    await waitFor(() => expect(noticeTitles()).toEqual([`error:${text}`]));
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeEnabled();
  });

  it('a rate-limited sign-in (429) shows its own notice', async () => {
    answerLogin(() => jsonResponse(429, { detail: 'Too many', code: 'rate_limited' }));
    renderWithTheme(<LoginPage />);
    await fillAndSubmit('jane@example.com', 'wrong');
    await waitFor(() =>
      expect(noticeTitles()).toEqual(['error:Trop de tentatives de connexion. Réessayez dans quelques minutes.']),
    );
  });

  it('a 429 saying how long to wait: the notice says it, in whole minutes rounded up', async () => {
    answerLogin(() => jsonResponse(429, { detail: 'Too many', code: 'rate_limited' }, { 'retry-after': '383' }));
    renderWithTheme(<LoginPage />);
    await fillAndSubmit('jane@example.com', 'wrong');
    await waitFor(() =>
      expect(noticeTitles()).toEqual(['error:Trop de tentatives de connexion. Réessayez dans 7 minutes.']),
    );
  });

  it('"forgot password" only shows an information notice about credentials', async () => {
    renderWithTheme(<LoginPage />);
    await userEvent.setup().click(screen.getByRole('link', { name: 'Mot de passe oublié\u202f?' }));
    expect(useNotices.getState().notices[0]).toMatchObject({ type: 'info', title: 'Mot de passe oublié' });
    expect(useNotices.getState().notices[0]!.description).toMatch(/administrateur/);
    expect(sentCalls()).toEqual([]);
  });

  it('with a second factor required, replaces the form by the 6-digit code step', async () => {
    answerLogin(() => jsonResponse(200, { requires_2fa: true, partial_token: 'partial-1' }));
    renderWithTheme(<LoginPage />);
    const user = await fillAndSubmit('jane@example.com', 'secret');
    const code = await screen.findByLabelText('Code de vérification');
    expect(screen.getByRole('heading', { level: 1, name: 'Authentification à deux facteurs' })).toBeInTheDocument();
    expect(code).toHaveAttribute('inputmode', 'numeric');
    expect(code).toHaveAttribute('maxlength', '6');
    await user.type(code, '12a3');
    expect(code).toHaveValue('123'); // digits only
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('Le code doit contenir exactement 6 chiffres')).toBeInTheDocument();
    await user.type(code, '456');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await waitFor(() =>
      expect(noticeTitles()).toContain('error:Échec de la vérification du code. Veuillez réessayer.'),
    );
    const verify = fetchSpy.mock.calls.find(([u]) => String(u).endsWith('/api/auth/verify-totp/'))!;
    expect(JSON.parse((verify[1] as RequestInit).body as string)).toEqual({
      partial_token: 'partial-1',
      totp_code: '123456',
    });
  });
});

describe('/login: single sign-on (issue 32)', () => {
  const enabled = { enabled: true, label: 'Entra ID', end_session_url: null };

  it('when the api says it is on: "ou", then a button that leaves for /api/auth/oidc/start/', async () => {
    oidcInfo = () => jsonResponse(200, enabled);
    window.history.replaceState({ qcFrom: '/history?page=2' }, '', '/login');
    renderWithTheme(<LoginPage />);
    const button = await screen.findByRole('button', { name: 'Se connecter avec Entra ID' });
    expect(screen.getByText('ou')).toBeInTheDocument();
    expect(button).toHaveAttribute('type', 'button');
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeInTheDocument(); // the form stays
    button.focus(); // a real button: focusable, and Enter presses it
    expect(button).toHaveFocus();
    await userEvent.setup().keyboard('{Enter}');
    expect(navigateAway).toHaveBeenCalledTimes(1);
    expect(navigateAway).toHaveBeenCalledWith('/api/auth/oidc/start/');
    // The provider comes back to a new history entry: the origin waits in this tab's storage.
    expect(sessionStorage.getItem('qcSsoFrom')).toBe('/history?page=2');
    expect(sentCalls()).toEqual([]);
  });

  it('in English: "or" and "Sign in with <label>"', async () => {
    const { i18next } = await import('@qc/i18n');
    oidcInfo = () => jsonResponse(200, enabled);
    renderWithTheme(<LoginPage />);
    await screen.findByRole('button', { name: 'Se connecter avec Entra ID' });
    await act(() => i18next.changeLanguage('en'));
    try {
      expect(screen.getByRole('button', { name: 'Sign in with Entra ID' })).toBeInTheDocument();
      expect(screen.getByText('or')).toBeInTheDocument();
    } finally {
      await act(() => i18next.changeLanguage('fr'));
    }
  });

  it.each([
    ['off', () => jsonResponse(200, { enabled: false, label: null, end_session_url: null })],
    ['not configured (404)', () => jsonResponse(404, { detail: 'nf', code: 'oidc_not_configured' })],
    ['unanswered (network error)', () => Promise.reject(new TypeError('Failed to fetch'))],
  ])('no button and no divider when single sign-on is %s', async (_, answer) => {
    oidcInfo = answer as () => Response;
    renderWithTheme(<LoginPage />);
    await waitFor(() => expect(fetchSpy.mock.calls.some(([input]) => pathOf(input) === '/api/auth/oidc/')).toBe(true));
    await act(async () => undefined); // the answer has been handled
    expect(screen.queryByRole('button', { name: /Se connecter avec/ })).not.toBeInTheDocument();
    expect(screen.queryByText('ou')).not.toBeInTheDocument();
  });

  it.each([
    ['cancelled', 'La connexion auprès du fournisseur d’identité a été annulée.'],
    [
      'no_domain',
      'Aucune de vos adresses n’appartient à un domaine de cette console. Demandez l’accès à un administrateur.',
    ],
    [
      'address_conflict',
      'Une de vos adresses appartient déjà à un autre compte de la console. Contactez votre administrateur.',
    ],
    ['account_inactive', 'Votre compte est désactivé. Contactez votre administrateur.'],
    ['email_not_verified', /^Le fournisseur d’identité ne garantit pas votre adresse e-mail/],
    ['provider_unreachable', /n’a pas répondu.*mot de passe de la console/],
    ['clock_skew', /L’heure de ce serveur et celle du fournisseur/],
    ['invalid_response', 'La réponse du fournisseur d’identité n’a pas pu être vérifiée. Réessayez.'],
    ['expired', /a pris trop de temps.*Recommencez/],
    ['provider_error', /Le fournisseur d’identité a refusé la connexion/],
    ['not_configured', 'La connexion unique n’est pas configurée sur cette console.'],
    ['rate_limited', 'Trop de connexions ont été lancées depuis votre réseau. Réessayez dans quelques minutes.'],
    ['something_new', 'La connexion unique a échoué. Réessayez ou connectez-vous avec votre mot de passe.'],
  ])('?sso_error=%s: says why, then leaves the address', async (code, text) => {
    sessionStorage.setItem('qcSsoFrom', '/mail/42');
    window.history.pushState(null, '', `/login?sso_error=${code}&lang=x#top`);
    renderWithTheme(<LoginPage />);
    await waitFor(() => expect(useNotices.getState().notices).toHaveLength(1));
    const notice = useNotices.getState().notices[0]!;
    expect(notice.type).toBe('error');
    expect(notice.title).toMatch(text);
    // Gone from the address (a reload does not say it again); the rest is kept.
    expect(`${window.location.pathname}${window.location.search}${window.location.hash}`).toBe('/login?lang=x#top');
    // The origin the user wanted is back for a sign-in by password.
    expect((window.history.state as Record<string, unknown>).qcFrom).toBe('/mail/42');
  });

  it('?sso_error= is said once despite StrictMode’s double effects', async () => {
    const { StrictMode } = await import('react');
    window.history.replaceState(null, '', '/login?sso_error=cancelled');
    renderWithTheme(
      <StrictMode>
        <LoginPage />
      </StrictMode>,
    );
    await waitFor(() =>
      expect(noticeTitles()).toEqual(['error:La connexion auprès du fournisseur d’identité a été annulée.']),
    );
    await act(async () => undefined);
    expect(noticeTitles()).toHaveLength(1);
    expect(window.location.search).toBe('');
  });
});
