import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  apanelFilter,
  currentLocation,
  fill,
  jsonResponse,
  mockApi,
  noticeTitles,
  page,
  pickOption,
  pickRadio,
  renderApanel,
  rspamdStatus,
  signInAdmin,
  type ApiCall,
} from '../../test-utils';

const BASE = '/api/rspamd/apanel-filters/';
const JANE = { id: 'u7', email: 'jane@corp.example' };
const lists = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === BASE);
const saves = (calls: ApiCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.path === BASE && c.query.get('dry_run') !== 'true');

function api() {
  return mockApi((call) => {
    if (call.path === '/api/rspamd/status/') return jsonResponse(200, rspamdStatus());
    if (call.path === '/api/users/') return jsonResponse(200, page([{ ...JANE, username: 'jane', role: 'user' }]));
    if (call.method === 'GET' && call.path === BASE)
      return jsonResponse(200, page([apanelFilter(), apanelFilter({ id: 'p2', owner: JANE, to: JANE.email })]));
    if (call.method === 'POST' && call.path === BASE)
      return jsonResponse(call.query.get('dry_run') === 'true' ? 200 : 201, {
        ...apanelFilter({ id: 'p9' }),
        ...(call.body as object),
      });
    return jsonResponse(404, { detail: 'Not found.', code: 'not_found' });
  });
}

beforeEach(() => {
  jest.restoreAllMocks();
  signInAdmin();
});

describe('control-panel filters', () => {
  it('lists sender → recipient pairs with their owner (System or a user); filters by owner', async () => {
    const { calls } = api();
    renderApanel();
    await waitFor(() => expect(screen.getAllByTestId('rule-row')).toHaveLength(2));
    expect(screen.getByRole('heading', { level: 1, name: 'Filtres du panneau de contrôle' })).toBeInTheDocument();
    const [system, janes] = screen.getAllByTestId('rule-row') as [HTMLElement, HTMLElement];
    expect(within(system).getByRole('link', { name: '*@bulk.example → *' })).toHaveAttribute(
      'href',
      '/rspamd/apanel-filters/edit/p1',
    );
    expect(within(system).getByTestId('apanel-owner')).toHaveTextContent('Système');
    expect(within(janes).getByTestId('apanel-owner')).toHaveTextContent(JANE.email);
    expect(system).toHaveTextContent('Quarantaine');
    expect(await screen.findByTestId('rspamd-status')).toHaveAttribute('data-list', 'apanel-filters');

    const user = userEvent.setup({ delay: null });
    await pickOption(user, 'Propriétaire', 'Système');
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/apanel-filters?owner=system'));
    await waitFor(() => expect(lists(calls).at(-1)!.query.get('owner')).toBe('system'));
  });

  it('a user owner, searched by the api: the recipient becomes their address; owner_id is sent', async () => {
    const { calls } = api();
    renderApanel('/rspamd/apanel-filters/create');
    const user = userEvent.setup({ delay: null });
    await fill(user, await screen.findByLabelText('Expéditeur'), '@Promo.example');
    expect(screen.getByLabelText('Destinataire')).toHaveValue('*');
    await user.type(screen.getByLabelText('Propriétaire'), 'jane');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/users/' && c.query.get('q') === 'jane')).toBe(true));
    await pickOption(user, 'Propriétaire', JANE.email);
    await waitFor(() => expect(screen.getByLabelText('Destinataire')).toHaveValue(JANE.email));
    await pickRadio(user, /^Supprimer sans avertir/);
    await fill(user, screen.getByLabelText('Description'), 'No promotions for Jane');
    await user.click(screen.getByRole('button', { name: 'Créer' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(saves(calls)[0]!.body).toEqual({
      owner_id: JANE.id,
      from: '@Promo.example',
      to: JANE.email,
      action: 'discard',
      description: 'No promotions for Jane',
      enabled: true,
    });
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/apanel-filters'));
    expect(noticeTitles()).toEqual(['success: Filtre créé avec succès']);
  });
});
