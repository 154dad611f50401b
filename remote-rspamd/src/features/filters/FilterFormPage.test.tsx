import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  currentLocation,
  explainOf,
  fill,
  filter,
  jsonResponse,
  mockApi,
  noticeTitles,
  page,
  pickRadio,
  renderFilters,
  rspamdStatus,
  signInAdmin,
  type ApiCall,
} from '../../test-utils';

const BASE = '/api/rspamd/filters/domains/';
const posts = (calls: ApiCall[], dryRun: boolean) =>
  calls.filter((c) => c.method === 'POST' && c.path === BASE && (c.query.get('dry_run') === 'true') === dryRun);
const patches = (calls: ApiCall[], dryRun: boolean) =>
  calls.filter(
    (c) => c.method === 'PATCH' && c.path === `${BASE}f1/` && (c.query.get('dry_run') === 'true') === dryRun,
  );

/** The api as the api-rules module answers: the dry run refuses a ReDoS regex and normalises an IDN. */
function api(save?: Response) {
  return mockApi((call) => {
    if (call.path === '/api/rspamd/status/') return jsonResponse(200, rspamdStatus());
    if (call.method === 'GET' && call.path === BASE) return jsonResponse(200, page([filter()]));
    if (call.method === 'GET' && call.path === `${BASE}f1/`) return jsonResponse(200, filter());
    if ((call.method === 'POST' && call.path === BASE) || (call.method === 'PATCH' && call.path === `${BASE}f1/`)) {
      const body = call.body as { value?: string; pattern_type?: string };
      if (call.query.get('dry_run') !== 'true' && save) return save.clone();
      if (body.value === '(a+)+$')
        return jsonResponse(400, {
          detail: 'Invalid request',
          code: 'validation_error',
          errors: { value: 'This regular expression can backtrack catastrophically' },
        });
      const value = body.value === 'bücher.example' ? 'xn--bcher-kva.example' : body.value;
      return jsonResponse(call.method === 'POST' && call.query.get('dry_run') !== 'true' ? 201 : 200, {
        ...filter({ id: 'f9' }),
        ...body,
        value,
      });
    }
    return jsonResponse(404, { detail: 'Not found.', code: 'not_found' });
  });
}

beforeEach(() => {
  jest.restoreAllMocks();
  signInAdmin();
});

describe('filter form', () => {
  it('spec §5 on the fields before anything is sent: pattern and action required, description too short', async () => {
    const { calls } = api();
    renderFilters('/rspamd/domains/create');
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Nouveau filtre de domaine' })).toBeInTheDocument();
    // What the family matches, in words.
    expect(screen.getByTestId('filter-form-page')).toHaveTextContent('domaine de l’expéditeur de l’enveloppe');
    await user.type(screen.getByLabelText('Description'), 'ab');
    await user.click(screen.getByRole('button', { name: 'Créer' }));
    await waitFor(() => expect(explainOf('Domaine de l’expéditeur')).toBe('Le motif est obligatoire'));
    expect(explainOf('Action')).toBe('L’action est obligatoire');
    expect(explainOf('Description')).toBe('La description est trop courte');
    expect(posts(calls, false)).toEqual([]);
  });

  it('live validation by the api: its refusal under the pattern, then the stored form of a valid one', async () => {
    const { calls } = api();
    renderFilters('/rspamd/domains/create');
    const user = userEvent.setup({ delay: null });
    await screen.findByRole('radio', { name: 'Expression régulière' });
    await pickRadio(user, 'Expression régulière');
    await waitFor(() => expect(screen.getByTestId('filter-pattern-help')).toHaveTextContent('références arrière'));
    await user.type(screen.getByLabelText('Domaine de l’expéditeur'), '(a+)+$');
    // Debounced: one dry run for the whole typing.
    await waitFor(() => expect(posts(calls, true)).toHaveLength(1));
    // The api checks a request as a whole: what the form has not got yet is sent as a stand-in
    // (no action chosen, no description), so the pattern is checked now.
    expect(posts(calls, true)[0]!.body).toEqual({
      value: '(a+)+$',
      pattern_type: 'regex',
      action: 'reject',
      description: 'Live check',
      enabled: true,
    });
    await waitFor(() =>
      expect(explainOf('Domaine de l’expéditeur')).toBe(
        'Motif invalide\u00a0: This regular expression can backtrack catastrophically',
      ),
    );

    await pickRadio(user, 'Exact');
    await user.clear(screen.getByLabelText('Domaine de l’expéditeur'));
    await fill(user, screen.getByLabelText('Domaine de l’expéditeur'), 'bücher.example');
    expect(await screen.findByTestId('rule-stored-hint')).toHaveTextContent(
      'Enregistré sous la forme : xn--bcher-kva.example',
    );
    // antd lets a cleared error leave with a timed motion: it may still be on its way out.
    await waitFor(() => expect(explainOf('Domaine de l’expéditeur')).toBe(''));
    expect(posts(calls, false)).toEqual([]);
  });

  it('creates: spec §8 "Filter successfully created", back to the family’s list', async () => {
    const { calls } = api();
    renderFilters('/rspamd/domains/create');
    const user = userEvent.setup({ delay: null });
    await fill(user, await screen.findByLabelText('Domaine de l’expéditeur'), ' spam.example ');
    await pickRadio(user, /^Quarantaine/);
    await fill(user, screen.getByLabelText('Description'), 'Known spammer');
    await user.click(screen.getByRole('button', { name: 'Créer' }));
    await waitFor(() => expect(posts(calls, false)).toHaveLength(1));
    expect(posts(calls, false)[0]!.body).toEqual({
      value: 'spam.example',
      pattern_type: 'exact',
      action: 'quarantine',
      description: 'Known spammer',
      enabled: true,
    });
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/domains'));
    expect(noticeTitles()).toEqual(['success: Filtre créé avec succès']);
  });

  it('a conflict on save (409) is said under the pattern; the page stays', async () => {
    api(
      jsonResponse(409, {
        detail: 'Filter f3 (accept) already matches spam.example',
        code: 'filter_conflict',
      }),
    );
    renderFilters('/rspamd/domains/create');
    const user = userEvent.setup({ delay: null });
    await fill(user, await screen.findByLabelText('Domaine de l’expéditeur'), 'spam.example');
    await pickRadio(user, /^Rejeter/);
    await fill(user, screen.getByLabelText('Description'), 'Known spammer');
    await user.click(screen.getByRole('button', { name: 'Créer' }));
    await waitFor(() =>
      expect(explainOf('Domaine de l’expéditeur')).toBe(
        'En conflit avec une autre règle\u00a0: Filter f3 (accept) already matches spam.example',
      ),
    );
    expect(currentLocation()).toBe('/rspamd/domains/create');
    expect(noticeTitles()).toEqual([]);
  });

  it('edits: only what changed is sent; spec §8 "Filter successfully updated"', async () => {
    const { calls } = api();
    renderFilters('/rspamd/domains/edit/f1');
    const user = userEvent.setup({ delay: null });
    const description = await screen.findByLabelText('Description');
    expect(screen.getByLabelText('Domaine de l’expéditeur')).toHaveValue('spam.example');
    await user.clear(description);
    await fill(user, description, 'Spammer since 2020');
    await waitFor(() => expect(patches(calls, true).length).toBeGreaterThan(0));
    await user.click(screen.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(patches(calls, false)).toHaveLength(1));
    expect(patches(calls, false)[0]!.body).toEqual({ description: 'Spammer since 2020' });
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/domains'));
    expect(noticeTitles()).toEqual(['success: Filtre mis à jour avec succès']);
  });

  it('deletes from its page behind the confirmation', async () => {
    const { calls } = mockApi((call) => {
      if (call.method === 'GET' && call.path === `${BASE}f1/`) return jsonResponse(200, filter());
      if (call.method === 'DELETE') return new Response(null, { status: 204 });
      return jsonResponse(200, call.path === '/api/rspamd/status/' ? rspamdStatus() : page([]));
    });
    renderFilters('/rspamd/domains/edit/f1');
    const user = userEvent.setup({ delay: null });
    await user.click(await screen.findByTestId('rule-form-delete'));
    await user.click(within(await screen.findByRole('dialog')).getByTestId('rule-delete-confirm'));
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/domains'));
    expect(calls.filter((c) => c.method === 'DELETE').map((c) => c.path)).toEqual([`${BASE}f1/`]);
    expect(noticeTitles()).toEqual(['success: Filtre supprimé avec succès']);
  });

  it('unknown (404, or of another family): "Filter not found" inside the page', async () => {
    mockApi(() => jsonResponse(404, { detail: 'Not found.', code: 'not_found' }));
    renderFilters('/rspamd/ips/edit/f1');
    expect(await screen.findByTestId('rule-not-found')).toHaveTextContent('Filtre introuvable');
  });
});
