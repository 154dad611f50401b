import { resetSessionForTests } from '@qc/auth';
import type { ListEntry } from '@qc/contracts';
import { changeLanguage } from '@qc/i18n';
import { useNotices } from '@qc/ui-state';
import { pickOption } from '@qc/ui/testing';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse, mockApi, renderPage, signIn, USER, type ApiCall } from '../../test-utils';
import SettingsPage, { SETTINGS_SECTIONS } from '../settings/Page';

const noticeTitles = () => useNotices.getState().notices.map((n) => `${n.type}:${n.title}`);
const PREFS = { theme_mode: 'light', default_page_size: 50, updated_at: null };

function entry(id: string, address: string, extra: Partial<ListEntry> = {}): ListEntry {
  return {
    id,
    kind: 'whitelist',
    scope: 'user',
    address,
    address_unicode: null,
    user: { id: 'u1', email: 'jane@example.com' },
    domain: null,
    created_at: '2026-11-20T09:00:00.000Z',
    created_by: { id: 'u1', email: 'jane@example.com' },
    ...extra,
  };
}

const ENTRIES = [
  entry('l1', 'friend@example.org'),
  entry('l2', '@xn--bcher-kva.example', { address_unicode: '@bücher.example', created_by: null }),
];

/** The settings page with a fake api: preferences, and lists answered by `lists`. */
function renderSettings(lists: (call: ApiCall) => Response | Promise<Response>) {
  const api = mockApi((c) =>
    c.path.startsWith('/api/lists/') ||
    (c.path.startsWith('/api/users/') && c.path !== '/api/users/me/preferences/') ||
    c.path.startsWith('/api/domains/')
      ? lists(c)
      : jsonResponse(200, PREFS),
  );
  // The lists section alone: the others make their own calls (tested beside them).
  renderPage(<SettingsPage sections={SETTINGS_SECTIONS.filter((s) => s.id === 'lists')} />);
  return api;
}
const listCalls = (calls: ApiCall[]) => calls.filter((c) => c.path.startsWith('/api/lists/'));
const region = () => screen.getByRole('region', { name: 'Listes blanche et noire' });

beforeEach(() => {
  localStorage.clear();
  resetSessionForTests();
  useNotices.getState().clear();
  jest.restoreAllMocks();
});
afterEach(async () => {
  await act(() => changeLanguage('fr'));
});

describe('settings: whitelist and blacklist (issue 18)', () => {
  it('a user sees their whitelist: the Unicode form of an IDN, a whole domain said so, who added it; total', async () => {
    signIn();
    const { calls } = renderSettings(() => jsonResponse(200, { results: ENTRIES, next_cursor: null, total: 2 }));
    const rows = await within(region()).findAllByTestId('list-entry');
    expect(rows.map((r) => within(r).getByTestId('list-entry-address').textContent)).toEqual([
      'friend@example.org',
      'bücher.example',
    ]);
    expect(within(rows[1]!).getByTestId('list-entry-domain')).toHaveTextContent('tout le domaine');
    expect(within(rows[0]!).getByTestId('list-entry-meta')).toHaveTextContent(/Ajoutée par jane@example.com/);
    expect(screen.getByTestId('list-total')).toHaveTextContent('2 adresses');
    // A user has no scope switch: their own list.
    expect(screen.queryByTestId('lists-scope')).toBeNull();
    const first = listCalls(calls)[0]!;
    expect(first.method).toBe('GET');
    expect(Object.fromEntries(new URLSearchParams(first.search))).toEqual({
      kind: 'whitelist',
      scope: 'user',
      page_size: '50',
    });

    await userEvent.setup().click(screen.getByRole('tab', { name: 'Liste noire' }));
    await waitFor(() => expect(listCalls(calls).at(-1)!.search).toContain('kind=blacklist'));
  });

  it('issue 29: each list says what it needs: a whitelist an authenticated sender, a blacklist either address (French, English)', async () => {
    signIn();
    renderSettings(() => jsonResponse(200, { results: [], next_cursor: null, total: 0 }));
    const user = userEvent.setup();
    expect(await within(region()).findByTestId('list-rule')).toHaveTextContent(
      'ne s’applique que si l’expéditeur est authentifié : l’expéditeur de l’enveloppe passe SPF, ou l’adresse From passe DKIM ou DMARC.',
    );
    await user.click(screen.getByRole('tab', { name: 'Liste noire' }));
    await waitFor(() =>
      expect(within(region()).getByTestId('list-rule')).toHaveTextContent(
        'retient le message, qu’elle soit l’expéditeur de l’enveloppe ou l’adresse From.',
      ),
    );

    await act(() => changeLanguage('en'));
    expect(within(screen.getByTestId('settings-section-lists')).getByTestId('list-rule')).toHaveTextContent(
      'holds the message whether it is the envelope sender or the From address.',
    );
    await user.click(screen.getByRole('tab', { name: 'Whitelist' }));
    await waitFor(() =>
      expect(within(screen.getByTestId('settings-section-lists')).getByTestId('list-rule')).toHaveTextContent(
        'applies only when the sender is authenticated: the envelope sender passes SPF, or the From address passes DKIM or DMARC.',
      ),
    );
    expect(screen.getByTestId('settings-section-lists')).toHaveTextContent('Authenticated senders on the whitelist');
  });

  it('spec §5: not an e-mail nor @domain → "Format invalide" on the field, nothing sent', async () => {
    signIn();
    const { calls } = renderSettings(() => jsonResponse(200, { results: [], next_cursor: null, total: 0 }));
    const user = userEvent.setup();
    expect(await screen.findByText('Aucune adresse sur cette liste.')).toBeInTheDocument();
    expect(screen.getByTestId('list-clear')).toBeDisabled();
    const input = screen.getByLabelText('Ajouter une adresse');
    for (const bad of ['jane', 'jane@example', 'a b@example.com']) {
      await user.clear(input);
      await user.type(input, `${bad}{Enter}`);
      expect(screen.getByTestId('list-add-error')).toHaveTextContent('Format invalide');
      expect(input).toHaveAttribute('aria-invalid', 'true');
    }
    expect(listCalls(calls).filter((c) => c.method === 'POST')).toEqual([]);
  });

  it('adds an address: POST, "Adresse ajoutée", list refreshed; a conflict is said on the field naming the other list', async () => {
    signIn();
    let stored: ListEntry[] = [];
    const { calls } = renderSettings((c) => {
      if (c.method === 'POST') {
        const address = (c.body as { address: string }).address;
        if (address === 'spam@bad.example')
          return jsonResponse(409, { code: 'list_conflict', detail: 'The address is on the blacklist: #l9' });
        const created = entry('l3', address);
        stored = [created];
        return jsonResponse(201, created);
      }
      return jsonResponse(200, { results: stored, next_cursor: null, total: stored.length });
    });
    const user = userEvent.setup();
    const input = await screen.findByLabelText('Ajouter une adresse');
    await user.type(input, '  new@example.net ');
    await user.click(screen.getByTestId('list-add-submit'));
    await waitFor(() => expect(noticeTitles()).toEqual(['success:Adresse ajoutée']));
    expect(listCalls(calls).find((c) => c.method === 'POST')!.body).toEqual({
      kind: 'whitelist',
      scope: 'user',
      address: 'new@example.net',
    });
    expect(await screen.findByText('new@example.net')).toBeInTheDocument();
    expect(input).toHaveValue('');

    await user.type(input, 'spam@bad.example{Enter}');
    expect(await screen.findByTestId('list-add-error')).toHaveTextContent(
      'spam@bad.example est sur la liste noire de ce même propriétaire',
    );
    expect(noticeTitles()).toEqual(['success:Adresse ajoutée']);
  });

  it('the api’s 400 on the address shows on the field in French; another failure is "Erreur lors de l’ajout"', async () => {
    signIn();
    let fail = 400;
    renderSettings((c) =>
      c.method === 'POST'
        ? fail === 400
          ? jsonResponse(400, { code: 'validation_error', detail: 'Invalid', errors: { address: 'Invalid format' } })
          : jsonResponse(500, { code: 'internal_error', detail: 'boom' })
        : jsonResponse(200, { results: [], next_cursor: null, total: 0 }),
    );
    const user = userEvent.setup();
    const input = await screen.findByLabelText('Ajouter une adresse');
    // Well-formed here, refused there (the api's own check, e.g. an A-label it cannot convert).
    await user.type(input, 'jane@example.com{Enter}');
    expect(await screen.findByTestId('list-add-error')).toHaveTextContent('Format invalide');
    expect(noticeTitles()).toEqual([]);
    fail = 500;
    await user.click(screen.getByTestId('list-add-submit'));
    await waitFor(() => expect(noticeTitles()).toEqual(['error:Erreur lors de l’ajout']));
  });

  it('removes an entry after a confirmation: DELETE /api/lists/{id}/, "Adresse supprimée"', async () => {
    signIn();
    let stored = [...ENTRIES];
    const { calls } = renderSettings((c) => {
      if (c.method === 'DELETE') {
        stored = stored.filter((e) => `/api/lists/${e.id}/` !== c.path);
        return new Response(null, { status: 204 });
      }
      return jsonResponse(200, { results: stored, next_cursor: null, total: stored.length });
    });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Supprimer friend@example.org' }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent('friend@example.org ne sera plus sur la liste blanche.');
    // Nothing yet: a confirmation first.
    expect(listCalls(calls).filter((c) => c.method === 'DELETE')).toEqual([]);
    await user.click(screen.getByTestId('list-remove-confirm'));
    await waitFor(() => expect(noticeTitles()).toEqual(['success:Adresse supprimée']));
    expect(listCalls(calls).find((c) => c.method === 'DELETE')!.path).toBe('/api/lists/l1/');
    await waitFor(() => expect(screen.getAllByTestId('list-entry')).toHaveLength(1));
  });

  it('"Vider la liste" says how many go, then clears this owner’s list: "Liste vidée"; a failure "Erreur lors du vidage"', async () => {
    signIn();
    let fail = false;
    const { calls } = renderSettings((c) => {
      if (c.method === 'DELETE')
        return fail
          ? jsonResponse(503, { code: 'database_unavailable', detail: 'x' })
          : jsonResponse(200, { deleted: 2 });
      return jsonResponse(200, { results: ENTRIES, next_cursor: null, total: 2 });
    });
    const user = userEvent.setup();
    await screen.findAllByTestId('list-entry');
    await user.click(screen.getByTestId('list-clear'));
    expect(await screen.findByRole('dialog')).toHaveTextContent('Les 2 adresses de cette liste seront supprimées.');
    await user.click(screen.getByTestId('list-clear-confirm'));
    await waitFor(() => expect(noticeTitles()).toEqual(['success:Liste vidée']));
    const del = listCalls(calls).find((c) => c.method === 'DELETE')!;
    expect(del.path).toBe('/api/lists/');
    expect(Object.fromEntries(new URLSearchParams(del.search))).toEqual({ kind: 'whitelist', scope: 'user' });

    fail = true;
    useNotices.getState().clear();
    await user.click(screen.getByTestId('list-clear'));
    await user.click(await screen.findByTestId('list-clear-confirm'));
    await waitFor(() => expect(noticeTitles()).toEqual(['error:Erreur lors du vidage']));
  });

  it('pages with "Afficher plus" (the next cursor), and searches', async () => {
    signIn();
    const { calls } = renderSettings((c) => {
      const q = new URLSearchParams(c.search);
      if (q.get('q')) return jsonResponse(200, { results: [ENTRIES[0]], next_cursor: null, total: 2 });
      return q.get('cursor')
        ? jsonResponse(200, { results: [ENTRIES[1]], next_cursor: null, total: 2 })
        : jsonResponse(200, { results: [ENTRIES[0]], next_cursor: 'c2', total: 2 });
    });
    const user = userEvent.setup();
    await user.click(await screen.findByTestId('list-load-more'));
    await waitFor(() => expect(screen.getAllByTestId('list-entry')).toHaveLength(2));
    expect(listCalls(calls).at(-1)!.search).toContain('cursor=c2');
    expect(screen.queryByTestId('list-load-more')).toBeNull();

    await user.type(screen.getByLabelText('Recherche'), 'friend{Enter}');
    await waitFor(() => expect(screen.getAllByTestId('list-entry')).toHaveLength(1));
    expect(listCalls(calls).at(-1)!.search).toContain('q=friend');
  });

  it('a failed load says so with a Retry', async () => {
    signIn();
    let fail = true;
    renderSettings(() =>
      fail
        ? jsonResponse(500, { code: 'internal_error', detail: 'x' })
        : jsonResponse(200, { results: ENTRIES, next_cursor: null, total: 2 }),
    );
    expect(await screen.findByText('Erreur lors du chargement de la liste')).toBeInTheDocument();
    fail = false;
    await userEvent.setup().click(screen.getByRole('button', { name: /Réessayer/ }));
    expect(await screen.findAllByTestId('list-entry')).toHaveLength(2);
  });

  it('an admin switches the scope: global, then a user picked by a server search', async () => {
    signIn({ ...USER, role: 'admin' });
    const { calls } = renderSettings((c) => {
      if (c.path === '/api/users/')
        return jsonResponse(200, { results: [{ ...USER, id: 'u7', email: 'bob@corp.example' }], next_cursor: null });
      return jsonResponse(200, { results: [], next_cursor: null, total: 0 });
    });
    const user = userEvent.setup();
    await screen.findByText('Aucune adresse sur cette liste.');
    const scope = screen.getByRole('radiogroup', { name: 'Liste de' });
    await user.click(within(scope).getByText('Globale'));
    await waitFor(() => expect(listCalls(calls).at(-1)!.search).toContain('scope=global'));

    await user.click(within(scope).getByText('Un utilisateur'));
    expect(screen.getByTestId('list-choose-owner')).toHaveTextContent('Choisissez un utilisateur');
    await pickOption(user, 'Utilisateur', 'bob@corp.example');
    await waitFor(() => expect(listCalls(calls).at(-1)!.search).toContain('user_id=u7'));
    expect(Object.fromEntries(new URLSearchParams(listCalls(calls).at(-1)!.search))).toMatchObject({
      kind: 'whitelist',
      scope: 'user',
      user_id: 'u7',
    });
  });
});
