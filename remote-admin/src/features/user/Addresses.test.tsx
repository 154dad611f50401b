import { changeLanguage } from '@qc/i18n';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  adminUser,
  jsonResponse,
  mockApi,
  noticeOf,
  noticeTitles,
  onPhoneScreen,
  renderUsers,
  signInAs,
  type ApiCall,
} from '../../test-utils';
import type { AdminUser } from '../users/users.types';

const patches = (calls: ApiCall[]) =>
  calls.filter((c) => c.method === 'PATCH' && c.path === '/api/users/u2/').map((c) => c.body);
const rows = () => screen.getAllByTestId('user-address');
const inputs = () => screen.getAllByTestId('user-address-input') as HTMLInputElement[];
const values = () => inputs().map((i) => i.value);
const card = () => within(screen.getByTestId('user-addresses'));
const user = () => userEvent.setup({ delay: null });

/** GET /api/users/u2/ answers `start`; PATCH `addresses` stores them (the first is the e-mail), or answers `refusal`. */
function api(start: AdminUser, refusal?: { status: number; body: unknown }) {
  let current = start;
  return mockApi((call) => {
    if (call.path === '/api/users/u2/' && call.method === 'GET') return jsonResponse(200, current);
    if (call.path === '/api/users/u2/' && call.method === 'PATCH') {
      if (refusal) return jsonResponse(refusal.status, refusal.body);
      const body = call.body as Partial<AdminUser>;
      current = { ...current, ...body, ...(body.addresses ? { email: body.addresses[0]! } : {}) };
      return jsonResponse(200, current);
    }
    if (call.path === '/api/users/' || call.path === '/api/domains/')
      return jsonResponse(200, { results: [], next_cursor: null });
    return jsonResponse(404, { detail: 'Not found.', code: 'not_found' });
  });
}

const JANE = adminUser({ addresses: ['jane@a.example', 'j.doe@a.example'] });

beforeEach(() => {
  jest.restoreAllMocks();
  signInAs('admin');
});
afterEach(() => changeLanguage('fr'));

describe('a local user’s addresses (issue 31)', () => {
  it('shows them, the primary first and marked; the e-mail field says where it is chosen', async () => {
    api(JANE);
    renderUsers('/users/u2');
    await screen.findByTestId('user-addresses');
    expect(values()).toEqual(['jane@a.example', 'j.doe@a.example']);
    expect(within(rows()[0]!).getByTestId('user-address-primary')).toHaveTextContent('Principale');
    expect(within(rows()[0]!).queryByRole('button', { name: /Retirer/ })).toBeNull();
    expect(
      within(rows()[1]!).getByRole('button', { name: 'Rendre principale\u00a0: j.doe@a.example' }),
    ).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('readonly');
    expect(
      screen.getByText('L’adresse principale de l’utilisateur : elle se choisit dans « Adresses ».'),
    ).toBeInTheDocument();
    expect(card().getByText(/Chaque adresse doit appartenir à l’un des domaines de la console/)).toBeInTheDocument();
    // Nothing changed: nothing to save or undo.
    expect(card().getByRole('button', { name: 'Enregistrer les adresses' })).toBeDisabled();
    expect(card().getByRole('button', { name: 'Annuler les modifications' })).toBeDisabled();
  });

  it('adds an alias (focused, checked first), and saves the full list, the primary first', async () => {
    const { calls } = api(JANE);
    renderUsers('/users/u2');
    await screen.findByTestId('user-addresses');
    const u = user();
    await u.click(card().getByRole('button', { name: 'Ajouter une adresse' }));
    await waitFor(() => expect(inputs()[2]).toHaveFocus());
    expect(inputs()[2]).toHaveAccessibleName('Adresse 3');
    // Empty, then invalid, then a duplicate (in another case): each said on its line, nothing sent.
    await u.click(card().getByRole('button', { name: 'Enregistrer les adresses' }));
    expect(await card().findByText('Saisissez une adresse ou retirez la ligne')).toBeInTheDocument();
    expect(inputs()[2]).toHaveAttribute('aria-invalid', 'true');
    await u.type(inputs()[2]!, 'not-an-address');
    await u.click(card().getByRole('button', { name: 'Enregistrer les adresses' }));
    expect(await card().findByText('Format d’e-mail invalide')).toBeInTheDocument();
    await u.clear(inputs()[2]!);
    await u.type(inputs()[2]!, 'J.Doe@A.example');
    await u.click(card().getByRole('button', { name: 'Enregistrer les adresses' }));
    expect(await card().findByText('Cette adresse figure déjà dans la liste')).toBeInTheDocument();
    expect(inputs()[2]).toHaveAccessibleDescription('Cette adresse figure déjà dans la liste');
    expect(patches(calls)).toEqual([]);

    await u.clear(inputs()[2]!);
    await u.type(inputs()[2]!, ' sales@a.example ');
    expect(card().queryByRole('alert')).toBeNull(); // the line's error goes as it is corrected
    await u.click(card().getByRole('button', { name: 'Enregistrer les adresses' }));
    await waitFor(() => expect(patches(calls)).toHaveLength(1));
    expect(patches(calls)[0]).toEqual({ addresses: ['jane@a.example', 'j.doe@a.example', 'sales@a.example'] });
    await waitFor(() => expect(noticeTitles()).toEqual(['success: Adresses mises à jour']));
    expect(screen.queryByRole('dialog')).toBeNull(); // nothing removed: no confirmation
  });

  it('choosing another primary: sent first; the e-mail shown follows', async () => {
    const { calls } = api(JANE);
    renderUsers('/users/u2');
    await screen.findByTestId('user-addresses');
    const u = user();
    await u.click(card().getByRole('button', { name: 'Rendre principale\u00a0: j.doe@a.example' }));
    await waitFor(() => expect(inputs()[1]).toHaveFocus());
    expect(within(rows()[1]!).getByTestId('user-address-primary')).toBeInTheDocument();
    expect(
      within(rows()[0]!).getByRole('button', { name: 'Rendre principale\u00a0: jane@a.example' }),
    ).toBeInTheDocument();
    await u.click(card().getByRole('button', { name: 'Enregistrer les adresses' }));
    await waitFor(() => expect(patches(calls)).toEqual([{ addresses: ['j.doe@a.example', 'jane@a.example'] }]));
    await waitFor(() => expect(screen.getByLabelText('E-mail')).toHaveValue('j.doe@a.example'));
    // The editor starts again from the user as stored: the new primary first.
    await waitFor(() => expect(values()).toEqual(['j.doe@a.example', 'jane@a.example']));
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('j.doe@a.example');
    // The details form has nothing to save because of it.
    expect(screen.getByRole('button', { name: 'Enregistrer' })).toBeDisabled();
  });

  it('removing an address is confirmed (naming it) before the list is saved; Cancel sends nothing', async () => {
    const { calls } = api(adminUser({ addresses: ['jane@a.example', 'j.doe@a.example', 'sales@a.example'] }));
    renderUsers('/users/u2');
    await screen.findByTestId('user-addresses');
    const u = user();
    await u.click(card().getByRole('button', { name: 'Retirer\u00a0: j.doe@a.example' }));
    expect(values()).toEqual(['jane@a.example', 'sales@a.example']);
    await waitFor(() => expect(inputs()[1]).toHaveFocus()); // the line that took its place
    await u.click(card().getByRole('button', { name: 'Enregistrer les adresses' }));
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Retirer 1 adresse de jane@a.example ?');
    expect(dialog).toHaveTextContent('L’utilisateur ne verra plus le courrier de : j.doe@a.example.');
    await u.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(patches(calls)).toEqual([]);

    await u.click(card().getByRole('button', { name: 'Enregistrer les adresses' }));
    dialog = await screen.findByRole('dialog');
    await u.click(within(dialog).getByRole('button', { name: 'Retirer et enregistrer' }));
    await waitFor(() => expect(patches(calls)).toEqual([{ addresses: ['jane@a.example', 'sales@a.example'] }]));
    await waitFor(() => expect(noticeTitles()).toEqual(['success: Adresses mises à jour']));
  });

  it('Undo brings the stored list back', async () => {
    api(JANE);
    renderUsers('/users/u2');
    await screen.findByTestId('user-addresses');
    const u = user();
    await u.click(card().getByRole('button', { name: 'Retirer\u00a0: j.doe@a.example' }));
    await u.click(card().getByRole('button', { name: 'Ajouter une adresse' }));
    await u.type(inputs()[1]!, 'x@a.example');
    await u.click(card().getByRole('button', { name: 'Annuler les modifications' }));
    expect(values()).toEqual(['jane@a.example', 'j.doe@a.example']);
  });

  it('409 address_taken: said on the line of the address the API names, with the save error', async () => {
    const { calls } = api(JANE, {
      status: 409,
      body: {
        detail: 'The address sales@a.example belongs to another user.',
        code: 'address_taken',
        errors: { addresses: 'sales@a.example is taken' },
      },
    });
    renderUsers('/users/u2');
    await screen.findByTestId('user-addresses');
    const u = user();
    await u.click(card().getByRole('button', { name: 'Ajouter une adresse' }));
    await u.type(inputs()[2]!, 'sales@a.example');
    await u.click(card().getByRole('button', { name: 'Enregistrer les adresses' }));
    await waitFor(() => expect(patches(calls)).toHaveLength(1));
    const line = rows()[2]!;
    expect(await within(line).findByRole('alert')).toHaveTextContent('Cette adresse appartient à un autre compte');
    expect(inputs()[2]).toHaveAttribute('aria-invalid', 'true');
    await waitFor(() => expect(inputs()[2]).toHaveFocus());
    expect(within(rows()[1]!).queryByRole('alert')).toBeNull();
    expect(noticeOf('Erreur lors de la mise à jour des adresses')).toBeDefined();
    // What was typed stays, to be corrected.
    expect(values()).toEqual(['jane@a.example', 'j.doe@a.example', 'sales@a.example']);
  });

  it('400 validation_error: `addresses.N` on the line sent at N; an address outside the domain named in `addresses`', async () => {
    signInAs('domain_admin');
    const { calls } = api(JANE, {
      status: 400,
      body: {
        detail: 'The request is not valid.',
        code: 'validation_error',
        errors: { addresses: 'x@b.example is not in your domain.' },
      },
    });
    renderUsers('/users/u2');
    await screen.findByTestId('user-addresses');
    expect(card().getByText(/Chaque adresse doit appartenir à votre domaine a\.example/)).toBeInTheDocument();
    const u = user();
    await u.click(card().getByRole('button', { name: 'Ajouter une adresse' }));
    await u.type(inputs()[2]!, 'x@b.example');
    await u.click(card().getByRole('button', { name: 'Enregistrer les adresses' }));
    await waitFor(() => expect(patches(calls)).toHaveLength(1));
    expect(await within(rows()[2]!).findByRole('alert')).toHaveTextContent(
      'Adresse refusée : elle doit être valide et appartenir à votre domaine a.example',
    );
  });

  it('a refusal naming no address: said above the list', async () => {
    api(JANE, { status: 409, body: { detail: 'An address is taken.', code: 'address_taken' } });
    renderUsers('/users/u2');
    await screen.findByTestId('user-addresses');
    const u = user();
    await u.click(card().getByRole('button', { name: 'Ajouter une adresse' }));
    await u.type(inputs()[2]!, 'sales@a.example');
    await u.click(card().getByRole('button', { name: 'Enregistrer les adresses' }));
    expect(await card().findByTestId('form-error')).toHaveTextContent(
      'Une de ces adresses appartient déjà à un autre compte.',
    );
  });

  it('an external user: aliases only, the primary stays', async () => {
    api(adminUser({ is_external: true, addresses: ['jane@a.example', 'j.doe@a.example'] }));
    renderUsers('/users/u2');
    await screen.findByTestId('user-addresses');
    expect(card().getByText(/son adresse principale ne change pas/)).toBeInTheDocument();
    expect(inputs()[0]).toHaveAttribute('readonly');
    expect(card().queryByRole('button', { name: /Rendre principale/ })).toBeNull();
    expect(card().getByRole('button', { name: 'Retirer\u00a0: j.doe@a.example' })).toBeInTheDocument();
  });

  it('a domain_admin looking at another domain_admin: the addresses are shown, not edited', async () => {
    signInAs('domain_admin');
    api(adminUser({ role: 'domain_admin', addresses: ['jane@a.example', 'j.doe@a.example'] }));
    renderUsers('/users/u2');
    await screen.findByTestId('user-addresses');
    expect(screen.queryByTestId('user-address-input')).toBeNull();
    expect(rows().map((r) => r.textContent)).toEqual(['jane@a.examplePrincipale', 'j.doe@a.example']);
  });

  it('on a phone, in English: each line wraps (no overflow), the texts in English', async () => {
    await changeLanguage('en');
    const restore = onPhoneScreen();
    try {
      api(JANE);
      renderUsers('/users/u2');
      await screen.findByTestId('user-addresses');
      expect(card().getByRole('heading', { level: 2, name: 'Addresses' })).toBeInTheDocument();
      expect(card().getByRole('button', { name: 'Make primary: j.doe@a.example' })).toBeInTheDocument();
      expect(card().getByRole('button', { name: 'Remove: j.doe@a.example' })).toBeInTheDocument();
      const line = inputs()[0]!.closest('.ant-flex') as HTMLElement;
      expect(line).toHaveClass('ant-flex-wrap-wrap');
    } finally {
      restore();
    }
  });
});

describe('a directory (LDAP) or SSO user (issue 31)', () => {
  const DIRECTORY_USER = adminUser({
    source: 'ldap',
    role: 'domain_admin',
    addresses: ['jane@a.example', 'j.doe@a.example', 'sales@a.example'],
    mfa_enabled: true,
  });

  it('source shown; e-mail, username, addresses, role, domain and password read-only, saying why', async () => {
    api(DIRECTORY_USER);
    renderUsers('/users/u2');
    expect(await screen.findByTestId('user-managed-notice')).toHaveTextContent(
      'Compte géré par l’annuaire de l’organisation',
    );
    expect(screen.getByTestId('user-source')).toHaveTextContent('Annuaire');
    expect(screen.getByText('Annuaire de l’organisation (LDAP)')).toBeInTheDocument();
    expect(screen.getByLabelText('E-mail')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Identifiant')).toHaveAttribute('readonly');
    expect(screen.getByLabelText('Rôle')).toBeDisabled();
    expect(screen.getByLabelText('Domaine')).toBeDisabled();
    expect(screen.getAllByText('Géré par l’annuaire')).toHaveLength(4); // e-mail, username, role, domain
    expect(screen.queryByLabelText('Nouveau mot de passe')).toBeNull();
    // Every address, primary first, none editable.
    expect(screen.queryByTestId('user-address-input')).toBeNull();
    expect(rows().map((r) => r.textContent)).toEqual([
      'jane@a.examplePrincipale',
      'j.doe@a.example',
      'sales@a.example',
    ]);
    expect(card().getByText('Reçues de l’annuaire à chaque connexion de l’utilisateur.')).toBeInTheDocument();
  });

  it('may still be deactivated, have two-factor required, or reset', async () => {
    const { calls } = api(DIRECTORY_USER);
    renderUsers('/users/u2');
    const u = user();
    await u.click(await screen.findByRole('switch', { name: 'Compte actif' }));
    await u.click(screen.getByRole('switch', { name: 'Exiger la double authentification' }));
    await u.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(patches(calls)).toEqual([{ is_active: false, mfa_required: true }]));
    expect(screen.getByRole('button', { name: 'Réinitialiser la double authentification' })).toBeEnabled();
  });

  it('the API’s 400 directory_managed is said on the field, as the directory’s', async () => {
    const { calls } = api(DIRECTORY_USER, {
      status: 400,
      body: {
        detail: 'Set by the directory.',
        code: 'directory_managed',
        errors: { is_external: 'Set by the directory.' },
      },
    });
    renderUsers('/users/u2');
    const u = user();
    await u.click(await screen.findByRole('switch', { name: 'Utilisateur externe' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Enregistrer' })).toBeEnabled());
    await u.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(patches(calls)).toEqual([{ is_external: true }]));
    expect(
      await screen.findByText('Ce champ est géré par l’annuaire : il ne se modifie pas dans la console.'),
    ).toBeInTheDocument();
    expect(screen.queryByTestId('form-error')).toBeNull(); // said on the field, not twice
  });

  it('an SSO user: said as such', async () => {
    api(adminUser({ source: 'oidc' }));
    renderUsers('/users/u2');
    expect(await screen.findByTestId('user-managed-notice')).toHaveTextContent(
      'Compte géré par le fournisseur d’authentification unique (SSO)',
    );
    expect(screen.getByTestId('user-source')).toHaveTextContent('SSO');
  });
});
