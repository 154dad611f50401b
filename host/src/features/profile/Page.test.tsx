import { resetSessionForTests, useSession } from '@qc/auth';
import { changeLanguage } from '@qc/i18n';
import { useNotices } from '@qc/ui-state';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, mockApi, renderPage, routesOf, signIn, USER } from '../../test-utils';
import ProfilePage from './Page';

const noticeTitles = () => useNotices.getState().notices.map((n) => `${n.type}:${n.title}`);
const infoSection = () => within(screen.getByTestId('profile-section-info'));
const passwordSection = () => within(screen.getByTestId('profile-section-password'));

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  useNotices.getState().clear();
  jest.restoreAllMocks();
});
afterEach(async () => {
  await act(() => changeLanguage('fr'));
});

describe('/profile: personal information (spec §5, §6)', () => {
  it('shows the user, validates username and e-mail (required, valid), and sends nothing when invalid', async () => {
    signIn();
    const { calls } = mockApi(() => jsonResponse(200, USER));
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Profil' })).toBeInTheDocument();
    const username = infoSection().getByLabelText('Nom d’utilisateur');
    const email = infoSection().getByLabelText('Adresse e-mail');
    expect(username).toHaveValue('jane.doe');
    expect(email).toHaveValue('jane@example.com');

    await user.clear(username);
    await user.clear(email);
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Veuillez saisir un nom d’utilisateur')).toBeInTheDocument();
    expect(screen.getByText('Veuillez saisir une adresse e-mail')).toBeInTheDocument();

    await user.type(username, 'jane doe');
    await user.type(email, 'not-an-address');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText(/ne peut contenir que des lettres/)).toBeInTheDocument();
    expect(await screen.findByText('Adresse e-mail invalide')).toBeInTheDocument();
    expect(calls.filter((c) => c.method !== 'GET')).toEqual([]);
  });

  it('sends only what changed; a new e-mail says where the confirmation link went and keeps the current one', async () => {
    signIn();
    const answered = { ...USER, first_name: 'Janet', pending_email: 'new@example.com' };
    const { calls } = mockApi((c) => (c.method === 'PATCH' ? jsonResponse(200, answered) : jsonResponse(200, USER)));
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    const first = infoSection().getByLabelText('Prénom');
    await user.clear(first);
    await user.type(first, 'Janet ');
    const email = infoSection().getByLabelText('Adresse e-mail');
    await user.clear(email);
    await user.type(email, 'new@example.com');
    await user.type(await infoSection().findByLabelText('Mot de passe actuel'), 'my-secret');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));

    expect(await screen.findByTestId('profile-pending-email')).toHaveTextContent(
      'Un lien de confirmation a été envoyé à new@example.com.',
    );
    const patch = calls.find((c) => c.method === 'PATCH')!;
    expect(patch.path).toBe('/api/users/me/');
    expect(patch.body).toEqual({ first_name: 'Janet', email: 'new@example.com', current_password: 'my-secret' });
    expect(noticeTitles()).toEqual(['success:Profil mis à jour avec succès']);
    // The session user follows (top bar), and the e-mail in effect is still the current one.
    expect(useSession.getState().user).toMatchObject({
      first_name: 'Janet',
      email: 'jane@example.com',
      pending_email: 'new@example.com',
    });
    // (the fields are reset: re-mounted inputs)
    await waitFor(() => expect(infoSection().getByLabelText('Adresse e-mail')).toHaveValue('jane@example.com'));
    // The e-mail is the current one again: no password field left.
    expect(infoSection().queryByLabelText('Mot de passe actuel')).not.toBeInTheDocument();
  });

  it('asks for the current password only while the e-mail differs, and sends none otherwise', async () => {
    signIn();
    const { calls } = mockApi((c) =>
      c.method === 'PATCH' ? jsonResponse(200, { ...USER, first_name: 'Janet' }) : jsonResponse(200, USER),
    );
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    expect(screen.queryByTestId('profile-current-password')).not.toBeInTheDocument();
    const email = infoSection().getByLabelText('Adresse e-mail');
    await user.clear(email);
    await user.type(email, 'other@example.com');
    expect(await infoSection().findByLabelText('Mot de passe actuel')).toBeInTheDocument();
    expect(infoSection().getByText(/confirmez avec votre mot de passe actuel/)).toBeInTheDocument();

    // Required while shown: nothing is sent without it.
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(
      await infoSection().findByText('Veuillez saisir votre mot de passe actuel pour changer d’adresse e-mail'),
    ).toBeInTheDocument();
    expect(calls.filter((c) => c.method === 'PATCH')).toEqual([]);

    // Back to the same address (any case): the field goes, with what was typed in it.
    await user.type(infoSection().getByLabelText('Mot de passe actuel'), 'typed');
    await user.clear(email);
    await user.type(email, 'JANE@example.com');
    await waitFor(() => expect(screen.queryByTestId('profile-current-password')).not.toBeInTheDocument());
    const first = infoSection().getByLabelText('Prénom');
    await user.clear(first);
    await user.type(first, 'Janet');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(noticeTitles()).toEqual(['success:Profil mis à jour avec succès']));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ first_name: 'Janet' });
  });

  it.each([
    ['fr', 'invalid_password', 'Mot de passe actuel incorrect', 'Erreur lors de la mise à jour du profil'],
    ['en', 'invalid_password', 'The current password is incorrect', 'Error updating profile'],
    [
      'fr',
      'validation_error',
      'Veuillez saisir votre mot de passe actuel pour changer d’adresse e-mail',
      'Erreur lors de la mise à jour du profil',
    ],
    [
      'en',
      'validation_error',
      'Please enter your current password to change your e-mail address',
      'Error updating profile',
    ],
  ])(
    '(%s) a 400 %s on current_password is shown on that field in the chosen language',
    async (lng, code, shown, title) => {
      if (lng === 'en') await act(() => changeLanguage('en'));
      signIn();
      const { calls } = mockApi((c) =>
        c.method === 'PATCH'
          ? jsonResponse(400, {
              detail: 'The password is not correct.',
              code,
              errors: { current_password: 'SERVER TEXT: The password is not correct.' },
            })
          : jsonResponse(200, USER),
      );
      renderPage(<ProfilePage />);
      const user = userEvent.setup();
      const email = infoSection().getByLabelText(lng === 'en' ? 'E-mail address' : 'Adresse e-mail');
      await user.clear(email);
      await user.type(email, 'new@example.com');
      const password = await infoSection().findByLabelText(lng === 'en' ? 'Current password' : 'Mot de passe actuel');
      await user.type(password, 'wrong-one');
      await user.click(screen.getByRole('button', { name: lng === 'en' ? 'Save' : 'Enregistrer' }));

      const message = await infoSection().findByText(shown);
      // On the password field itself (its error list), not elsewhere in the form.
      expect(message.closest('.ant-form-item')).toContainElement(password);
      expect(screen.queryByText(/SERVER TEXT/)).not.toBeInTheDocument();
      expect(noticeTitles()).toEqual([`error:${title}`]);
      expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({
        email: 'new@example.com',
        current_password: 'wrong-one',
      });
      // Nothing was taken: the e-mail in effect and the session's user are unchanged.
      expect(useSession.getState().user).toMatchObject({ email: 'jane@example.com' });
    },
  );

  it('an e-mail change awaiting its link shows from the session’s user, as GET /api/users/me/ gives it at start-up', async () => {
    signIn({ ...USER, pending_email: 'new@example.com' });
    mockApi(() => jsonResponse(200, { ...USER, pending_email: 'new@example.com' }));
    renderPage(<ProfilePage />);
    expect(await screen.findByTestId('profile-pending-email')).toHaveTextContent(
      'Un lien de confirmation a été envoyé à new@example.com.',
    );
  });

  it('external users: username and e-mail are read-only with an explanation; only names are sent', async () => {
    signIn({ ...USER, is_external: true });
    const { calls } = mockApi((c) =>
      c.method === 'PATCH'
        ? jsonResponse(200, { ...USER, is_external: true, last_name: 'Smith', pending_email: null })
        : jsonResponse(200, USER),
    );
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    expect(screen.getByTestId('profile-external-notice')).toHaveTextContent(
      'seuls le prénom et le nom peuvent être modifiés',
    );
    expect(infoSection().getByLabelText('Nom d’utilisateur')).toBeDisabled();
    expect(infoSection().getByLabelText('Adresse e-mail')).toBeDisabled();
    expect(infoSection().getByLabelText('Prénom')).toBeEnabled();
    const last = infoSection().getByLabelText('Nom');
    await user.clear(last);
    await user.type(last, 'Smith');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(noticeTitles()).toEqual(['success:Profil mis à jour avec succès']));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ last_name: 'Smith' });
  });

  it('a username already taken (409) is shown on its field with "Error updating profile"', async () => {
    signIn();
    mockApi((c) =>
      c.method === 'PATCH'
        ? jsonResponse(409, {
            detail: 'This username is already taken.',
            code: 'username_taken',
            errors: { username: 'This username is already taken.' },
          })
        : jsonResponse(200, USER),
    );
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    const username = infoSection().getByLabelText('Nom d’utilisateur');
    await user.clear(username);
    await user.type(username, 'john');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    expect(await screen.findByText('Ce nom d’utilisateur est déjà pris')).toBeInTheDocument();
    expect(noticeTitles()).toEqual(['error:Erreur lors de la mise à jour du profil']);
  });
});

describe('/profile: password change (spec §5, §8)', () => {
  async function fill(current: string, next: string, confirm: string) {
    const user = userEvent.setup();
    const s = passwordSection();
    if (current) await user.type(s.getByLabelText('Mot de passe actuel'), current);
    if (next) await user.type(s.getByLabelText('Nouveau mot de passe'), next);
    if (confirm) await user.type(s.getByLabelText('Confirmer le nouveau mot de passe'), confirm);
    await user.click(s.getByRole('button', { name: 'Changer le mot de passe' }));
    return user;
  }

  it('requires the three fields, 8 characters at least, and a matching confirmation; nothing is sent', async () => {
    signIn();
    const { calls } = mockApi(() => jsonResponse(200, USER));
    renderPage(<ProfilePage />);
    await fill('', '', '');
    expect(await screen.findByText('Veuillez saisir votre mot de passe actuel')).toBeInTheDocument();
    expect(screen.getByText('Veuillez saisir un nouveau mot de passe')).toBeInTheDocument();
    expect(screen.getByText('Veuillez confirmer le nouveau mot de passe')).toBeInTheDocument();

    await fill('old-secret', 'short', 'shorter');
    expect(await screen.findByText('Le mot de passe doit contenir au moins 8 caractères')).toBeInTheDocument();
    expect(await screen.findByText('Les mots de passe ne correspondent pas')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/users/me/password/')).toEqual([]);
  });

  it('in English: "Password must be at least 8 characters long", "Passwords do not match"', async () => {
    await act(() => changeLanguage('en'));
    signIn();
    mockApi(() => jsonResponse(200, USER));
    renderPage(<ProfilePage />);
    const user = userEvent.setup();
    const s = passwordSection();
    await user.type(s.getByLabelText('New password'), 'short');
    await user.type(s.getByLabelText('Confirm the new password'), 'other');
    await user.click(s.getByRole('button', { name: 'Change password' }));
    expect(await screen.findByText('Password must be at least 8 characters long')).toBeInTheDocument();
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
  });

  it('a wrong current password (400) is a field error, and the session goes on: no refresh, no sign-out', async () => {
    signIn();
    const tokens = [localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')];
    const { calls } = mockApi((c) =>
      c.path === '/api/users/me/password/'
        ? jsonResponse(400, {
            detail: 'The password is not correct.',
            code: 'invalid_password',
            errors: { current_password: 'The password is not correct.' },
          })
        : jsonResponse(200, USER),
    );
    renderPage(<ProfilePage />);
    await fill('not-my-password', 'new-secret-1', 'new-secret-1');
    expect(await screen.findByText('Mot de passe actuel incorrect')).toBeInTheDocument();
    expect(noticeTitles()).toEqual(['error:Erreur lors du changement de mot de passe']);
    const post = calls.find((c) => c.path === '/api/users/me/password/')!;
    expect(post.body).toEqual({ current_password: 'not-my-password', new_password: 'new-secret-1' });
    expect(post.authorization).toBe(`Bearer ${tokens[0]}`);
    expect(routesOf(calls)).not.toContain('POST /api/auth/refresh/');
    expect(useSession.getState()).toMatchObject({ isAuthenticated: true, user: USER });
    expect([localStorage.getItem('accessToken'), localStorage.getItem('refreshToken')]).toEqual(tokens);
  });

  it('success (204): "Password changed successfully" and the fields are emptied', async () => {
    signIn();
    mockApi((c) =>
      c.path === '/api/users/me/password/' ? new Response(null, { status: 204 }) : jsonResponse(200, USER),
    );
    renderPage(<ProfilePage />);
    await fill('old-secret', 'new-secret-1', 'new-secret-1');
    await waitFor(() => expect(noticeTitles()).toEqual(['success:Mot de passe modifié avec succès']));
    await waitFor(() => expect(passwordSection().getByLabelText('Nouveau mot de passe')).toHaveValue(''));
    expect(useSession.getState().isAuthenticated).toBe(true);
  });
});

describe('/profile: a directory or SSO account (issue 31)', () => {
  const LDAP_USER = {
    ...USER,
    source: 'ldap' as const,
    addresses: ['jane@example.com', 'j.doe@example.com', 'sales@example.com'],
    mfa_enabled: true,
  };

  it('every address shown (primary first), read-only; no password change; the directory said', async () => {
    signIn(LDAP_USER);
    const { calls } = mockApi((c) =>
      c.method === 'PATCH' ? jsonResponse(200, { ...LDAP_USER, first_name: 'Janet' }) : jsonResponse(200, LDAP_USER),
    );
    renderPage(<ProfilePage />);
    const addresses = within(screen.getByTestId('profile-addresses'));
    expect(addresses.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'jane@example.comPrincipale',
      'j.doe@example.com',
      'sales@example.com',
    ]);
    expect(screen.getByTestId('profile-managed-notice')).toHaveTextContent(
      'Vous vous connectez avec l’annuaire de votre organisation',
    );
    expect(screen.queryByTestId('profile-external-notice')).toBeNull();
    // No console password to change: the section is not there at all.
    expect(screen.queryByTestId('profile-section-password')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Changer le mot de passe' })).toBeNull();
    // The directory's fields are read-only (and described by the notice); the names are the console's.
    expect(infoSection().getByLabelText('Nom d’utilisateur')).toBeDisabled();
    expect(infoSection().getByLabelText('Adresse e-mail')).toBeDisabled();
    expect(infoSection().getByLabelText('Adresse e-mail')).toHaveAccessibleDescription(
      expect.stringContaining('annuaire') as string,
    );
    const user = userEvent.setup();
    const first = infoSection().getByLabelText('Prénom');
    await user.clear(first);
    await user.type(first, 'Janet');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(noticeTitles()).toEqual(['success:Profil mis à jour avec succès']));
    expect(calls.find((c) => c.method === 'PATCH')!.body).toEqual({ first_name: 'Janet' });

    // Turning two-factor off asks for a password: the directory's, as its help says.
    await user.click(within(screen.getByTestId('profile-section-mfa')).getByRole('button', { name: 'Désactiver' }));
    const dialog = await screen.findByRole('dialog', { name: 'Désactiver l’authentification à deux facteurs' });
    expect(within(dialog).getByLabelText('Mot de passe')).toHaveAccessibleDescription(
      'Le mot de passe de l’annuaire de votre organisation, celui avec lequel vous vous connectez.',
    );
  });

  it('an SSO account: says so, in English too, and nothing speaks of a password; a local account keeps its password form', async () => {
    await act(() => changeLanguage('en'));
    const SSO_USER = { ...USER, source: 'oidc' as const, addresses: ['jane@example.com'] };
    signIn(SSO_USER);
    mockApi(() => jsonResponse(200, SSO_USER));
    const { unmount } = renderPage(<ProfilePage />);
    const notice = screen.getByTestId('profile-managed-notice');
    expect(notice).toHaveTextContent(
      'You sign in with your organisation’s single sign-on (SSO), which provides your identity',
    );
    expect(infoSection().getByLabelText('E-mail address')).toHaveAccessibleDescription(
      expect.stringContaining('single sign-on (SSO)') as string,
    );
    expect(screen.queryByTestId('profile-section-password')).toBeNull();
    expect(within(screen.getByTestId('profile-addresses')).getAllByRole('listitem')).toHaveLength(1);
    // Neither a password nor the directory, anywhere on the page (the header's description included).
    expect(screen.getByTestId('profile-page')).not.toHaveTextContent(/password|directory/i);
    expect(screen.getByText('Your details and two-factor authentication.')).toBeInTheDocument();
    unmount();
    signIn();
    renderPage(<ProfilePage />);
    expect(screen.getByTestId('profile-section-password')).toBeInTheDocument();
    expect(screen.queryByTestId('profile-managed-notice')).toBeNull();
    expect(screen.getByText('Your details, your password and two-factor authentication.')).toBeInTheDocument();
  });

  it('an SSO account in French: the SSO notice, no password section, no password or directory word', async () => {
    const SSO_USER = { ...USER, source: 'oidc' as const, mfa_enabled: true };
    signIn(SSO_USER);
    mockApi(() => jsonResponse(200, SSO_USER));
    renderPage(<ProfilePage />);
    expect(screen.getByTestId('profile-managed-notice')).toHaveTextContent(
      'Vous vous connectez par l’authentification unique (SSO) de votre organisation, qui fournit votre identité',
    );
    expect(screen.queryByTestId('profile-section-password')).toBeNull();
    expect(screen.getByTestId('profile-page')).not.toHaveTextContent(/mot de passe|annuaire/i);
    expect(screen.getByText('Vos informations et l’authentification à deux facteurs.')).toBeInTheDocument();
  });
});
