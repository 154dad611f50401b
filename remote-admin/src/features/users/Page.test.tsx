import { DEFAULT_PREFERENCES, usePreferences } from '@qc/ui-state';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  adminUser,
  currentLocation,
  domain,
  jsonResponse,
  mockApi,
  onPhoneScreen,
  pickOption,
  renderUsers,
  signInAs,
  type ApiCall,
} from '../../test-utils';

const userCalls = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/api/users/');
const lastQuery = (calls: ApiCall[]) => Object.fromEntries(userCalls(calls).at(-1)!.query);
const rows = () => screen.queryAllByTestId('user-row');

const JANE = adminUser();
const BOB = adminUser({
  id: 'u3',
  email: 'bob@b.example',
  username: 'bob',
  first_name: '',
  last_name: '',
  role: 'domain_admin',
  domain: { id: 'd2', name: 'b.example' },
  is_active: false,
  mfa_enabled: true,
  last_login: null,
});
const INVITED = adminUser({
  id: 'u4',
  email: 'new@a.example',
  username: 'new',
  role: 'admin',
  mfa_required: true,
  invitation_pending: true,
  last_login: null,
});

/** The api of these tests: the users (one page unless `pages`), the domains for the filter. */
function api(pages: Record<string, { results: unknown[]; next_cursor: string | null }> = {}) {
  return mockApi((call) => {
    if (call.path === '/api/users/') {
      const page = pages[call.query.get('cursor') ?? ''];
      return jsonResponse(200, page ?? { results: [JANE, BOB, INVITED], next_cursor: null });
    }
    if (call.path === '/api/domains/')
      return jsonResponse(200, {
        results: [domain(), domain({ id: 'd2', name: 'b.example', display_name: 'b.example' })],
        next_cursor: null,
      });
    return jsonResponse(404, { detail: 'Not found.', code: 'not_found' });
  });
}

beforeEach(() => {
  jest.restoreAllMocks();
  usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES, defaultPageSize: 25 } });
  signInAs('admin');
});

describe('users list', () => {
  it('shows each user with role, state, two-factor and invitation tags, and links to the user', async () => {
    const { calls } = api();
    renderUsers();
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByRole('heading', { level: 1, name: 'Utilisateurs' })).toBeInTheDocument();
    // Page size from the user's preferences; sorted by e-mail unless asked otherwise.
    expect(lastQuery(calls)).toEqual({ page_size: '25', ordering: 'email' });
    const [jane, bob, invited] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(jane).getByRole('link', { name: 'jane@a.example' })).toHaveAttribute('href', '/users/u2');
    expect(jane).toHaveTextContent('Jane Doe · jane');
    expect(within(jane).getByTestId('user-role')).toHaveTextContent('Utilisateur');
    expect(within(jane).getByTestId('user-status')).toHaveTextContent('Actif');
    expect(within(jane).getByTestId('user-mfa')).toHaveTextContent('2FA désactivée');
    expect(jane).toHaveTextContent('a.example');
    expect(within(jane).queryByTestId('user-invitation')).toBeNull();
    expect(within(bob).getByTestId('user-role')).toHaveTextContent('Administrateur de domaine');
    expect(within(bob).getByTestId('user-status')).toHaveTextContent('Désactivé');
    expect(within(bob).getByTestId('user-mfa')).toHaveTextContent('2FA activée');
    expect(bob).toHaveTextContent('Jamais');
    expect(within(invited).getByTestId('user-mfa')).toHaveTextContent('2FA exigée');
    expect(within(invited).getByTestId('user-invitation')).toHaveTextContent('Invitation en attente');
  });

  it('issue 31: a directory or SSO account is tagged so; other addresses are a "+N" that lists them', async () => {
    const DIRECTORY = adminUser({
      id: 'u5',
      email: 'dir@a.example',
      username: 'dir',
      source: 'ldap',
      addresses: ['dir@a.example', 'alias@a.example', 'shared@a.example'],
    });
    const SSO = adminUser({ id: 'u6', email: 'sso@a.example', username: 'sso', source: 'oidc' });
    mockApi((call) =>
      call.path === '/api/users/'
        ? jsonResponse(200, { results: [JANE, DIRECTORY, SSO], next_cursor: null })
        : jsonResponse(200, { results: [], next_cursor: null }),
    );
    renderUsers();
    await waitFor(() => expect(rows()).toHaveLength(3));
    const [jane, directory, sso] = rows() as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(jane).queryByTestId('user-source')).toBeNull();
    expect(within(jane).queryByTestId('user-more-addresses')).toBeNull();
    expect(within(directory).getByTestId('user-source')).toHaveTextContent('Annuaire');
    expect(within(sso).getByTestId('user-source')).toHaveTextContent('SSO');
    // "+2", named with the addresses for screen readers; the tooltip lists them on focus (keyboard).
    const more = within(directory).getByRole('button', { name: /^\+2/ });
    expect(more).toHaveAccessibleName('+2 (2 autres adresses\u00a0: alias@a.example, shared@a.example)');
    act(() => more.focus());
    const tip = await screen.findByRole('tooltip');
    expect(
      within(tip)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['alias@a.example', 'shared@a.example']);
  });

  it('filters and sort go to the URL and to the query (search, role, domain, state, two-factor, order)', async () => {
    const { calls } = api();
    renderUsers();
    await waitFor(() => expect(rows()).toHaveLength(3));
    const user = userEvent.setup({ delay: null });

    await user.type(screen.getByLabelText('Recherche'), 'jan{Enter}');
    await waitFor(() => expect(lastQuery(calls).q).toBe('jan'));
    await pickOption(user, 'Rôle', 'Administrateur de domaine');
    await waitFor(() => expect(lastQuery(calls).role).toBe('domain_admin'));
    // Admins filter by domain, chosen by name from GET /api/domains/.
    await pickOption(user, 'Domaine', 'b.example');
    await waitFor(() => expect(lastQuery(calls).domain).toBe('d2'));
    expect(calls.some((c) => c.path === '/api/domains/')).toBe(true);
    await pickOption(user, 'État', 'Désactivés');
    await waitFor(() => expect(lastQuery(calls).is_active).toBe('false'));
    await pickOption(user, 'Double authentification', 'Exigée, pas encore configurée');
    await waitFor(() => expect(lastQuery(calls).mfa).toBe('required'));
    await pickOption(user, 'Trier par', 'Inscription (plus récente d’abord)');
    await waitFor(() => expect(lastQuery(calls).ordering).toBe('-date_joined'));
    expect(lastQuery(calls)).toEqual({
      q: 'jan',
      role: 'domain_admin',
      domain: 'd2',
      is_active: 'false',
      mfa: 'required',
      ordering: '-date_joined',
      page_size: '25',
    });
    expect(currentLocation()).toBe(
      '/users?q=jan&role=domain_admin&domain=d2&active=false&mfa=required&ordering=-date_joined',
    );

    // A column header sorts too (server-side); Reset brings the defaults back.
    await user.click(screen.getByRole('columnheader', { name: /Utilisateur/ }));
    await waitFor(() => expect(lastQuery(calls).ordering).toBe('email'));
    await user.click(screen.getByRole('button', { name: 'Réinitialiser les filtres' }));
    await waitFor(() => expect(currentLocation()).toBe('/users'));
    expect(lastQuery(calls)).toEqual({ page_size: '25', ordering: 'email' });
  }, 90_000);

  it('a domain_admin: no domain filter, no admin role to filter by, never the domain parameter', async () => {
    signInAs('domain_admin');
    const { calls } = api();
    renderUsers('/users?domain=d2&role=admin');
    await waitFor(() => expect(rows()).toHaveLength(3));
    expect(screen.getByText('Les comptes de votre domaine a.example.')).toBeInTheDocument();
    expect(screen.queryByLabelText('Domaine')).toBeNull();
    // What the URL says of a domain is not sent: the API scopes the list to theirs.
    expect(lastQuery(calls)).toEqual({ page_size: '25', ordering: 'email', role: 'admin' });
    expect(calls.some((c) => c.path.startsWith('/api/domains/'))).toBe(false);
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByLabelText('Rôle'));
    const options = Array.from(
      document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option'),
      (o) => o.getAttribute('title'),
    );
    expect(options).toEqual(['Administrateur de domaine', 'Utilisateur']);
  });

  it('empty: says so (and that the filters match nothing when filtered)', async () => {
    mockApi(() => jsonResponse(200, { results: [], next_cursor: null }));
    const { unmount } = renderUsers();
    expect(await screen.findByText('Aucun utilisateur')).toBeInTheDocument();
    unmount();
    renderUsers('/users?q=zzz');
    expect(await screen.findByText('Aucun utilisateur ne correspond à ces filtres.')).toBeInTheDocument();
    expect(screen.queryByTestId('users-next')).toBeNull();
  });

  it('an error: spec §8 "Error loading users" with Retry, which loads the list', async () => {
    let fail = true;
    mockApi((call) =>
      call.path === '/api/users/' && fail
        ? jsonResponse(500, { detail: 'boom', code: 'internal_error' })
        : jsonResponse(200, { results: [JANE], next_cursor: null }),
    );
    renderUsers();
    expect(await screen.findByText('Erreur lors du chargement des utilisateurs')).toBeInTheDocument();
    expect(screen.getByText('Erreur du serveur. Réessayez plus tard.')).toBeInTheDocument();
    fail = false;
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('keyset paging: Next sends the cursor, Previous comes back', async () => {
    const { calls } = api({
      '': { results: [JANE], next_cursor: 'c2' },
      c2: { results: [BOB], next_cursor: null },
    });
    renderUsers();
    await waitFor(() => expect(rows()).toHaveLength(1));
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: /Page suivante/ }));
    await waitFor(() => expect(screen.getByRole('link', { name: 'bob@b.example' })).toBeInTheDocument());
    expect(lastQuery(calls).cursor).toBe('c2');
    expect(currentLocation()).toBe('/users?cursor=c2');
    expect(screen.getByTestId('users-page-number')).toHaveTextContent('Page 2');
    await user.click(screen.getByRole('button', { name: /Page précédente/ }));
    await waitFor(() => expect(screen.getByRole('link', { name: 'jane@a.example' })).toBeInTheDocument());
    expect(currentLocation()).toBe('/users');
  });

  it('"New user" opens /users/new', async () => {
    api();
    renderUsers();
    await waitFor(() => expect(rows()).toHaveLength(3));
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Nouvel utilisateur' }));
    await waitFor(() => expect(currentLocation()).toBe('/users/new'));
  });

  it('on a phone: one stacked cell per user, with its tags', async () => {
    const restore = onPhoneScreen();
    try {
      api();
      renderUsers();
      await waitFor(() => expect(screen.getAllByTestId('user-summary')).toHaveLength(3));
      const bob = screen.getAllByTestId('user-summary')[1]!;
      expect(within(bob).getByRole('link', { name: 'bob@b.example' })).toBeInTheDocument();
      expect(within(bob).getByTestId('user-status')).toHaveTextContent('Désactivé');
      expect(bob).toHaveTextContent('b.example · Dernière connexion : jamais');
      expect(screen.getAllByTestId('user-summary')[0]).toHaveTextContent(
        /a\.example · Dernière connexion : 20\/11\/2026/,
      );
      expect(screen.queryByRole('columnheader', { name: /Dernière connexion/ })).toBeNull();
      // Only the search at first; the other filters behind "More filters".
      expect(screen.queryByLabelText('Rôle')).toBeNull();
      const more = screen.getByRole('button', { name: 'Plus de filtres' });
      expect(more).toHaveAttribute('aria-expanded', 'false');
      await userEvent.setup({ delay: null }).click(more);
      expect(screen.getByLabelText('Rôle')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Moins de filtres' })).toHaveAttribute('aria-expanded', 'true');
    } finally {
      restore();
    }
  });
});
