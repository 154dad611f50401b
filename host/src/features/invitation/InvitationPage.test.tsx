import { resetSessionForTests, useSession } from '@qc/auth';
import { INVITATION_PATH } from '@qc/contracts';
import { ThemeRoot } from '@qc/ui';
import { useNotices } from '@qc/ui-state';
import { changeLanguage } from '@qc/i18n';
import { act, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App } from '../../App';
import { INVITATION_PAGE_PATH } from '../../app/location';
import { registerHostNamespace } from '../../i18n';
import { invitationEn, invitationFr } from '../../i18n/invitation';
import { jsonResponse, mockApi, routesOf } from '../../test-utils';

jest.mock('../../shell/RouterShell', () => ({
  __esModule: true,
  default: () => <p>shell at {window.location.pathname}</p>,
}));

const noticeTitles = () => useNotices.getState().notices.map((n) => `${n.type}:${n.title}`);

/** The host as a browser opening `url`: no session (nothing stored), the eager texts only. */
async function open(url: string) {
  window.history.replaceState(null, '', url);
  registerHostNamespace();
  render(
    <ThemeRoot>
      <App />
    </ThemeRoot>,
  );
  return userEvent.setup();
}

async function fill(user: ReturnType<typeof userEvent.setup>, password: string, confirm: string) {
  if (password) await user.type(await screen.findByLabelText('Nouveau mot de passe'), password);
  if (confirm) await user.type(screen.getByLabelText('Confirmer le mot de passe'), confirm);
  await user.click(screen.getByRole('button', { name: 'Enregistrer le mot de passe' }));
}

beforeEach(async () => {
  await act(() => changeLanguage('fr'));
  localStorage.clear();
  resetSessionForTests();
  useNotices.getState().clear();
  jest.restoreAllMocks();
});

describe('/invitation?token=… (public, like /login)', () => {
  it('is the path of @qc/contracts; both languages have the same keys', () => {
    expect(INVITATION_PAGE_PATH).toBe(INVITATION_PATH);
    const keys = (o: object) => Object.keys(o).sort();
    expect(keys(invitationEn)).toEqual(keys(invitationFr));
  });

  it('opening it shows the form without a session and changes nothing (no request)', async () => {
    const { calls } = mockApi(() => jsonResponse(500));
    await open('/invitation?token=tok-123');
    expect(await screen.findByRole('heading', { level: 1, name: 'Choisir votre mot de passe' })).toBeInTheDocument();
    expect(screen.getByLabelText('Nouveau mot de passe')).toHaveAttribute('autocomplete', 'new-password');
    expect(document.title).toBe('Choisir votre mot de passe · Quarantine Console');
    // Not sent to /login, nothing asked of the api.
    expect(window.location.pathname).toBe('/invitation');
    expect(calls).toEqual([]);
  });

  it('spec §5: a password is required, of at least 8 characters, and confirmed identically; nothing is sent', async () => {
    const { calls } = mockApi(() => jsonResponse(500));
    const user = await open('/invitation?token=tok-123');
    await fill(user, '', '');
    expect(await screen.findByText('Veuillez saisir un mot de passe')).toBeInTheDocument();
    expect(screen.getByText('Veuillez confirmer le mot de passe')).toBeInTheDocument();
    await fill(user, 'short', 'short');
    expect(await screen.findByText('Le mot de passe doit contenir au moins 8 caractères')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Nouveau mot de passe'));
    await user.clear(screen.getByLabelText('Confirmer le mot de passe'));
    await fill(user, 'a long password', 'a long passw0rd');
    expect(await screen.findByText('Les mots de passe ne correspondent pas')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('204: the password is set with the link’s token, then /login with a notice; the link leaves the history', async () => {
    const { calls } = mockApi((c) =>
      c.path === '/api/auth/invitation/' ? new Response(null, { status: 204 }) : jsonResponse(500),
    );
    const user = await open('/invitation?token=tok-123');
    await fill(user, 'a long password', 'a long password');
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
    expect(window.location.pathname + window.location.search).toBe('/login');
    expect(noticeTitles()).toContain('success:Mot de passe enregistré. Vous pouvez maintenant vous connecter.');
    // /login asks whether single sign-on is on (issue 32); nothing else was sent.
    expect(routesOf(calls).filter((r) => r !== 'GET /api/auth/oidc/')).toEqual(['POST /api/auth/invitation/']);
    expect(calls[0]).toMatchObject({ body: { token: 'tok-123', password: 'a long password' }, authorization: null });
    expect(useSession.getState().isAuthenticated).toBe(false);
  });

  it.each([
    ['invitation_invalid', 'Ce lien d’invitation a déjà été utilisé ou n’est pas valide.'],
    ['invitation_expired', 'Ce lien d’invitation a expiré.'],
  ])('%s: the page says the link cannot be used and to ask the administrator', async (code, text) => {
    mockApi(() => jsonResponse(400, { detail: 'x', code }));
    const user = await open('/invitation?token=tok-used');
    await fill(user, 'a long password', 'a long password');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Lien d’invitation inutilisable');
    expect(alert).toHaveTextContent(text);
    expect(alert).toHaveTextContent('Demandez une nouvelle invitation à votre administrateur.');
    expect(screen.queryByLabelText('Nouveau mot de passe')).not.toBeInTheDocument();
    await user.click(screen.getByRole('link', { name: 'Aller à la page de connexion' }));
    expect(await screen.findByRole('button', { name: 'Se connecter' })).toBeInTheDocument();
  });

  it('without a token the link is incomplete: said at once, no form', async () => {
    const { calls } = mockApi(() => jsonResponse(500));
    await open('/invitation');
    expect(await screen.findByRole('alert')).toHaveTextContent('Ce lien est incomplet');
    expect(screen.queryByLabelText('Nouveau mot de passe')).not.toBeInTheDocument();
    expect(calls).toEqual([]);
  });

  it('the api down: a notice, the form stays to try again', async () => {
    mockApi(() => jsonResponse(503, { detail: 'db', code: 'database_unavailable' }));
    const user = await open('/invitation?token=tok-123');
    await fill(user, 'a long password', 'a long password');
    await waitFor(() => expect(noticeTitles()).toContain('error:Le mot de passe n’a pas pu être enregistré.'));
    expect(screen.getByLabelText('Nouveau mot de passe')).toBeInTheDocument();
    expect(window.location.pathname).toBe('/invitation');
  });

  it('English: the whole page follows the language', async () => {
    mockApi(() => jsonResponse(500));
    await open('/invitation?token=tok-123');
    await act(() => changeLanguage('en'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Choose your password' })).toBeInTheDocument();
    expect(screen.getByLabelText('Confirm password')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to the sign-in page' })).toBeInTheDocument();
  });
});
