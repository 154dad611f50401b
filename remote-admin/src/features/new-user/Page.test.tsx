import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  adminUser,
  currentLocation,
  domain,
  jsonResponse,
  mockApi,
  noticeTitles,
  noticeOf,
  pickOption,
  renderUsers,
  signInAs,
  type ApiCall,
} from '../../test-utils';

const posts = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === '/api/users/');
const errorOf = (label: string) =>
  screen.getByLabelText(label).closest('.ant-form-item')!.querySelector('.ant-form-item-explain')?.textContent ?? '';

/** Answers POST /api/users/ with `created` (or `refusal`), the domains for the select, the created user. */
function api(refusal?: { status: number; body: unknown }) {
  return mockApi((call) => {
    if (call.method === 'POST' && call.path === '/api/users/') {
      if (refusal) return jsonResponse(refusal.status, refusal.body);
      const body = call.body as { email: string; role: string };
      return jsonResponse(201, adminUser({ id: 'u9', email: body.email, role: body.role as 'user' }));
    }
    if (call.path === '/api/domains/') return jsonResponse(200, { results: [domain()], next_cursor: null });
    if (call.path === '/api/users/u9/') return jsonResponse(200, adminUser({ id: 'u9' }));
    return jsonResponse(404, { detail: 'Not found.', code: 'not_found' });
  });
}

beforeEach(() => {
  jest.restoreAllMocks();
  signInAs('admin');
});

describe('new user', () => {
  it('spec §5 validation: e-mail required and valid, a password of 8+ confirmed; nothing is sent until then', async () => {
    const { calls } = api();
    renderUsers('/users/new');
    const user = userEvent.setup({ delay: null });
    const submit = await screen.findByRole('button', { name: 'Créer l’utilisateur' });
    expect(screen.getByRole('heading', { level: 1, name: 'Nouvel utilisateur' })).toBeInTheDocument();

    await user.click(submit);
    await waitFor(() => expect(errorOf('E-mail')).toBe('L’e-mail est obligatoire'));
    await user.type(screen.getByLabelText('E-mail'), 'not-an-address');
    await waitFor(() => expect(errorOf('E-mail')).toBe('Format d’e-mail invalide'));
    await user.clear(screen.getByLabelText('E-mail'));
    await user.type(screen.getByLabelText('E-mail'), 'new@a.example');
    await user.type(screen.getByLabelText('Identifiant'), 'bad name');
    await user.click(submit);
    await waitFor(() =>
      expect(errorOf('Identifiant')).toBe('L’identifiant ne peut contenir que des lettres, des chiffres et @ . + - _'),
    );
    await user.clear(screen.getByLabelText('Identifiant'));

    await user.click(screen.getByRole('radio', { name: 'Définir un mot de passe' }));
    await user.type(await screen.findByLabelText('Mot de passe'), 'short');
    await user.type(screen.getByLabelText('Confirmation du mot de passe'), 'shorter');
    await user.click(submit);
    await waitFor(() => expect(errorOf('Mot de passe')).toBe('Le mot de passe doit contenir au moins 8 caractères'));
    await waitFor(() => expect(errorOf('Confirmation du mot de passe')).toBe('Les mots de passe ne correspondent pas'));

    // A domain admin needs a domain.
    await pickOption(user, 'Rôle', 'Administrateur de domaine');
    await user.click(submit);
    await waitFor(() => expect(errorOf('Domaine')).toBe('Un administrateur de domaine doit avoir un domaine'));
    expect(posts(calls)).toEqual([]);
  });

  it('with a password: the body has it (not its confirmation), a notice, then the user’s page', async () => {
    const { calls } = api();
    renderUsers('/users/new');
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('E-mail'), ' boss@a.example ');
    await user.type(screen.getByLabelText('Prénom'), 'Ann');
    await pickOption(user, 'Rôle', 'Administrateur de domaine');
    await pickOption(user, 'Domaine', 'a.example');
    await user.click(screen.getByRole('checkbox', { name: 'Exiger la double authentification' }));
    await user.click(screen.getByRole('radio', { name: 'Définir un mot de passe' }));
    await user.type(await screen.findByLabelText('Mot de passe'), 'correct horse');
    await user.type(screen.getByLabelText('Confirmation du mot de passe'), 'correct horse');
    await user.click(screen.getByRole('button', { name: 'Créer l’utilisateur' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]!.body).toEqual({
      email: 'boss@a.example',
      first_name: 'Ann',
      role: 'domain_admin',
      domain_id: 'd1',
      mfa_required: true,
      password: 'correct horse',
    });
    await waitFor(() => expect(currentLocation()).toBe('/users/u9'));
    expect(noticeTitles()).toEqual(['success: Utilisateur créé']);
  });

  it('with an invitation (the default): no password sent; the notice says where it went', async () => {
    const { calls } = api();
    renderUsers('/users/new');
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('E-mail'), 'guest@a.example');
    await user.click(screen.getByRole('checkbox', { name: 'Utilisateur externe' }));
    await user.click(screen.getByRole('button', { name: 'Créer l’utilisateur' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]!.body).toEqual({ email: 'guest@a.example', role: 'user', is_external: true });
    await waitFor(() => expect(currentLocation()).toBe('/users/u9'));
    expect(noticeOf('Utilisateur créé')?.description).toBe('Invitation envoyée à guest@a.example');
  });

  it('the API’s refusals land on their fields, translated by code', async () => {
    api({ status: 409, body: { detail: 'A user with this e-mail already exists.', code: 'email_taken' } });
    renderUsers('/users/new');
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('E-mail'), 'jane@a.example');
    await user.click(screen.getByRole('button', { name: 'Créer l’utilisateur' }));
    await waitFor(() => expect(errorOf('E-mail')).toBe('Cette adresse e-mail est déjà utilisée par un autre compte'));
    expect(screen.queryByTestId('form-error')).toBeNull(); // the field says it all
    expect(currentLocation()).toBe('/users/new');
  });

  it('a 400 naming fields: each on its field; one the form does not show is said above it', async () => {
    api({
      status: 400,
      body: {
        detail: 'Invalid request',
        code: 'validation_error',
        errors: { username: 'Username may contain only…', domain_id: 'Unknown domain', mystery: 'Unknown field' },
      },
    });
    renderUsers('/users/new');
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('E-mail'), 'jane@a.example');
    await user.click(screen.getByRole('button', { name: 'Créer l’utilisateur' }));
    await waitFor(() => expect(errorOf('Identifiant')).toBe('Identifiant refusé par le serveur'));
    expect(errorOf('Domaine')).toBe('Domaine inconnu');
    expect(screen.getByTestId('form-error')).toHaveTextContent('Certains champs sont invalides');
  });

  it('a domain_admin creates a user of their own domain: no role nor domain to choose', async () => {
    signInAs('domain_admin');
    const { calls } = api();
    renderUsers('/users/new');
    const user = userEvent.setup({ delay: null });
    await user.type(await screen.findByLabelText('E-mail'), 'guest@a.example');
    expect(screen.getByText('Le compte sera un utilisateur de votre domaine a.example.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Rôle')).toBeNull();
    expect(screen.queryByLabelText('Domaine')).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Créer l’utilisateur' }));
    await waitFor(() => expect(posts(calls)).toHaveLength(1));
    expect(posts(calls)[0]!.body).toEqual({ email: 'guest@a.example', role: 'user' });
    expect(calls.some((c) => c.path === '/api/domains/')).toBe(false);
  });
});
