import { changeLanguage } from '@qc/i18n';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  adminUser,
  currentLocation,
  jsonResponse,
  mockApi,
  noticeOf,
  noticeTitles,
  renderUsers,
  signInAs,
  type ApiCall,
} from '../../test-utils';
import type { AdminUser } from '../users/users.types';

const sent = (calls: ApiCall[], method: string, path = '/api/users/u2/') =>
  calls.filter((c) => c.method === method && c.path === path);
const dialog = () => screen.findByRole('dialog');

/** GET /api/users/u2/ answers `user`; PATCH merges the body into it (or answers `refusal`). */
function api(user: AdminUser, refusal?: { status: number; body: unknown }) {
  let current = user;
  return mockApi((call) => {
    if (call.path === '/api/users/u2/' && call.method === 'GET') return jsonResponse(200, current);
    if (call.path === '/api/users/u2/' && call.method === 'PATCH') {
      if (refusal) return jsonResponse(refusal.status, refusal.body);
      current = { ...current, ...(call.body as Partial<AdminUser>) };
      return jsonResponse(200, current);
    }
    if (call.path === '/api/users/u2/' && call.method === 'DELETE')
      return refusal ? jsonResponse(refusal.status, refusal.body) : new Response(null, { status: 204 });
    if (call.path === '/api/users/u2/invitation/') return new Response(null, { status: 204 });
    if (call.path === '/api/users/u2/mfa/reset/') {
      current = { ...current, mfa_enabled: false };
      return new Response(null, { status: 204 });
    }
    if (call.path === '/api/users/') return jsonResponse(200, { results: [], next_cursor: null });
    if (call.path === '/api/domains/') return jsonResponse(200, { results: [], next_cursor: null });
    return jsonResponse(404, { detail: 'Not found.', code: 'not_found' });
  });
}

beforeEach(() => {
  jest.restoreAllMocks();
  signInAs('admin');
});
afterEach(() => changeLanguage('fr'));

describe('user detail', () => {
  it('shows the user and saves only what changed', async () => {
    const { calls } = api(adminUser());
    renderUsers('/users/u2');
    expect(await screen.findByRole('heading', { level: 1, name: 'jane@a.example' })).toBeInTheDocument();
    const save = screen.getByRole('button', { name: 'Enregistrer' });
    expect(save).toBeDisabled(); // nothing changed yet
    const user = userEvent.setup({ delay: null });
    await user.clear(screen.getByLabelText('Prénom'));
    await user.type(screen.getByLabelText('Prénom'), 'Janet');
    await user.click(screen.getByRole('switch', { name: 'Exiger la double authentification' }));
    await waitFor(() => expect(save).toBeEnabled());
    await user.click(save);
    await waitFor(() => expect(sent(calls, 'PATCH')).toHaveLength(1));
    expect(sent(calls, 'PATCH')[0]!.body).toEqual({ first_name: 'Janet', mfa_required: true });
    await waitFor(() => expect(noticeTitles()).toEqual(['success: Utilisateur mis à jour']));
    expect(await screen.findByText('Exigée : sera configurée à la prochaine connexion.')).toBeInTheDocument();
  });

  it('an external user: username and e-mail read-only, with why; first and last name editable', async () => {
    const { calls } = api(adminUser({ is_external: true }));
    renderUsers('/users/u2');
    expect(await screen.findByTestId('user-external-notice')).toHaveTextContent(
      'Utilisateur externe : son identifiant et son e-mail ne peuvent pas être modifiés',
    );
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Identifiant')).toHaveAttribute('readonly');
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('E-mail'), 'x');
    expect(screen.getByLabelText('E-mail')).toHaveValue('jane@a.example');
    await user.type(screen.getByLabelText('Nom'), '-Smith');
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(sent(calls, 'PATCH')).toHaveLength(1));
    expect(sent(calls, 'PATCH')[0]!.body).toEqual({ last_name: 'Doe-Smith' });
  });

  it('delete is behind a confirmation; then spec §8 "User successfully deleted" and back to the list', async () => {
    const { calls } = api(adminUser());
    renderUsers('/users/u2');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Supprimer l’utilisateur' }));
    let confirm = await dialog();
    expect(confirm).toHaveTextContent('Supprimer jane@a.example ?');
    await user.click(within(confirm).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(sent(calls, 'DELETE')).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Supprimer l’utilisateur' }));
    confirm = await dialog();
    await user.click(within(confirm).getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(sent(calls, 'DELETE')).toHaveLength(1));
    await waitFor(() => expect(currentLocation()).toBe('/users'));
    expect(noticeTitles()).toEqual(['success: Utilisateur supprimé avec succès']);
  });

  it('in English, the spec §8 text', async () => {
    await changeLanguage('en');
    api(adminUser());
    renderUsers('/users/u2');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Delete user' }));
    await user.click(within(await dialog()).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(noticeTitles()).toEqual(['success: User successfully deleted']));
  });

  it('reset two-factor: confirmation, then POST mfa/reset/ and the new state', async () => {
    const { calls } = api(adminUser({ mfa_enabled: true }));
    renderUsers('/users/u2');
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByTestId('user-mfa-state')).toHaveTextContent('Activée');
    await user.click(screen.getByRole('button', { name: 'Réinitialiser la double authentification' }));
    const confirm = await dialog();
    expect(confirm).toHaveTextContent('Réinitialiser la double authentification de jane@a.example ?');
    expect(sent(calls, 'POST', '/api/users/u2/mfa/reset/')).toEqual([]);
    await user.click(within(confirm).getByRole('button', { name: 'Réinitialiser' }));
    await waitFor(() => expect(sent(calls, 'POST', '/api/users/u2/mfa/reset/')).toHaveLength(1));
    await waitFor(() => expect(screen.getByTestId('user-mfa-state')).toHaveTextContent('Désactivée'));
    expect(noticeTitles()).toEqual(['success: Double authentification réinitialisée']);
  });

  it('an invited user: the pending invitation is said, and a new one can be sent', async () => {
    const { calls } = api(adminUser({ invitation_pending: true }));
    renderUsers('/users/u2');
    expect(await screen.findByTestId('user-pending-invitation')).toHaveTextContent(
      'L’utilisateur n’a pas encore choisi son mot de passe',
    );
    expect(screen.getByTestId('user-invitation')).toHaveTextContent('Invitation en attente');
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Renvoyer l’invitation' }));
    await waitFor(() => expect(sent(calls, 'POST', '/api/users/u2/invitation/')).toHaveLength(1));
    await waitFor(() => expect(noticeTitles()).toEqual(['success: Nouvelle invitation envoyée à jane@a.example']));
  });

  it('one’s own account: no delete, no deactivation, no change of role (disabled, saying why)', async () => {
    signInAs('admin', 'u2');
    api(adminUser({ role: 'admin' }));
    renderUsers('/users/u2');
    const remove = await screen.findByRole('button', { name: 'Supprimer l’utilisateur' });
    expect(remove).toBeDisabled();
    expect(remove).toHaveAccessibleDescription('Vous ne pouvez pas supprimer votre propre compte.');
    expect(screen.getByRole('switch', { name: 'Compte actif' })).toBeDisabled();
    expect(screen.getByText('Vous ne pouvez pas désactiver votre propre compte.')).toBeInTheDocument();
    expect(screen.getByLabelText('Rôle')).toBeDisabled();
    expect(screen.getByText('Vous ne pouvez pas changer votre propre rôle.')).toBeInTheDocument();
  });

  it('the API’s refusal is said by its code (the last admin)', async () => {
    const { calls } = api(adminUser({ role: 'admin' }), {
      status: 409,
      body: { detail: 'The last active admin must stay.', code: 'last_admin' },
    });
    renderUsers('/users/u2');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('switch', { name: 'Compte actif' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Enregistrer' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(sent(calls, 'PATCH')).toHaveLength(1));
    expect(sent(calls, 'PATCH')[0]!.body).toEqual({ is_active: false });
    expect(await screen.findByTestId('form-error')).toHaveTextContent(
      'Le dernier administrateur actif ne peut être ni supprimé, ni désactivé, ni rétrogradé.',
    );
    expect(noticeOf('Erreur lors de la mise à jour de l’utilisateur')).toBeDefined();
  });

  it('a domain_admin: no role or domain to change; another domain_admin is read-only', async () => {
    signInAs('domain_admin');
    api(adminUser({ role: 'domain_admin' }));
    renderUsers('/users/u2');
    expect(await screen.findByTestId('user-read-only')).toHaveTextContent(
      'Seul un administrateur peut modifier ce compte.',
    );
    expect(screen.queryByLabelText('Rôle')).toBeNull();
    expect(screen.getByTestId('user-domain')).toHaveTextContent('Domaine : a.example');
    expect(screen.getByLabelText('Prénom')).toBeDisabled();
    expect(screen.queryByRole('button', { name: 'Supprimer l’utilisateur' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Enregistrer' })).toBeNull();
  });

  it('unknown or out of scope (404): "User not found" inside the page', async () => {
    mockApi(() => jsonResponse(404, { detail: 'Not found.', code: 'not_found' }));
    renderUsers('/users/nobody');
    expect(await screen.findByText('Utilisateur introuvable')).toBeInTheDocument();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Retour aux utilisateurs' }));
    await waitFor(() => expect(currentLocation()).toBe('/users'));
  });
});
