import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  currentLocation,
  explainOf,
  fill,
  jsonResponse,
  mockApi,
  noticeOf,
  noticeTitles,
  page,
  pickRadio,
  renderSystemRules,
  rspamdStatus,
  signInAdmin,
  systemRule,
  type ApiCall,
} from '../../test-utils';

const BASE = '/api/rspamd/system-rules/';
const isDryRun = (c: ApiCall) => c.query.get('dry_run') === 'true';
const saves = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === BASE && !isDryRun(c));
const dryRuns = (calls: ApiCall[]) => calls.filter((c) => c.method === 'POST' && c.path === BASE && isDryRun(c));
const patches = (calls: ApiCall[], dryRun: boolean) =>
  calls.filter((c) => c.method === 'PATCH' && c.path === `${BASE}s1/` && isDryRun(c) === dryRun);
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
    if (call.method === 'GET' && call.path === BASE) return jsonResponse(200, page([systemRule()]));
    if (call.method === 'GET' && call.path === `${BASE}s1/`) return jsonResponse(200, systemRule());
    const creating = call.method === 'POST' && call.path === BASE;
    if (creating || (call.method === 'PATCH' && call.path === `${BASE}s1/`)) {
      const body = call.body as Record<string, unknown>;
      if (!isDryRun(call) && save) return save.clone();
      const refusal = refuse?.(body);
      if (refusal) return refusal;
      return jsonResponse(creating && !isDryRun(call) ? 201 : 200, {
        ...systemRule(creating ? { id: 's9' } : {}),
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

describe('system rules', () => {
  it('lists each rule with the patterns it has, its action and owner', async () => {
    api();
    renderSystemRules();
    const row = await screen.findByTestId('rule-row');
    expect(screen.getByRole('heading', { level: 1, name: 'Règles système' })).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Invoices from abroad' })).toHaveAttribute(
      'href',
      '/rspamd/system-rules/edit/s1',
    );
    expect(within(row).getByTestId('system-patterns')).toHaveTextContent(
      'De : *@bad.example' + 'Objet : *invoice*' + 'IP : 192.0.2.0/24',
    );
    expect(row).toHaveTextContent('Liste grise');
    expect(row).toHaveTextContent('admin@example.com');
  });

  it('spec §5: at least one pattern (nothing sent until then); then created with the others null', async () => {
    const { calls } = api();
    renderSystemRules('/rspamd/system-rules/create');
    const user = userEvent.setup({ delay: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Nouvelle règle système' })).toBeInTheDocument();
    // The strictest action wins: said on the page.
    expect(screen.getByTestId('system-form-page')).toHaveTextContent('l’action la plus stricte l’emporte');
    await fill(user, screen.getByLabelText('Nom de la règle'), 'Invoices');
    await pickRadio(user, /^Refus temporaire/);
    await user.click(screen.getByRole('button', { name: 'Créer' }));
    await waitFor(() =>
      expect(explainOf('Expéditeur')).toBe(
        'Indiquez au moins un motif (expéditeur, objet, destinataire ou adresse IP)',
      ),
    );
    expect(saves(calls)).toEqual([]);
    await fill(user, screen.getByLabelText('Objet'), '*invoice*');
    await user.click(screen.getByRole('button', { name: 'Créer' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(saves(calls)[0]!.body).toEqual({
      name: 'Invoices',
      from: null,
      subject: '*invoice*',
      to: null,
      ip: null,
      action: 'soft_reject',
      enabled: true,
    });
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/system-rules'));
    expect(noticeTitles()).toEqual(['success: Règle créée avec succès']);
  });

  it('live check: the api’s refusals under the sender, its "patterns" one too (400); Create is refused until fixed', async () => {
    const { calls } = api({
      refuse: (body) =>
        body.from === '*'
          ? invalid({ patterns: 'These patterns match all mail: narrow one' })
          : body.from === '[a-z]*@bad.example'
            ? invalid({ from: 'Only * and ? are wildcards: "[" is not allowed' })
            : null,
    });
    renderSystemRules('/rspamd/system-rules/create');
    const user = userEvent.setup({ delay: null });
    const form = within(await screen.findByTestId('system-form-page'));
    await fill(user, form.getByLabelText('Nom de la règle'), 'Bad senders');
    await pickRadio(user, /^Rejeter/);
    await fill(user, form.getByLabelText('Expéditeur'), '*');
    // `errors.patterns` has no field of its own: said under the first pattern.
    await waitFor(() =>
      expect(explainOf('Expéditeur')).toBe(
        'Ces motifs correspondent à tout le courrier\u00a0: restreignez-en au moins un.',
      ),
    );
    expect(dryRuns(calls).at(-1)!.body).toEqual({
      name: 'Bad senders',
      from: '*',
      subject: null,
      to: null,
      ip: null,
      action: 'reject',
      enabled: true,
    });
    expect(explainOf('Nom de la règle')).toBe('');
    // The api has refused these values: Create does not send them.
    // Away from the sender first: only a refused submit puts the focus back on it.
    await user.click(form.getByLabelText('Nom de la règle'));
    await user.click(form.getByRole('button', { name: 'Créer' }));
    // Refused by the form (it focuses the field in error), so onFinish never ran.
    await waitFor(() => expect(form.getByLabelText('Expéditeur')).toHaveFocus());
    expect(explainOf('Expéditeur')).toBe(
      'Ces motifs correspondent à tout le courrier\u00a0: restreignez-en au moins un.',
    );
    expect(saves(calls)).toEqual([]);

    await user.clear(form.getByLabelText('Expéditeur'));
    await fill(user, form.getByLabelText('Expéditeur'), '[a-z]*@bad.example');
    await waitFor(() =>
      expect(explainOf('Expéditeur')).toBe('Seuls * et ? sont des jokers\u00a0: «\u00a0[\u00a0» n’est pas permis.'),
    );
    // Away from the sender first: only a refused submit puts the focus back on it.
    await user.click(form.getByLabelText('Nom de la règle'));
    await user.click(form.getByRole('button', { name: 'Créer' }));
    // Refused by the form (it focuses the field in error), so onFinish never ran.
    await waitFor(() => expect(form.getByLabelText('Expéditeur')).toHaveFocus());
    expect(saves(calls)).toEqual([]);

    await user.clear(form.getByLabelText('Expéditeur'));
    await fill(user, form.getByLabelText('Expéditeur'), '*@bad.example');
    await waitFor(() => expect(explainOf('Expéditeur')).toBe(''));
    await user.click(form.getByRole('button', { name: 'Créer' }));
    await waitFor(() => expect(saves(calls)).toHaveLength(1));
    expect(saves(calls)[0]!.body).toMatchObject({ name: 'Bad senders', from: '*@bad.example' });
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/system-rules'));
  });

  it('edits: the rule in the fields; only what changed is PATCHed, an emptied pattern as null', async () => {
    const { calls } = api();
    renderSystemRules('/rspamd/system-rules/edit/s1');
    const user = userEvent.setup({ delay: null });
    const form = within(await screen.findByTestId('system-form-page'));
    expect(form.getByRole('heading', { level: 1, name: 'Modifier une règle système' })).toBeInTheDocument();
    // Its id (spec §3), as Rspamd names it in a message's symbols.
    expect(form.getByTestId('system-id')).toHaveTextContent('s1');
    expect(form.getByText(/system:s1/)).toBeInTheDocument();
    expect(form.getByLabelText('Nom de la règle')).toHaveValue('Invoices from abroad');
    expect(form.getByLabelText('Expéditeur')).toHaveValue('*@bad.example');
    expect(form.getByLabelText('Objet')).toHaveValue('*invoice*');
    expect(form.getByLabelText('Destinataire')).toHaveValue('');
    expect(form.getByLabelText('Adresse IP du client')).toHaveValue('192.0.2.0/24');
    expect(form.getByRole('radio', { name: /^Liste grise/ })).toBeChecked();

    await user.clear(form.getByLabelText('Objet'));
    await fill(user, form.getByLabelText('Objet'), '*facture*');
    await user.clear(form.getByLabelText('Adresse IP du client'));
    await waitFor(() => expect(patches(calls, true).length).toBeGreaterThan(0));
    await user.click(form.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() => expect(patches(calls, false)).toHaveLength(1));
    expect(patches(calls, false)[0]!.body).toEqual({ subject: '*facture*', ip: null });
    await waitFor(() => expect(currentLocation()).toBe('/rspamd/system-rules'));
    expect(noticeTitles()).toEqual(['success: Règle mise à jour avec succès']);
    expect(noticeOf('Règle mise à jour avec succès')?.description).toBe('Invoices from abroad');
  });

  it('a conflict on save (409 errors.patterns) names the other rule under the sender; the page stays', async () => {
    const detail = 'A system rule with these patterns already has a filter: #s2 Bad senders (greylist).';
    const { calls } = api({
      save: jsonResponse(409, { detail, code: 'filter_exists', errors: { patterns: detail } }),
    });
    renderSystemRules('/rspamd/system-rules/edit/s1');
    const user = userEvent.setup({ delay: null });
    const form = within(await screen.findByTestId('system-form-page'));
    await user.clear(form.getByLabelText('Objet'));
    await user.click(form.getByRole('button', { name: 'Enregistrer' }));
    await waitFor(() =>
      expect(explainOf('Expéditeur')).toBe('Cette valeur a déjà un filtre\u00a0: #s2 Bad senders (greylist).'),
    );
    expect(explainOf('Nom de la règle')).toBe('');
    expect(patches(calls, false).map((c) => c.body)).toEqual([{ subject: null }]);
    expect(currentLocation()).toBe('/rspamd/system-rules/edit/s1');
    expect(noticeTitles()).toEqual([]);
  });
});
