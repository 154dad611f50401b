import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  apanelFilter,
  currentLocation,
  explainOf,
  fill,
  jsonResponse,
  mockApi,
  noticeOf,
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
/** Jane's filter, the one the edit page loads. */
const JANES = apanelFilter({ id: 'p2', owner: JANE, to: JANE.email });
const lists = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === BASE);
const isDryRun = (c: ApiCall) => c.query.get('dry_run') === 'true';
const saves = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === BASE && !isDryRun(c));
const dryRuns = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === BASE && isDryRun(c));
const patches = (calls: ApiCall[], dryRun: boolean) =>
  calls.filter((c) => c.method === 'PATCH' && c.path === `${BASE}p2/` && isDryRun(c) === dryRun);
/** The api's 400 on a body it refuses (`errors.<field>`, its English words). */
const invalid = (errors: Record<string, string>) =>
  jsonResponse(400, { detail: 'Invalid request', code: 'validation_error', errors });

/**
 * The api: `refuse` answers a body it refuses (dry run or not, as the api checks both alike);
 * `save`, when given, answers the real (not dry-run) POST or PATCH.
 */
function api({ refuse, save }: { refuse?: (body: Record<string, unknown>) => Response | null; save?: Response } = {}) {
  return mockApi((call) => {
    if (call.path === '/api/rspamd/status/') return jsonResponse(200, rspamdStatus());
    if (call.path === '/api/users/') return jsonResponse(200, page([{ ...JANE, username: 'jane', role: 'user' }]));
    if (call.method === 'GET' && call.path === BASE) return jsonResponse(200, page([apanelFilter(), JANES]));
    if (call.method === 'GET' && call.path === `${BASE}p2/`) return jsonResponse(200, JANES);
    const creating = call.method === 'POST' && call.path === BASE;
    if (creating || (call.method === 'PATCH' && call.path === `${BASE}p2/`)) {
      const body = call.body as Record<string, unknown>;
      if (!isDryRun(call) && save) return save.clone();
      const refusal = refuse?.(body);
      if (refusal) return refusal;
      return jsonResponse(creating && !isDryRun(call) ? 201 : 200, {
        ...(creating ? apanelFilter({ id: 'p9' }) : JANES),
        ...body,
      });
    }
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

  it('live check: the api’s refusal of the sender (400 errors.from) is said under it and blocks Create until fixed', async () => {
    const { calls } = api({
      refuse: (body) => (body.from === 'ceo@' ? invalid({ from: 'An address has the form name@domain' }) : null),
    });
    renderApanel('/rspamd/apanel-filters/create');
    const user = userEvent.setup({ delay: null });
    const form = within(await screen.findByTestId('apanel-form-page'));
    await pickRadio(user, /^Quarantaine/);
    await fill(user, form.getByLabelText('Description'), 'CEO fraud');
    await fill(user, form.getByLabelText('Expéditeur'), 'ceo@');
    await waitFor(() => expect(explainOf('Expéditeur')).toBe('Une adresse a la forme nom@domaine.'));
    expect(dryRuns(calls).at(-1)!.body).toEqual({
      owner_id: null,
      from: 'ceo@',
      to: '*',
      action: 'quarantine',
      description: 'CEO fraud',
      enabled: true,
    });
    expect(explainOf('Destinataire')).toBe('');

    // The api has refused these values: Create does not send them.
    // Away from the sender first: only a refused submit puts the focus back on it.
    await user.click(form.getByLabelText('Description'));
    await user.click(form.getByRole('button', { name: 'Créer' }));
    // Refused by the form (it focuses the field in error), so onFinish never ran.
    await waitFor(() => expect(form.getByLabelText('Expéditeur')).toHaveFocus());
    expect(explainOf('Expéditeur')).toBe('Une adresse a la forme nom@domaine.');
    expect(saves(calls)).toEqual([]);

    await user.clear(form.getByLabelText('Expéditeur'));
    await fill(user, form.getByLabelText('Expéditeur'), 'ceo@fraud.example');
    await waitFor(() => expect(explainOf('Expéditeur')).toBe(''));
    await user.click(form.getByRole('button', { name: 'Créer' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(saves(calls)[0]!.body).toMatchObject({ from: 'ceo@fraud.example', to: '*' });
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/apanel-filters'));
  });

  it('live check: an owner the api refuses (400 errors.owner_id) is said under Owner', async () => {
    const { calls } = api({
      refuse: (body) => (body.owner_id === JANE.id ? invalid({ owner_id: 'No active user has this id' }) : null),
    });
    renderApanel('/rspamd/apanel-filters/create');
    const user = userEvent.setup({ delay: null });
    const form = within(await screen.findByTestId('apanel-form-page'));
    await fill(user, form.getByLabelText('Propriétaire'), 'jane');
    await waitFor(() => expect(calls.some((c) => c.path === '/api/users/' && c.query.get('q') === 'jane')).toBe(true));
    await pickOption(user, 'Propriétaire', JANE.email);
    await waitFor(() => expect(explainOf('Propriétaire')).toBe('Aucun utilisateur actif n’a cet identifiant.'));
    expect(dryRuns(calls).at(-1)!.body).toMatchObject({ owner_id: JANE.id, to: JANE.email });
    expect(explainOf('Destinataire')).toBe('');
    expect(saves(calls)).toEqual([]);
  });

  it('edits: the filter in the fields, the owner compared by id; only what changed is PATCHed', async () => {
    const { calls } = api();
    renderApanel('/rspamd/apanel-filters/edit/p2');
    const user = userEvent.setup({ delay: null });
    const section = await screen.findByTestId('apanel-form-page');
    const form = within(section);
    expect(
      form.getByRole('heading', { level: 1, name: 'Modifier un filtre du panneau de contrôle' }),
    ).toBeInTheDocument();
    expect(form.getByLabelText('Expéditeur')).toHaveValue('*@bulk.example');
    expect(form.getByLabelText('Destinataire')).toHaveValue(JANE.email);
    expect(form.getByLabelText('Description')).toHaveValue('Bulk mail');
    expect(form.getByRole('radio', { name: /^Quarantaine/ })).toBeChecked();
    expect(within(form.getByTestId('apanel-owner-select')).getByTitle(JANE.email)).toBeInTheDocument();

    await user.clear(form.getByLabelText('Expéditeur'));
    await fill(user, form.getByLabelText('Expéditeur'), '*@promo.example');
    await waitFor(() => expect(patches(calls, true).length).toBeGreaterThan(0));
    await user.click(form.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(patches(calls, false)).toHaveLength(1));
    expect(patches(calls, false)[0]!.body).toEqual({ from: '*@promo.example' });
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/apanel-filters'));
    expect(noticeTitles()).toEqual(['success: Filtre mis à jour avec succès']);
    expect(noticeOf('Filtre mis à jour avec succès')?.description).toBe(`*@promo.example → ${JANE.email}`);
  });

  it('a conflict on save (409) names the other filter under the sender; the page stays', async () => {
    const detail =
      'This sender and recipient pair already has a filter with another action: ' +
      '#p5 *@bulk.example → jane@corp.example (accept, "Newsletters"). ' +
      'It cannot be both accept and reject: change or delete that filter first.';
    const { calls } = api({
      save: jsonResponse(409, { detail, code: 'filter_conflict', errors: { from: detail, to: detail } }),
    });
    renderApanel('/rspamd/apanel-filters/edit/p2');
    const user = userEvent.setup({ delay: null });
    const form = within(await screen.findByTestId('apanel-form-page'));
    await pickRadio(user, /^Rejeter/);
    await user.click(form.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() =>
      expect(explainOf('Expéditeur')).toBe(
        'Cette valeur a déjà un filtre avec une autre action\u00a0: ' +
          '#p5 *@bulk.example → jane@corp.example (accept, "Newsletters"). ' +
          'Elle ne peut pas être à la fois «\u00a0Accepter\u00a0» et «\u00a0Rejeter\u00a0»\u00a0: ' +
          'modifiez ou supprimez d’abord ce filtre.',
      ),
    );
    // Said once.
    expect(explainOf('Destinataire')).toBe('');
    expect(patches(calls, false).map((c) => c.body)).toEqual([{ action: 'reject' }]);
    expect(currentLocation()).toBe('/rspamd/apanel-filters/edit/p2');
    expect(noticeTitles()).toEqual([]);
  });
});
