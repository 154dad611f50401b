import { resetSessionForTests, useSession } from '@qc/auth';
import { ThemeRoot } from '@qc/ui';
import { useNotices } from '@qc/ui-state';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactElement } from 'react';
import { App } from '../../App';
import { registerHostNamespace } from '../../i18n';
import { jsonResponse, makeJwt, mockApi, routesOf, USER, type ApiCall } from '../../test-utils';
import { LoginPage } from './LoginPage';

jest.mock('../../shell/RouterShell', () => ({
  __esModule: true,
  default: () => <p>shell at {window.location.pathname}</p>,
}));

const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const OTPAUTH = `otpauth://totp/Quarantine%20Console:jane%40example.com?secret=${SECRET}&issuer=Quarantine%20Console`;
const CODES = ['2345ABCDEF', '3456BCDEFG', '4567CDEFGH'];
const noticeTitles = () => useNotices.getState().notices.map((n) => `${n.type}:${n.title}`);
const stored = () => [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')];

/** As /login renders: the host's eager texts only. The set-up chunk must bring the two-factor ones itself. */
function renderBare(ui: ReactElement) {
  registerHostNamespace();
  return render(<ThemeRoot>{ui}</ThemeRoot>);
}

function holdAtSetup() {
  useSession.setState({ isLoading: false, requires2FASetup: true, partialToken: 'setup-1' });
}

/** The API of a set-up: setup, enable (with the new session), then the user. */
function setupApi(overrides: (c: ApiCall) => Response | undefined = () => undefined) {
  const access = makeJwt(300);
  const api = mockApi((c) => {
    const special = overrides(c);
    if (special) return special;
    if (c.path === '/api/auth/login/') return jsonResponse(200, { requires_2fa_setup: true, partial_token: 'setup-1' });
    if (c.path === '/api/users/me/mfa/setup/') return jsonResponse(200, { secret: SECRET, otpauth_url: OTPAUTH });
    if (c.path === '/api/users/me/mfa/enable/')
      return jsonResponse(200, { backup_codes: CODES, access, refresh: 'r-setup' });
    if (c.path === '/api/users/me/') return jsonResponse(200, { ...USER, mfa_enabled: true });
    return jsonResponse(500, { detail: 'unexpected', code: 'internal_error' });
  });
  return { ...api, access };
}

async function scanAndType(user: ReturnType<typeof userEvent.setup>, code = '123456') {
  expect(
    await screen.findByRole('img', { name: 'QR code à scanner avec l’application d’authentification' }),
  ).toBeVisible();
  await user.click(screen.getByRole('button', { name: 'Suivant' }));
  await user.type(screen.getByLabelText('Code à 6 chiffres'), code);
  await user.click(screen.getByRole('button', { name: 'Activer' }));
}

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  useNotices.getState().clear();
  jest.restoreAllMocks();
});

describe('two-factor set-up required at sign-in (issue 16: requires_2fa_setup)', () => {
  it('password → set-up step (QR, code, backup codes once) → signed in on /dashboard, with the set-up token as Bearer', async () => {
    window.history.replaceState(null, '', '/login');
    useSession.setState({ initialize: async () => undefined, isLoading: false });
    const { calls, access } = setupApi();
    renderBare(<App />);
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Adresse e-mail'), 'jane@example.com');
    await user.type(screen.getByLabelText('Mot de passe'), 'a long password');
    await user.click(screen.getByRole('button', { name: 'Se connecter' }));

    // The form is replaced by the set-up step, which says why.
    const step = await screen.findByTestId('two-factor-setup-step');
    expect(screen.getByRole('heading', { level: 1, name: 'Authentification à deux facteurs' })).toBeInTheDocument();
    expect(within(step).getByText(/Votre compte exige l’authentification à deux facteurs/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Mot de passe')).not.toBeInTheDocument();
    expect(noticeTitles()).not.toContain('success:Connexion réussie');
    await waitFor(() => expect(within(step).getByTestId('mfa-secret')).toHaveTextContent('JBSW Y3DP EHPK 3PXP'));

    await scanAndType(user);
    const list = await screen.findByRole('list', { name: 'Codes de secours' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(CODES);
    // Shown once, before anything else: not signed in yet.
    expect(useSession.getState().isAuthenticated).toBe(false);
    expect(stored()).toEqual([null, null]);

    const next = screen.getByRole('button', { name: 'Continuer' });
    expect(next).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'J’ai enregistré ces codes' }));
    await user.click(next);
    expect(await screen.findByText('shell at /dashboard')).toBeInTheDocument();
    expect(stored()).toEqual([access, 'r-setup']);
    expect(noticeTitles()).toEqual(
      expect.arrayContaining([
        'success:Authentification à deux facteurs activée avec succès',
        'success:Connexion réussie',
      ]),
    );

    // The calls of the sign-in (/login also asks whether single sign-on is on).
    const sent = calls.filter((c) => c.path !== '/api/auth/oidc/');
    expect(routesOf(sent)).toEqual([
      'POST /api/auth/login/',
      'POST /api/users/me/mfa/setup/',
      'POST /api/users/me/mfa/enable/',
      'GET /api/users/me/',
    ]);
    const [, setup, enable, me] = sent;
    expect([setup!.authorization, enable!.authorization]).toEqual(['Bearer setup-1', 'Bearer setup-1']);
    expect(enable!.body).toEqual({ totp_code: '123456' });
    expect(me!.authorization).toBe(`Bearer ${access}`);
  });

  it('a wrong code stays on the code step, with the field’s error', async () => {
    holdAtSetup();
    setupApi((c) =>
      c.path === '/api/users/me/mfa/enable/'
        ? jsonResponse(400, { detail: 'no', code: 'invalid_code', errors: { totp_code: 'x' } })
        : undefined,
    );
    renderBare(<LoginPage />);
    const user = userEvent.setup();
    await scanAndType(user, '000000');
    expect(
      await screen.findByText('Code TOTP invalide. Vérifiez l’horloge de votre appareil puis réessayez.'),
    ).toBeInTheDocument();
    expect(screen.getByTestId('mfa-setup')).toHaveAttribute('data-step', 'verify');
    expect(noticeTitles()).toEqual([]); // the field says it; no notice says it twice
    expect(useSession.getState()).toMatchObject({ requires2FASetup: true, partialToken: 'setup-1' });
  });

  it('a set-up left too long (400 mfa_setup_expired): a new one starts, back to the QR code', async () => {
    holdAtSetup();
    let setups = 0;
    const { calls } = setupApi((c) => {
      if (c.path === '/api/users/me/mfa/setup/') {
        setups += 1;
        return jsonResponse(200, {
          secret: setups === 1 ? SECRET : 'NEWSECRETNEWSECRETNEWSECRETNEWSE',
          otpauth_url: OTPAUTH,
        });
      }
      if (c.path === '/api/users/me/mfa/enable/')
        return jsonResponse(400, { detail: 'expired', code: 'mfa_setup_expired' });
      return undefined;
    });
    renderBare(<LoginPage />);
    const user = userEvent.setup();
    await scanAndType(user);
    await waitFor(() =>
      expect(noticeTitles()).toContain('warning:La configuration a expiré\u00a0: scannez le nouveau QR code.'),
    );
    await waitFor(() => expect(screen.getByTestId('mfa-secret')).toHaveTextContent('NEWS ECRE'));
    expect(screen.getByTestId('mfa-setup')).toHaveAttribute('data-step', 'scan');
    expect(routesOf(calls).filter((r) => r.endsWith('/mfa/setup/'))).toHaveLength(2);
  });

  it('the set-up token refused (401: expired): back to the password form, said so', async () => {
    holdAtSetup();
    setupApi((c) =>
      c.path === '/api/users/me/mfa/enable/'
        ? jsonResponse(401, { detail: 'expired', code: 'token_expired' })
        : undefined,
    );
    renderBare(<LoginPage />);
    const user = userEvent.setup();
    await scanAndType(user);
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
    expect(useSession.getState()).toMatchObject({ requires2FASetup: false, partialToken: null });
    expect(noticeTitles()).toContain('error:La vérification a expiré. Veuillez vous reconnecter.');
  });

  it('"back to sign-in" leaves the step and forgets the set-up token', async () => {
    holdAtSetup();
    setupApi();
    renderBare(<LoginPage />);
    const user = userEvent.setup();
    await screen.findByTestId('mfa-qr');
    await user.click(screen.getByRole('button', { name: 'Retour à la connexion' }));
    expect(await screen.findByLabelText('Mot de passe')).toBeInTheDocument();
    expect(useSession.getState()).toMatchObject({ requires2FASetup: false, partialToken: null });
  });
});
