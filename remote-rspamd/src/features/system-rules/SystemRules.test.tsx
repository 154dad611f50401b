import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  currentLocation,
  explainOf,
  fill,
  jsonResponse,
  mockApi,
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
const saves = (calls: ApiCall[]) =>
  calls.filter((c) => c.method === 'POST' && c.path === BASE && c.query.get('dry_run') !== 'true');

function api() {
  return mockApi((call) => {
    if (call.path === '/api/rspamd/status/') return jsonResponse(200, rspamdStatus());
    if (call.method === 'GET' && call.path === BASE) return jsonResponse(200, page([systemRule()]));
    if (call.method === 'POST' && call.path === BASE)
      return jsonResponse(call.query.get('dry_run') === 'true' ? 200 : 201, {
        ...systemRule({ id: 's9' }),
        ...(call.body as object),
      });
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
});
