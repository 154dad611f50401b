import { DEFAULT_PREFERENCES, usePreferences } from '@qc/ui-state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  currentLocation,
  domain,
  jsonResponse,
  mockApi,
  renderDomains,
  signInAs,
  type ApiCall,
} from '../../test-utils';

const lastQuery = (calls: ApiCall[]) =>
  Object.fromEntries(calls.filter((c) => c.path === '/api/domains/').at(-1)!.query);
const rows = () => screen.queryAllByTestId('domain-row');

const IDN = domain({
  id: 'd2',
  name: 'xn--caf-dma.fr',
  display_name: 'café.fr',
  description: '',
  users_count: 1,
});

beforeEach(() => {
  jest.restoreAllMocks();
  usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES } });
  signInAs('admin');
});

describe('domains list', () => {
  it('name (an IDN as written, with its stored form), description, users count, links; search by name', async () => {
    const { calls } = mockApi(() => jsonResponse(200, { results: [domain(), IDN], next_cursor: 'c2' }));
    renderDomains();
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getByRole('heading', { level: 1, name: 'Domaines' })).toBeInTheDocument();
    expect(lastQuery(calls)).toEqual({ page_size: '50' });
    const [a, cafe] = rows() as [HTMLElement, HTMLElement];
    expect(within(a).getByRole('link', { name: 'a.example' })).toHaveAttribute('href', '/domains/d1');
    expect(a).toHaveTextContent('Domain A');
    expect(within(a).getByTestId('domain-users-count')).toHaveTextContent('2 utilisateurs');
    expect(within(cafe).getByRole('link', { name: 'café.fr (xn--caf-dma.fr)' })).toHaveAttribute('href', '/domains/d2');
    expect(within(cafe).getByTestId('domain-users-count')).toHaveTextContent('1 utilisateur');

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: /Page suivante/ }));
    await waitFor(() => expect(lastQuery(calls).cursor).toBe('c2'));
    await user.type(screen.getByLabelText('Recherche'), 'caf{Enter}');
    await waitFor(() => expect(lastQuery(calls)).toEqual({ q: 'caf', page_size: '50' }));
    expect(currentLocation()).toBe('/domains?q=caf');
  });

  it('empty, and spec §8 "Error loading domains" with Retry', async () => {
    let answer = jsonResponse(200, { results: [], next_cursor: null });
    mockApi(() => answer.clone());
    const { unmount } = renderDomains();
    expect(await screen.findByText('Aucun domaine')).toBeInTheDocument();
    unmount();
    answer = jsonResponse(503, { detail: 'Database unavailable', code: 'database_unavailable' });
    renderDomains();
    expect(await screen.findByText('Erreur lors du chargement des domaines')).toBeInTheDocument();
    answer = jsonResponse(200, { results: [domain()], next_cursor: null });
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('"New domain" opens /domains/new', async () => {
    mockApi(() => jsonResponse(200, { results: [], next_cursor: null }));
    renderDomains();
    await userEvent.setup({ delay: null }).click(await screen.findByRole('button', { name: 'Nouveau domaine' }));
    await waitFor(() => expect(currentLocation()).toBe('/domains/new'));
  });
});
