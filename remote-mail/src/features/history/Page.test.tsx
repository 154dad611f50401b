import { DEFAULT_PREFERENCES, usePreferences } from '@qc/ui-state';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useSession } from '@qc/auth';
import type { CurrentUser, HistoryEntry } from '@qc/contracts';
import ExposedHistory from '../../exposed/History';
import { readHistoryFilters } from './history.filters';
import {
  currentLocation,
  DAY_AFTER_DST,
  freezeDate,
  jsonResponse,
  mockApi,
  onPhoneScreen,
  pickOption,
  renderExposed,
  type ApiCall,
} from '../../test-utils';

const historyCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === '/api/history/');
const lastQuery = (calls: ApiCall[]) => Object.fromEntries(historyCalls(calls).at(-1)!.query);
const rows = () => screen.queryAllByTestId('history-row');
const openDropdown = () =>
  document.querySelector<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')!;
/** The options of the Select open now, by their text. */
const shownOptions = () =>
  Array.from(openDropdown().querySelectorAll('.ant-select-item-option'), (o) => o.getAttribute('title'));

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

/** A row about a user or a domain (administration, security): no e-mail. */
function auditEntry(overrides: Partial<HistoryEntry> = {}): HistoryEntry {
  return entry({
    user: { id: 'a1', email: 'root@example.com', role: 'admin' },
    action: 'domain_update',
    email_id: null,
    email: null,
    target: { kind: 'domain', id: 'd1', label: 'xn--bcher-kva.example' },
    changes: ['name', 'description'],
    ...overrides,
  });
}

const SESSION_USER: CurrentUser = {
  id: 'u1',
  username: 'jane',
  email: 'jane@example.com',
  first_name: '',
  last_name: '',
  role: 'user',
  domain: null,
  is_external: false,
  source: 'local',
  addresses: ['jane@example.com'],
  mfa_enabled: false,
  date_joined: '2026-01-01T00:00:00Z',
  pending_email: null,
};

beforeEach(() => {
  jest.restoreAllMocks();
  usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES } });
});
afterEach(() => jest.useRealTimers());

describe('history page', () => {
  it('renders the audit rows with an e-mail link, and the filters go to the URL and the query', async () => {
    freezeDate(DAY_AFTER_DST);
    const { calls } = mockApi(() =>
      jsonResponse(200, {
        results: [
          entry(),
          entry({
            id: 'h2',
            action: 'delete',
            email_id: 'm7',
            email: null,
            result: 'failure',
            code: 'email_not_found',
          }),
        ],
        next_cursor: null,
      }),
    );
    renderExposed('history', <ExposedHistory />, '/history?action=release');
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(lastQuery(calls)).toEqual({ action: 'release', page_size: '50' });
    const [first, second] = rows() as [HTMLElement, HTMLElement];
    expect(first).toHaveTextContent('jane@example.com');
    expect(first).toHaveTextContent('Libération');
    expect(first).toHaveTextContent('192.0.2.10');
    expect(first).toHaveTextContent('Succès');
    // The mail by its subject; one the caller may not see (an attempt on another's mail) by its id.
    expect(within(first).getByRole('link', { name: 'You won a prize' })).toHaveAttribute('href', '/mail/m42');
    expect(within(second).getByRole('link', { name: 'm7' })).toHaveAttribute('href', '/mail/m7');
    expect(second).toHaveTextContent('Suppression');
    expect(second).toHaveTextContent('Échec');

    const user = userEvent.setup({ delay: null });
    await pickOption(user, 'Action', 'Téléchargement');
    await waitFor(() => expect(lastQuery(calls).action).toBe('download'));
    await user.type(screen.getByLabelText('Utilisateur (e-mail)'), 'bob@example.com{Enter}');
    await waitFor(() => expect(lastQuery(calls).user).toBe('bob@example.com'));
    await pickOption(user, 'Période', 'Les 7 derniers jours');
    await waitFor(() => expect(lastQuery(calls).date_from).toBeDefined());
    expect(lastQuery(calls)).toEqual({
      action: 'download',
      user: 'bob@example.com',
      // 24 March (winter time) to 30 March (summer time), Paris.
      date_from: '2026-03-24T00:00:00.000+01:00',
      date_to: '2026-03-30T23:59:59.999+02:00',
      page_size: '50',
    });
    expect(currentLocation()).toBe('/history?action=download&user=bob%40example.com&period=last_7_days');
  }, 60_000);

  it('a custom period: its two local days go to the API and the URL; choosing "Custom" starts with today', async () => {
    freezeDate(DAY_AFTER_DST);
    const { calls } = mockApi(() => jsonResponse(200, { results: [entry()], next_cursor: null }));
    renderExposed('history', <ExposedHistory />, '/history?period=custom&from=2026-11-01&to=2026-11-20');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(lastQuery(calls)).toEqual({
      date_from: '2026-11-01T00:00:00.000+01:00',
      date_to: '2026-11-20T23:59:59.999+01:00',
      page_size: '50',
    });
    expect(await screen.findByDisplayValue('01/11/2026')).toBeInTheDocument();
    expect(screen.getByDisplayValue('20/11/2026')).toBeInTheDocument();

    const user = userEvent.setup({ delay: null });
    await pickOption(user, 'Période', 'Hier');
    await waitFor(() => expect(currentLocation()).toBe('/history?period=yesterday'));
    expect(screen.queryByDisplayValue('01/11/2026')).toBeNull();
    await pickOption(user, 'Période', 'Personnalisée…');
    await waitFor(() => expect(lastQuery(calls).date_from).toBe('2026-03-30T00:00:00.000+02:00'));
    expect(lastQuery(calls).date_to).toBe('2026-03-30T23:59:59.999+02:00');
    expect(currentLocation()).toBe('/history?period=custom&from=2026-03-30&to=2026-03-30');
    // A hand-edited range that is not one is "any date".
    expect(readHistoryFilters(new URLSearchParams('period=custom&from=2026-02-30&to=2026-03-01')).period).toBe('');
  }, 60_000);

  it('every role has the user filter (a user also reads admins’ actions on their mail) and a page text of its own', async () => {
    const { calls } = mockApi(() =>
      jsonResponse(200, {
        results: [entry({ user: { id: 'a1', email: 'root@example.com', role: 'admin' }, ip_address: null })],
        next_cursor: null,
      }),
    );
    const as = (role: CurrentUser['role']) => useSession.setState({ user: { ...SESSION_USER, role } });
    try {
      as('user');
      const { unmount } = renderExposed('history', <ExposedHistory />, '/history?user=root%40example.com');
      await waitFor(() => expect(rows()).toHaveLength(1));
      expect(screen.getByLabelText('Utilisateur (e-mail)')).toHaveValue('root@example.com');
      expect(lastQuery(calls)).toEqual({ page_size: '50', user: 'root@example.com' });
      // Who acted is a column; an IP address the api withholds reads as none.
      expect(screen.getByRole('columnheader', { name: 'Utilisateur' })).toBeInTheDocument();
      expect(within(rows()[0]!).getByText('root@example.com')).toBeInTheDocument();
      expect(
        screen.getByText(/^Vos téléchargements, libérations et suppressions, et ceux des administrateurs/),
      ).toBeInTheDocument();
      unmount();
      as('domain_admin');
      renderExposed('history', <ExposedHistory />);
      await waitFor(() => expect(rows()).toHaveLength(1));
      expect(screen.getByLabelText('Utilisateur (e-mail)')).toHaveAttribute(
        'placeholder',
        'Tout ou partie de l’adresse',
      );
      expect(screen.getByText(/faits par les utilisateurs de votre domaine ou sur ses e-mails/)).toBeInTheDocument();
      // Issue 23: its long description is below the header's row, "Actualiser" stays on the title's line.
      const headerRow = screen.getByTestId('page-header-row');
      expect(headerRow).toContainElement(screen.getByRole('heading', { level: 1, name: 'Historique' }));
      expect(headerRow).toContainElement(screen.getByTestId('history-reload'));
      expect(headerRow).not.toContainElement(screen.getByText(/faits par les utilisateurs de votre domaine/));
    } finally {
      act(() => useSession.setState({ user: null }));
    }
  }, 60_000);

  it('a failure says why in words, visibly (not the api code in a tooltip)', async () => {
    mockApi(() =>
      jsonResponse(200, {
        results: [
          entry({ id: 'h1', result: 'failure', code: 'email_deleted' }),
          entry({ id: 'h2', result: 'failure', code: 'already_released' }),
          entry({ id: 'h3', action: 'download', result: 'failure', code: 'raw_purged' }),
          entry({ id: 'h4', action: 'delete', result: 'failure', code: 'email_not_found' }),
          entry({ id: 'h5', result: 'failure', code: 'something_new' }),
          entry({ id: 'h6' }),
        ],
        next_cursor: null,
      }),
    );
    renderExposed('history', <ExposedHistory />);
    await waitFor(() => expect(rows()).toHaveLength(6));
    const reasons = rows().map((r) => within(r).queryByTestId('history-reason')?.textContent ?? null);
    expect(reasons).toEqual([
      'Cet e-mail a été supprimé.',
      'Cet e-mail a déjà été libéré.',
      'Le message d’origine a été supprimé à l’expiration de la durée de conservation.',
      'E-mail introuvable',
      'Erreur inconnue. Réessayez\u202f; si le problème persiste, contactez votre administrateur.',
      null,
    ]);
    for (const r of rows()) {
      expect(within(r).getByTestId('history-result')).not.toHaveAttribute('title');
    }
    expect(within(rows()[0]!).getByTestId('history-result')).toHaveTextContent(/^Échec$/);
  }, 60_000);

  it('fits the page: fixed layout, long e-mails and ids cut with an ellipsis instead of widening the table', async () => {
    const long = 'a-very-long-mailbox-name-that-goes-on-and-on@a-long-subdomain.example.com';
    mockApi(() =>
      jsonResponse(200, {
        results: [entry({ user: { id: 'u1', email: long, role: 'user' }, ip_address: '2001:db8:85a3::8a2e:370:7334' })],
        next_cursor: null,
      }),
    );
    renderExposed('history', <ExposedHistory />);
    await waitFor(() => expect(rows()).toHaveLength(1));
    const table = screen.getByTestId('history-table').querySelector('table')!;
    expect(table.style.tableLayout).toBe('fixed');
    expect(table.style.width).not.toBe('max-content');
    const cells = rows()[0]!.querySelectorAll('td');
    // user, e-mail and IP cut their text; the fixed columns have widths that leave them room.
    for (const i of [1, 3, 4]) expect(cells[i]).toHaveClass('ant-table-cell-ellipsis');
    expect(within(cells[1]!).getByText(long)).toHaveAttribute('title', long);
    const widths = Array.from(table.querySelectorAll('colgroup col'), (c) => (c as HTMLElement).style.width);
    expect(widths).toEqual(['150px', '', '140px', '', '140px', '210px']);
  }, 60_000);

  it('on a phone, each entry is one stacked cell (action, result and why, the e-mail, user · date · IP)', async () => {
    const wide = onPhoneScreen();
    try {
      mockApi(() =>
        jsonResponse(200, { results: [entry({ result: 'failure', code: 'email_not_found' })], next_cursor: null }),
      );
      renderExposed('history', <ExposedHistory />);
      await waitFor(() => expect(rows()).toHaveLength(1));
      const table = screen.getByTestId('history-table');
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((h) => h.textContent),
      ).toEqual(['Entrée']);
      const summary = within(rows()[0]!).getByTestId('history-summary');
      expect(summary).toHaveTextContent('Libération');
      expect(within(summary).getByTestId('history-result')).toHaveTextContent('Échec');
      expect(within(summary).getByTestId('history-reason')).not.toBeEmptyDOMElement();
      expect(within(summary).getByRole('link', { name: 'You won a prize' })).toHaveAttribute('href', '/mail/m42');
      expect(summary).toHaveTextContent('jane@example.com ·');
      expect(summary).toHaveTextContent('· 192.0.2.10');
    } finally {
      wide();
    }
  }, 20_000);

  it('pages with the keyset cursor: Next sends it, Previous goes back', async () => {
    const { calls } = mockApi((call) =>
      jsonResponse(200, {
        results: [entry({ id: call.query.get('cursor') ? 'h9' : 'h1' })],
        next_cursor: call.query.get('cursor') ? null : 'c2',
      }),
    );
    renderExposed('history', <ExposedHistory />);
    await waitFor(() => expect(screen.getByTestId('history-next')).toBeEnabled());
    expect(screen.getByTestId('history-prev')).toBeDisabled();
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('history-next'));
    await waitFor(() => expect(lastQuery(calls).cursor).toBe('c2'));
    expect(currentLocation()).toBe('/history?cursor=c2');
    await waitFor(() => expect(screen.getByTestId('history-page-number')).toHaveTextContent('Page 2'));
    await user.click(screen.getByTestId('history-prev'));
    await waitFor(() => expect(currentLocation()).toBe('/history'));
  }, 60_000);

  it('shows the empty and the error states', async () => {
    mockApi(() => jsonResponse(200, { results: [], next_cursor: null }));
    const view = renderExposed('history', <ExposedHistory />);
    expect(await screen.findByText('Aucune entrée de l’historique ne correspond à ces filtres.')).toBeInTheDocument();
    expect(screen.queryByTestId('history-page-number')).toBeNull(); // nothing to page through
    view.unmount();
    jest.restoreAllMocks();
    mockApi(() => jsonResponse(500, { error: { code: 'internal', message: 'boom' } }));
    renderExposed('history', <ExposedHistory />);
    expect(await screen.findByText('Erreur lors du chargement de l’historique')).toBeInTheDocument();
  }, 60_000);

  it('a reload that fails keeps the entries shown, with the error and a Retry above them', async () => {
    let n = 0;
    mockApi(() =>
      ++n === 2
        ? jsonResponse(503, { detail: 'down', code: 'database_unavailable' })
        : jsonResponse(200, { results: [entry()], next_cursor: null }),
    );
    renderExposed('history', <ExposedHistory />);
    await waitFor(() => expect(rows()).toHaveLength(1));
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('history-reload'));
    const alert = await screen.findByTestId('history-refetch-error');
    expect(alert).toHaveTextContent('Erreur lors du chargement de l’historique');
    expect(rows()).toHaveLength(1);
    await user.click(within(alert).getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(screen.queryByTestId('history-refetch-error')).toBeNull());
    expect(rows()).toHaveLength(1);
  }, 60_000);
  it('a category filter, in the URL and the query: the action filter then offers that category’s actions only', async () => {
    const { calls } = mockApi(() => jsonResponse(200, { results: [entry()], next_cursor: null }));
    renderExposed('history', <ExposedHistory />, '/history?category=administration');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(lastQuery(calls)).toEqual({ category: 'administration', page_size: '50' });
    expect(screen.getByTestId('history-filter-category')).toHaveTextContent('Administration');

    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByLabelText('Action'));
    expect(shownOptions()).toEqual([
      'Création d’utilisateur',
      'Modification d’utilisateur',
      'Suppression d’utilisateur',
      'Réinitialisation de la 2FA',
      'Création de domaine',
      'Modification de domaine',
      'Suppression de domaine',
      'Création de filtre',
      'Modification de filtre',
      'Suppression de filtre',
    ]);
    await user.click(within(openDropdown()).getByTitle('Création de domaine'));
    await waitFor(() => expect(lastQuery(calls).action).toBe('domain_create'));
    expect(lastQuery(calls)).toEqual({ category: 'administration', action: 'domain_create', page_size: '50' });
    expect(currentLocation()).toBe('/history?category=administration&action=domain_create');

    // Another category: an action that is not one of its own is dropped.
    await pickOption(user, 'Catégorie', 'Sécurité');
    await waitFor(() => expect(currentLocation()).toBe('/history?category=security'));
    expect(lastQuery(calls)).toEqual({ category: 'security', page_size: '50' });
    await pickOption(user, 'Action', 'Échec de connexion');
    await waitFor(() => expect(currentLocation()).toBe('/history?category=security&action=login_failed'));

    // Every category again: the action chosen stays, and the list offers every action under its category.
    const clear = screen.getByTestId('history-filter-category').querySelector('.ant-select-clear')!;
    await user.click(clear);
    await waitFor(() => expect(currentLocation()).toBe('/history?action=login_failed'));
    expect(lastQuery(calls)).toEqual({ action: 'login_failed', page_size: '50' });
    await user.click(screen.getByLabelText('Action'));
    const dropdown = openDropdown();
    expect(Array.from(dropdown.querySelectorAll('.ant-select-item-group'), (g) => g.textContent)).toEqual([
      'E-mails',
      'Administration',
      'Listes',
      'Sécurité',
    ]);
    expect(shownOptions()).toHaveLength(25);
    await user.click(screen.getByTestId('history-filters-reset'));
    await waitFor(() => expect(currentLocation()).toBe('/history'));
  }, 60_000);

  it('a copy released to another address (issue 23): the mail stays linked, with where its copy went', async () => {
    mockApi(() =>
      jsonResponse(200, {
        results: [
          entry({
            user: { id: 'a1', email: 'root@example.com', role: 'admin' },
            target: { kind: 'release_to', id: null, label: 'ann@a.example → helpdesk@a.example' },
          }),
        ],
        next_cursor: null,
      }),
    );
    useSession.setState({ user: { ...SESSION_USER, role: 'admin' } });
    renderExposed('history', <ExposedHistory />, '/history');
    await waitFor(() => expect(rows()).toHaveLength(1));
    const row = rows()[0]!;
    expect(within(row).getByTestId('history-email-link')).toHaveAttribute('href', '/mail/m42');
    expect(within(row).getByTestId('history-target')).toHaveTextContent(
      'Copie envoyée : ann@a.example → helpdesk@a.example',
    );
  });

  it('rows about Rspamd rules (issue 17): named by kind, linked for an admin (not a standard filter: its family is not recorded), fields in words', async () => {
    const { calls } = mockApi(() =>
      jsonResponse(200, {
        results: [
          auditEntry({
            id: 'r1',
            action: 'filter_create',
            target: { kind: 'filter', id: 'f1', label: 'spam.example' },
            changes: null,
          }),
          auditEntry({
            id: 'r2',
            action: 'filter_update',
            target: { kind: 'apanel_filter', id: 'p1', label: '*@bulk.example → *' },
            changes: ['owner_id', 'enabled'],
          }),
          auditEntry({
            id: 'r3',
            action: 'filter_update',
            target: { kind: 'system_rule', id: 's1', label: 'Invoices' },
            changes: ['name', 'subject'],
          }),
          auditEntry({
            id: 'r4',
            action: 'filter_delete',
            target: { kind: 'system_rule', id: null, label: 'Old rule' },
            changes: null,
          }),
        ],
        next_cursor: null,
      }),
    );
    useSession.setState({ user: { ...SESSION_USER, role: 'admin' } });
    renderExposed('history', <ExposedHistory />, '/history?category=administration&action=filter_update');
    await waitFor(() => expect(rows()).toHaveLength(4));
    expect(lastQuery(calls)).toEqual({ category: 'administration', action: 'filter_update', page_size: '50' });
    expect(screen.getByTestId('history-filter-action')).toHaveTextContent('Modification de filtre');
    const [created, apanel, system, deleted] = rows() as [HTMLElement, HTMLElement, HTMLElement, HTMLElement];
    expect(created).toHaveTextContent('Création de filtre');
    expect(within(created).getByTestId('history-target')).toHaveTextContent('Filtre : spam.example');
    expect(within(created).queryByRole('link')).toBeNull();
    expect(within(apanel).getByTestId('history-target')).toHaveTextContent(
      'Filtre du panneau de contrôle : *@bulk.example → *',
    );
    expect(within(apanel).getByRole('link', { name: '*@bulk.example → *' })).toHaveAttribute(
      'href',
      '/rspamd/apanel-filters/edit/p1',
    );
    expect(within(apanel).getByTestId('history-changes')).toHaveTextContent('Champs modifiés : Propriétaire, Actif');
    expect(within(system).getByRole('link', { name: 'Invoices' })).toHaveAttribute(
      'href',
      '/rspamd/system-rules/edit/s1',
    );
    // A rule's `name` is its name, not a domain's.
    expect(within(system).getByTestId('history-changes')).toHaveTextContent('Champs modifiés : Nom de la règle, Objet');
    expect(deleted).toHaveTextContent('Suppression de filtre');
    expect(within(deleted).getByTestId('history-target')).toHaveTextContent('Règle système : Old rule');
    expect(within(deleted).queryByRole('link')).toBeNull();
    const { i18next } = await import('@qc/i18n');
    await act(() => i18next.changeLanguage('en'));
    try {
      await waitFor(() => expect(rows()[1]).toHaveTextContent('Filter changed'));
      expect(within(rows()[1]!).getByTestId('history-target')).toHaveTextContent(
        'Control-panel filter: *@bulk.example → *',
      );
      expect(within(rows()[2]!).getByTestId('history-changes')).toHaveTextContent('Changed: Rule name, Subject');
    } finally {
      await act(() => i18next.changeLanguage('fr'));
    }
  });

  it('a row about a user or a domain names it, links to its page for whoever may open it, and lists the fields changed', async () => {
    mockApi(() =>
      jsonResponse(200, {
        results: [
          auditEntry(),
          auditEntry({
            id: 'h2',
            action: 'user_update',
            target: { kind: 'user', id: 'u9', label: 'bob@example.com' },
            changes: ['role', 'is_active', 'shoe_size'],
          }),
          auditEntry({
            id: 'h3',
            action: 'domain_delete',
            target: { kind: 'domain', id: null, label: 'gone.example' },
            changes: null,
          }),
          auditEntry({
            id: 'h4',
            action: 'login_failed',
            user: { id: 'u9', email: 'bob@example.com', role: 'user' },
            target: { kind: 'user', id: 'u9', label: 'bob@example.com' },
            changes: null,
            result: 'failure',
            code: 'invalid_credentials',
          }),
          entry({ id: 'h5' }),
        ],
        next_cursor: null,
      }),
    );
    const as = (role: CurrentUser['role']) => useSession.setState({ user: { ...SESSION_USER, role } });
    const targetLinks = () =>
      rows().map((r) => within(r).queryByTestId('history-target-link')?.getAttribute('href') ?? null);
    try {
      as('admin');
      const first = renderExposed('history', <ExposedHistory />);
      await waitFor(() => expect(rows()).toHaveLength(5));
      const [domain, changedUser, deleted, security, mail] = rows() as [
        HTMLElement,
        HTMLElement,
        HTMLElement,
        HTMLElement,
        HTMLElement,
      ];
      expect(screen.getByRole('columnheader', { name: 'Objet' })).toBeInTheDocument();
      expect(domain).toHaveTextContent('Modification de domaine');
      expect(within(domain).getByTestId('history-target')).toHaveTextContent('Domaine : xn--bcher-kva.example');
      expect(within(domain).getByRole('link', { name: 'xn--bcher-kva.example' })).toHaveAttribute(
        'href',
        '/domains/d1',
      );
      expect(within(domain).getByTestId('history-changes')).toHaveTextContent(
        'Champs modifiés : Nom de domaine, Description',
      );
      // A field without a name of its own is shown as the api names it.
      expect(within(changedUser).getByTestId('history-changes')).toHaveTextContent(
        'Champs modifiés : Rôle, Compte actif, shoe_size',
      );
      expect(within(changedUser).getByTestId('history-target')).toHaveTextContent('Utilisateur : bob@example.com');
      // Deleted: its name as it was, no link to a page that is gone.
      expect(deleted).toHaveTextContent('Suppression de domaine');
      expect(within(deleted).getByTestId('history-target')).toHaveTextContent('Domaine : gone.example');
      expect(within(deleted).queryByRole('link')).toBeNull();
      expect(within(deleted).queryByTestId('history-changes')).toBeNull();
      // A security event is a failure by nature: its name says it, no mail-action reason under it.
      expect(security).toHaveTextContent('Échec de connexion');
      expect(within(security).getByTestId('history-result')).toHaveTextContent('Échec');
      expect(within(security).queryByTestId('history-reason')).toBeNull();
      // Mail rows are as they were.
      expect(within(mail).getByRole('link', { name: 'You won a prize' })).toHaveAttribute('href', '/mail/m42');
      expect(within(mail).queryByTestId('history-target')).toBeNull();
      expect(targetLinks()).toEqual(['/domains/d1', '/users/u9', null, '/users/u9', null]);
      first.unmount();

      // A domain_admin opens users (their domain's), not domains; a user neither.
      as('domain_admin');
      const second = renderExposed('history', <ExposedHistory />);
      await waitFor(() => expect(rows()).toHaveLength(5));
      expect(targetLinks()).toEqual([null, '/users/u9', null, '/users/u9', null]);
      expect(within(rows()[0]!).getByTestId('history-target')).toHaveTextContent('xn--bcher-kva.example');
      second.unmount();
      as('user');
      renderExposed('history', <ExposedHistory />);
      await waitFor(() => expect(rows()).toHaveLength(5));
      expect(targetLinks()).toEqual([null, null, null, null, null]);

      const { i18next } = await import('@qc/i18n');
      await act(() => i18next.changeLanguage('en'));
      try {
        await waitFor(() => expect(rows()[0]).toHaveTextContent('Domain changed'));
        expect(within(rows()[0]!).getByTestId('history-target')).toHaveTextContent('Domain: xn--bcher-kva.example');
        expect(within(rows()[0]!).getByTestId('history-changes')).toHaveTextContent(
          'Changed: Domain name, Description',
        );
        expect(rows()[3]).toHaveTextContent('Failed sign-in');
        expect(screen.getByRole('columnheader', { name: 'Subject' })).toBeInTheDocument();
      } finally {
        await act(() => i18next.changeLanguage('fr'));
      }
    } finally {
      act(() => useSession.setState({ user: null }));
    }
  }, 60_000);
});
