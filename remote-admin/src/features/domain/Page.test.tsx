import { changeLanguage } from '@qc/i18n';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  currentLocation,
  domain,
  domainDetail,
  jsonResponse,
  mockApi,
  noticeTitles,
  onPhoneScreen,
  renderDomains,
  signInAs,
  type ApiCall,
} from '../../test-utils';

const sent = (calls: ApiCall[], method: string) =>
  calls.filter((c) => c.method === method && c.path === '/api/domains/d1/');
const HAS_USERS = {
  detail: 'Cannot delete a domain with associated users; delete the users first',
  code: 'domain_has_users',
};

/** GET /api/domains/d1/; DELETE answers `deletion`; PATCH echoes the change. */
function api(deletion: Response = new Response(null, { status: 204 })) {
  return mockApi((call) => {
    if (call.path === '/api/domains/d1/' && call.method === 'GET') return jsonResponse(200, domainDetail());
    if (call.path === '/api/domains/d1/' && call.method === 'DELETE') return deletion.clone();
    if (call.path === '/api/domains/d1/' && call.method === 'PATCH')
      return jsonResponse(
        200,
        domain({ ...(call.body as object), display_name: (call.body as { name?: string }).name ?? 'a.example' }),
      );
    if (call.path === '/api/domains/') return jsonResponse(200, { results: [], next_cursor: null });
    return jsonResponse(404, { detail: 'Not found.', code: 'not_found' });
  });
}

beforeEach(() => {
  jest.restoreAllMocks();
  signInAs('admin');
});
afterEach(() => changeLanguage('fr'));

describe('domain detail', () => {
  it('shows the domain and its users, each a link to their page', async () => {
    api();
    renderDomains('/domains/d1');
    expect(await screen.findByRole('heading', { level: 1, name: 'a.example' })).toBeInTheDocument();
    const users = screen.getByRole('table', { name: 'Utilisateurs du domaine' });
    expect(within(users).getByRole('link', { name: 'jane@a.example' })).toHaveAttribute('href', '/users/u2');
    expect(within(users).getByRole('link', { name: 'boss@a.example' })).toHaveAttribute('href', '/users/u3');
    expect(users).toHaveTextContent('Administrateur de domaine');
    expect(users).toHaveTextContent('Désactivé');
  });

  it('on a phone the users are one cell each (the address, its role under it): nothing pushes the page sideways', async () => {
    const restore = onPhoneScreen();
    try {
      api();
      renderDomains('/domains/d1');
      const users = await screen.findByRole('table', { name: 'Utilisateurs du domaine' });
      expect(within(users).getAllByRole('columnheader')).toHaveLength(1);
      const row = within(users).getByRole('link', { name: 'boss@a.example' }).closest('tr')!;
      expect(row).toHaveTextContent('Administrateur de domaine');
    } finally {
      restore();
    }
  });

  it('edits name and description (only what changed is sent)', async () => {
    const { calls } = api();
    renderDomains('/domains/d1');
    const user = userEvent.setup({ delay: null });
    const description = await screen.findByLabelText('Description');
    await user.clear(description);
    await user.type(description, 'Main domain');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Enregistrer' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(sent(calls, 'PATCH')).toHaveLength(1));
    expect(sent(calls, 'PATCH')[0]!.body).toEqual({ description: 'Main domain' });
    await waitFor(() => expect(noticeTitles()).toEqual(['success: Domaine mis à jour']));
  });

  it('delete while it has users: refused with spec §5’s message; the domain stays', async () => {
    const { calls } = api(jsonResponse(409, HAS_USERS));
    renderDomains('/domains/d1');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Supprimer le domaine' }));
    const confirm = await screen.findByRole('dialog');
    expect(confirm).toHaveTextContent('Supprimer le domaine a.example ?');
    await user.click(within(confirm).getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(sent(calls, 'DELETE')).toHaveLength(1));
    expect(await screen.findByTestId('domain-delete-refused')).toHaveTextContent(
      'Impossible de supprimer un domaine ayant des utilisateurs ; supprimez d’abord les utilisateurs',
    );
    expect(currentLocation()).toBe('/domains/d1');
    expect(noticeTitles()).toEqual(['error: Erreur lors de la suppression']);
  });

  it('in English, spec §5’s message word for word', async () => {
    await changeLanguage('en');
    api(jsonResponse(409, HAS_USERS));
    renderDomains('/domains/d1');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Delete domain' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByTestId('domain-delete-refused')).toHaveTextContent(
      'Cannot delete a domain with associated users; delete the users first',
    );
  });

  it('delete without users: spec §8 "Domain successfully deleted", back to the list', async () => {
    const { calls } = api();
    renderDomains('/domains/d1');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByRole('button', { name: 'Supprimer le domaine' }));
    await user.click(within(await screen.findByRole('dialog')).getByRole('button', { name: 'Supprimer' }));
    await waitFor(() => expect(currentLocation()).toBe('/domains'));
    expect(sent(calls, 'DELETE')).toHaveLength(1);
    expect(noticeTitles()).toEqual(['success: Domaine supprimé avec succès']);
  });

  it('unknown (404): "Domain not found" inside the page', async () => {
    mockApi(() => jsonResponse(404, { detail: 'Not found.', code: 'not_found' }));
    renderDomains('/domains/zzz');
    expect(await screen.findByText('Domaine introuvable')).toBeInTheDocument();
  });
});
