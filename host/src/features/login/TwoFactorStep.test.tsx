import { resetSessionForTests, useSession } from '@qc/auth';
import { useNotices } from '@qc/ui-state';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../App';
import { jsonResponse, makeJwt, mockApi, renderWithTheme, routesOf, USER } from '../../test-utils';
import { LoginPage } from './LoginPage';

jest.mock('../../shell/RouterShell', () => ({
  __esModule: true,
  default: () => <p>shell at {window.location.pathname}</p>,
}));

const noticeTitles = () => useNotices.getState().notices.map((n) => `${n.type}:${n.title}`);

function awaitingCode(partialToken: string | null = 'partial-1') {
  useSession.setState({ isLoading: false, requires2FA: true, partialToken });
}

async function codeStep() {
  renderWithTheme(<LoginPage />);
  const user = userEvent.setup();
  const input = await screen.findByLabelText('Code de vérification');
  return { user, input };
}

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  useNotices.getState().clear();
  jest.restoreAllMocks();
});

describe('two-factor step on /login (spec §2, §4, §5, §8; DESIGN §7)', () => {
  it('validates the code: non-empty and exactly 6 digits (login.totp_invalid); nothing is sent', async () => {
    awaitingCode();
    const { calls } = mockApi(() => jsonResponse(500));
    const { user, input } = await codeStep();
    expect(input).toHaveAttribute('inputmode', 'numeric');
    expect(input).toHaveAttribute('maxlength', '6');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('Le code doit contenir exactement 6 chiffres')).toBeInTheDocument();
    await user.type(input, '12345');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('Le code doit contenir exactement 6 chiffres')).toBeInTheDocument();
    expect(calls).toHaveLength(0);
  });

  it('"use a backup code" switches to a text input sent as backup_code, and back', async () => {
    awaitingCode();
    const access = makeJwt(300);
    const { calls } = mockApi((c) =>
      c.path === '/api/auth/verify-totp/' ? jsonResponse(200, { access, refresh: 'r2' }) : jsonResponse(200, USER),
    );
    const { user } = await codeStep();
    await user.click(screen.getByRole('button', { name: 'Utiliser un code de secours' }));
    const backup = screen.getByLabelText('Code de secours');
    expect(backup).not.toHaveAttribute('inputmode');
    expect(screen.queryByLabelText('Code de vérification')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('Veuillez saisir un code de secours')).toBeInTheDocument();

    // And back to the 6-digit code, then to the backup code again.
    await user.click(screen.getByRole('button', { name: 'Utiliser le code de l’application' }));
    expect(screen.getByLabelText('Code de vérification')).toHaveAttribute('inputmode', 'numeric');
    await user.click(screen.getByRole('button', { name: 'Utiliser un code de secours' }));

    await user.type(screen.getByLabelText('Code de secours'), ' K7MPQ-R2XWZ ');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await waitFor(() => expect(useSession.getState().isAuthenticated).toBe(true));
    expect(calls[0]!.body).toEqual({ partial_token: 'partial-1', backup_code: 'K7MPQ-R2XWZ' });
  });

  it('success: stores the tokens, fetches the user, clears the partial token, says "Connexion réussie"', async () => {
    awaitingCode();
    const access = makeJwt(300);
    const { calls } = mockApi((c) =>
      c.path === '/api/auth/verify-totp/' ? jsonResponse(200, { access, refresh: 'r2' }) : jsonResponse(200, USER),
    );
    const { user, input } = await codeStep();
    await user.type(input, '123456');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await waitFor(() => expect(useSession.getState().isAuthenticated).toBe(true));
    // Left alone (no App to leave /login), the page shows the form again, which asks about single sign-on.
    expect(routesOf(calls.filter((c) => c.path !== '/api/auth/oidc/'))).toEqual([
      'POST /api/auth/verify-totp/',
      'GET /api/users/me/',
    ]);
    expect(calls[0]!.body).toEqual({ partial_token: 'partial-1', totp_code: '123456' });
    expect(calls[1]!.authorization).toBe(`Bearer ${access}`);
    expect(localStorage.getItem('accessToken')).toBe(access);
    expect(localStorage.getItem('refreshToken')).toBe('r2');
    expect(useSession.getState()).toMatchObject({ partialToken: null, requires2FA: false, user: USER });
    expect(noticeTitles()).toEqual(['success:Connexion réussie']);
  });

  it('a refused code shows login.totp_error and keeps the step', async () => {
    awaitingCode();
    mockApi(() => jsonResponse(401, { detail: 'The code is not valid.', code: 'invalid_code' }));
    const { user, input } = await codeStep();
    await user.type(input, '000000');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await waitFor(() =>
      expect(noticeTitles()).toEqual(['error:Échec de la vérification du code. Veuillez réessayer.']),
    );
    expect(useSession.getState()).toMatchObject({ isAuthenticated: false, partialToken: 'partial-1' });
    expect(screen.getByLabelText('Code de vérification')).toBeInTheDocument();
  });

  it('without a partial token says "Jeton partiel non disponible" and sends nothing', async () => {
    awaitingCode(null);
    const { calls } = mockApi(() => jsonResponse(200, {}));
    const { user, input } = await codeStep();
    await user.type(input, '123456');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    await waitFor(() => expect(noticeTitles()).toEqual(['error:Jeton partiel non disponible']));
    expect(calls).toHaveLength(0);
  });

  it('429: the partial token is burned, a translated notice, and back to the password step', async () => {
    awaitingCode();
    mockApi(() => jsonResponse(429, { detail: 'Too many', code: 'rate_limited' }));
    const { user, input } = await codeStep();
    await user.type(input, '123456');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Connexion' })).toBeInTheDocument();
    expect(noticeTitles()).toEqual(['error:Trop de tentatives de connexion. Réessayez dans quelques minutes.']);
    expect(useNotices.getState().notices[0]!.description).toBe(
      'Saisissez à nouveau votre adresse e-mail et votre mot de passe.',
    );
    expect(useSession.getState()).toMatchObject({ requires2FA: false, partialToken: null });
  });

  it('"back to sign-in" returns to the password form', async () => {
    awaitingCode();
    mockApi(() => jsonResponse(500));
    const { user } = await codeStep();
    await user.click(screen.getByRole('button', { name: 'Retour à la connexion' }));
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
  });
});

describe('after the code step, the host goes to the remembered origin (spec §2, §4)', () => {
  it('signed in by the second factor on /login → the origin remembered when sent to /login', async () => {
    window.history.replaceState({ qcFrom: '/profile' }, '', '/login');
    useSession.setState({ initialize: async () => undefined });
    awaitingCode();
    mockApi((c) =>
      c.path === '/api/auth/verify-totp/'
        ? jsonResponse(200, { access: makeJwt(300), refresh: 'r2' })
        : jsonResponse(200, USER),
    );
    renderWithTheme(<App />);
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Code de vérification'), '654321');
    await user.click(screen.getByRole('button', { name: 'Vérifier' }));
    expect(await screen.findByText('shell at /profile')).toBeInTheDocument();
  });
});
