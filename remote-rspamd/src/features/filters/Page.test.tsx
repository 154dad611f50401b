import { DEFAULT_PREFERENCES, usePreferences } from '@qc/ui-state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  currentLocation,
  filter,
  jsonResponse,
  mockApi,
  noticeOf,
  noticeTitles,
  onPhoneScreen,
  page,
  renderFilters,
  rspamdStatus,
  signInAdmin,
  type ApiCall,
} from '../../test-utils';

const BASE = '/api/rspamd/filters/domains/';
const FILTERS = [
  filter(),
  filter({ id: 'f2', value: '*.promo.example', pattern_type: 'wildcard', action: 'quarantine', enabled: false }),
];
/** A name between French quotes, as the page writes it (no-break spaces inside). */
const q = (name: string) => `«\u00a0${name}\u00a0»`;
const rows = () => screen.queryAllByTestId('rule-row');
const lists = (calls: ApiCall[], path = BASE) => calls.filter((c) => c.method === 'GET' && c.path === path);
const sent = (calls: ApiCall[], method: string, path: string) =>
  calls.filter((c) => c.method === method && c.path === path);

/** The api of these pages: lists, status, PATCH echoes, bulk answers each id `ok`, DELETE 204. */
function api(overrides: (call: ApiCall) => Response | undefined = () => undefined) {
  return mockApi((call) => {
    const special = overrides(call);
    if (special) return special;
    if (call.path === '/api/rspamd/status/') return jsonResponse(200, rspamdStatus());
    if (call.method === 'GET' && call.path.startsWith('/api/rspamd/filters/')) return jsonResponse(200, page(FILTERS));
    if (call.method === 'PATCH') return jsonResponse(200, { ...FILTERS[0], ...(call.body as object) });
    if (call.method === 'DELETE') return new Response(null, { status: 204 });
    if (call.path.endsWith('/bulk/')) {
      const { ids } = call.body as { ids: string[] };
      return jsonResponse(200, { results: ids.map((id) => ({ id, status: 'ok' })) });
    }
    return jsonResponse(404, { detail: 'Not found.', code: 'not_found' });
  });
}

beforeEach(() => {
  jest.restoreAllMocks();
  usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES } });
  signInAdmin();
});

describe('standard filters list', () => {
  it('/rspamd shows the domains tab: rows, tags, the status line; each tab its own URL', async () => {
    const { calls } = api();
    renderFilters('/rspamd');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(screen.getByRole('heading', { level: 1, name: 'Filtres standard' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Domaines', selected: true })).toBeInTheDocument();
    expect(Object.fromEntries(lists(calls).at(-1)!.query)).toEqual({ page_size: '50' });
    const [first, second] = rows() as [HTMLElement, HTMLElement];
    expect(within(first).getByRole('link', { name: 'spam.example' })).toHaveAttribute(
      'href',
      '/rspamd/domains/edit/f1',
    );
    expect(first).toHaveTextContent('Exact');
    expect(first).toHaveTextContent('Rejeter');
    expect(first).toHaveTextContent('Known spammer');
    expect(within(first).getByRole('switch', { name: `${q('spam.example')} actif` })).toBeChecked();
    expect(within(second).getByRole('switch')).not.toBeChecked();
    expect(second).toHaveTextContent('Joker');
    // What Rspamd has of this list.
    const status = await screen.findByTestId('rspamd-status');
    await waitFor(() => expect(status).toHaveTextContent(/Rspamd a lu cette liste il y a \d+ s/));
    expect(status).toHaveTextContent('3 règles servies');
    expect(status).toHaveTextContent('dernière modification en service');
    // What the family matches and the pattern syntax, folded.
    expect(screen.getByTestId('filters-help')).toHaveTextContent('Ce que ces filtres comparent');

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('tab', { name: 'Objet' }));
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/special'));
    await waitFor(() => expect(lists(calls, '/api/rspamd/filters/special/')).toHaveLength(1));
    expect(screen.getByRole('tab', { name: 'Objet', selected: true })).toBeInTheDocument();
  });

  it('search and filters go to the URL and the query; "New filter" opens the family’s form', async () => {
    const { calls } = api();
    renderFilters('/rspamd/ips?action=reject&enabled=false');
    await waitFor(() => expect(lists(calls, '/api/rspamd/filters/ips/')).toHaveLength(1));
    expect(Object.fromEntries(lists(calls, '/api/rspamd/filters/ips/')[0]!.query)).toEqual({
      action: 'reject',
      enabled: 'false',
      page_size: '50',
    });
    const user = userEvent.setup({ delay: null });
    await user.type(screen.getByLabelText('Recherche'), '192.0{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/ips?q=192.0&action=reject&enabled=false'));
    await user.click(screen.getByRole('button', { name: 'Réinitialiser les filtres' }));
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/ips'));
    await user.click(screen.getByTestId('filters-new'));
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/ips/create'));
  });

  it('empty, and spec §8 "Error loading filters" with Retry', async () => {
    let answer = jsonResponse(200, page([]));
    api((call) => (call.path === BASE ? answer.clone() : undefined));
    const { unmount } = renderFilters('/rspamd/domains');
    expect(await screen.findByText('Aucun filtre de domaine')).toBeInTheDocument();
    unmount();
    answer = jsonResponse(503, { detail: 'Database unavailable', code: 'database_unavailable' });
    renderFilters('/rspamd/domains');
    expect(await screen.findByText('Erreur lors du chargement des filtres')).toBeInTheDocument();
    answer = jsonResponse(200, page([filter()]));
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
  });

  it('the switch sends PATCH {enabled} and says so', async () => {
    const { calls } = api();
    renderFilters('/rspamd/domains');
    await waitFor(() => expect(rows()).toHaveLength(2));
    await userEvent.setup({ delay: null }).click(screen.getByRole('switch', { name: `${q('*.promo.example')} actif` }));
    await waitFor(() => expect(sent(calls, 'PATCH', `${BASE}f2/`)).toHaveLength(1));
    expect(sent(calls, 'PATCH', `${BASE}f2/`)[0]!.body).toEqual({ enabled: true });
    await waitFor(() => expect(noticeTitles()).toEqual(['success: Filtre mis à jour avec succès']));
    expect(noticeOf('Filtre mis à jour avec succès')!.description).toBe(`${q('*.promo.example')} est activé.`);
    // The list and the status are asked again (the change is not live yet).
    await waitFor(() => expect(lists(calls).length).toBeGreaterThan(1));
  });

  it('deletes a row behind a confirmation naming it (Cancel: nothing sent)', async () => {
    const { calls } = api();
    renderFilters('/rspamd/domains');
    await waitFor(() => expect(rows()).toHaveLength(2));
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByRole('button', { name: `Supprimer ${q('spam.example')}` }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Supprimer le filtre « spam.example » ?');
    expect(within(dialog).getByRole('button', { name: 'Annuler' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Annuler' }));
    expect(sent(calls, 'DELETE', `${BASE}f1/`)).toEqual([]);

    await user.click(screen.getByRole('button', { name: `Supprimer ${q('spam.example')}` }));
    await user.click((await screen.findAllByTestId('rule-delete-confirm')).at(-1)!);
    await waitFor(() => expect(sent(calls, 'DELETE', `${BASE}f1/`)).toHaveLength(1));
    await waitFor(() => expect(noticeTitles()).toEqual(['success: Filtre supprimé avec succès']));
  });

  it('bulk: enable the selection, delete it behind a confirmation; an id gone meanwhile is named', async () => {
    const { calls } = api((call) =>
      call.path === `${BASE}bulk/` && (call.body as { action: string }).action === 'delete'
        ? jsonResponse(200, {
            results: [
              { id: 'f1', status: 'ok' },
              { id: 'f2', status: 'not_found' },
            ],
          })
        : undefined,
    );
    renderFilters('/rspamd/domains');
    await waitFor(() => expect(rows()).toHaveLength(2));
    const user = userEvent.setup({ delay: null });
    expect(screen.getByTestId('filters-bulk-enable')).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Sélectionner les règles de cette page' }));
    expect(screen.getByTestId('filters-selected')).toHaveTextContent('2 sélectionnées');
    await user.click(screen.getByTestId('filters-bulk-enable'));
    await waitFor(() => expect(sent(calls, 'POST', `${BASE}bulk/`)).toHaveLength(1));
    expect(sent(calls, 'POST', `${BASE}bulk/`)[0]!.body).toEqual({ ids: ['f1', 'f2'], action: 'enable' });
    await waitFor(() => expect(noticeTitles()).toContain('success: 2 filtres activés'));
    await waitFor(() => expect(screen.getByTestId('filters-bulk-enable')).toBeDisabled());

    await user.click(screen.getByRole('checkbox', { name: `Sélectionner ${q('spam.example')}` }));
    await user.click(screen.getByRole('checkbox', { name: `Sélectionner ${q('*.promo.example')}` }));
    await user.click(screen.getByTestId('filters-bulk-delete'));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('Supprimer les 2 filtres sélectionnés ?');
    await user.click(within(dialog).getByTestId('filters-bulk-confirm'));
    await waitFor(() => expect(sent(calls, 'POST', `${BASE}bulk/`)).toHaveLength(2));
    expect(sent(calls, 'POST', `${BASE}bulk/`)[1]!.body).toEqual({ ids: ['f1', 'f2'], action: 'delete' });
    await waitFor(() => expect(noticeOf('1 filtre supprimé')?.type).toBe('warning'));
    expect(noticeOf('1 filtre supprimé')!.description).toBe('1 n’existait plus\u00a0: *.promo.example');
  });

  it('waits for Rspamd: "waiting…" while the list is not live, asked again until it is', async () => {
    let live = false;
    const { calls } = api((call) =>
      call.path === '/api/rspamd/status/'
        ? jsonResponse(200, rspamdStatus(40, [{ list: 'filters-domains', live }]))
        : undefined,
    );
    renderFilters('/rspamd/domains');
    expect(await screen.findByTestId('rspamd-status-waiting')).toHaveTextContent(
      'en attente de la lecture de la dernière modification par Rspamd',
    );
    live = true;
    // Polled every 3 s while not live.
    expect(await screen.findByTestId('rspamd-status-live', {}, { timeout: 8000 })).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/rspamd/status/').length).toBeGreaterThan(1);
  });

  it('a phone: one stacked cell per filter with its switch and delete button', async () => {
    const wide = onPhoneScreen();
    try {
      api();
      renderFilters('/rspamd/domains');
      await waitFor(() => expect(screen.getAllByTestId('rule-summary')).toHaveLength(2));
      const cell = screen.getAllByTestId('rule-summary')[0]!;
      expect(within(cell).getByRole('link', { name: 'spam.example' })).toBeInTheDocument();
      expect(within(cell).getByRole('switch')).toBeInTheDocument();
      expect(within(cell).getByRole('button', { name: `Supprimer ${q('spam.example')}` })).toBeInTheDocument();
    } finally {
      wide();
    }
  });

  it('an unknown family is "not found"', async () => {
    api();
    renderFilters('/rspamd/nope');
    expect(await screen.findByTestId('rspamd-not-found')).toHaveTextContent('Page introuvable');
  });
});
