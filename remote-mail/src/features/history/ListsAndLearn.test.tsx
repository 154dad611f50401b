import type { HistoryEntry } from '@qc/contracts';
import { DEFAULT_PREFERENCES, useNotices, usePreferences } from '@qc/ui-state';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ExposedHistory from '../../exposed/History';
import { jsonResponse, mockApi, noticeTitles, pickOption, renderExposed } from '../../test-utils';

function entry(overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return {
    id: 'h1',
    date: '2026-11-20T09:30:00+01:00',
    user: { id: 'u1', email: 'jane@example.com', role: 'user' },
    action: 'release',
    email_id: 'm42',
    email: { subject: 'You won a prize' },
    ip_address: '192.0.2.10',
    result: 'success',
    code: null,
    target: null,
    changes: null,
    ...overrides,
  };
}

beforeEach(() => {
  jest.restoreAllMocks();
  useNotices.getState().clear();
  usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES } });
});

describe('history: learn actions and list rows (issue 18)', () => {
  it('labels learn and list actions, reads list targets in French, filters by the "Listes" category', async () => {
    const { calls } = mockApi(() =>
      jsonResponse(200, {
        results: [
          entry({ id: 'h1', action: 'learn_spam' }),
          entry({
            id: 'h2',
            action: 'list_add',
            email_id: null,
            email: null,
            target: { kind: 'list_entry', id: 'l1', label: 'whitelist friend@example.org' },
          }),
          entry({
            id: 'h3',
            action: 'list_clear',
            email_id: null,
            email: null,
            target: { kind: 'list', id: null, label: 'blacklist of user bob@corp.example' },
          }),
        ],
        next_cursor: null,
      }),
    );
    renderExposed('history', <ExposedHistory />);
    await waitFor(() => expect(screen.queryAllByTestId('history-row')).toHaveLength(3));
    const rows = screen.getAllByTestId('history-row');
    expect(rows[0]).toHaveTextContent('Appris comme spam');
    expect(rows[1]).toHaveTextContent('Ajout à une liste');
    expect(within(rows[1]!).getByTestId('history-target')).toHaveTextContent(
      'Entrée de liste : liste blanche friend@example.org',
    );
    expect(rows[2]).toHaveTextContent('Liste vidée');
    expect(within(rows[2]!).getByTestId('history-target')).toHaveTextContent(
      'Liste : liste noire de l’utilisateur bob@corp.example',
    );
    // Only the row about a quarantined mail has the learn menu.
    expect(screen.getAllByTestId('history-learn')).toHaveLength(1);

    await pickOption(userEvent.setup({ delay: null }), 'Catégorie', 'Listes');
    await waitFor(() => expect(calls.at(-1)!.query.get('category')).toBe('lists'));
  });

  it('learns from a row: POST /api/quarantine/{id}/learn/ and Rspamd’s answer', async () => {
    const { calls } = mockApi((c) =>
      c.path === '/api/quarantine/m42/learn/'
        ? jsonResponse(200, {
            as: 'ham',
            already: false,
            rspamd: '{"success":true}',
            learned: { as: 'ham', at: '2026-11-20T10:00:00Z', by: 'jane@example.com' },
          })
        : jsonResponse(200, { results: [entry()], next_cursor: null }),
    );
    renderExposed('history', <ExposedHistory />);
    const u = userEvent.setup({ delay: null });
    await u.click(await screen.findByTestId('history-learn'));
    await u.click(await screen.findByText('Apprendre comme légitime'));
    await waitFor(() => expect(noticeTitles()).toEqual(['success: Appris comme légitime']));
    expect(calls.find((c) => c.path === '/api/quarantine/m42/learn/')!.body).toEqual({ as: 'ham' });
  });

  it('a learn from a row refused by the role or the budget says why (a row cannot tell beforehand)', async () => {
    let refusal = { status: 403, code: 'learning_not_allowed', headers: {} as Record<string, string> };
    mockApi((c) =>
      c.path === '/api/quarantine/m42/learn/'
        ? new Response(JSON.stringify({ code: refusal.code, detail: 'refused' }), {
            status: refusal.status,
            headers: { 'Content-Type': 'application/json', ...refusal.headers },
          })
        : jsonResponse(200, { results: [entry()], next_cursor: null }),
    );
    renderExposed('history', <ExposedHistory />);
    const u = userEvent.setup({ delay: null });
    const learnHam = async () => {
      useNotices.getState().clear();
      await u.click(await screen.findByTestId('history-learn'));
      await u.click(await screen.findByText('Apprendre comme légitime'));
      await waitFor(() => expect(noticeTitles()).toEqual(['error: Erreur lors de l’apprentissage']));
      return useNotices.getState().notices[0]?.description;
    };
    expect(await learnHam()).toBe(
      'L’apprentissage est réservé à d’autres rôles sur ce serveur\u00a0: rien n’a été appris.',
    );
    refusal = { status: 429, code: 'rate_limited', headers: { 'Retry-After': '3600' } };
    expect(await learnHam()).toBe('Trop de requêtes. Réessayez dans 60\u00a0minutes.');
  });
});
