import { DEFAULT_PREFERENCES, usePreferences } from '@qc/ui-state';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  currentLocation,
  DAY_AFTER_DST,
  freezeDate,
  jsonResponse,
  listItem,
  mockApi,
  onPhoneScreen,
  pickOption,
  renderQuarantine,
  type ApiCall,
} from '../../test-utils';

const listCalls = (calls: ApiCall[]) => calls.filter((c) => c.method === 'GET' && c.path === '/api/quarantine/');
const lastQuery = (calls: ApiCall[]) => Object.fromEntries(listCalls(calls).at(-1)!.query);
const rows = () => screen.queryAllByTestId('quarantine-row');

beforeEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
  usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES } });
});
afterEach(() => jest.useRealTimers());

describe('quarantine list (mail)', () => {
  it('renders one row per e-mail with readable columns, for the pending status and the preferred page size', async () => {
    const { calls } = mockApi(() =>
      jsonResponse(200, {
        results: [
          listItem(),
          listItem({
            id: 'm2',
            subject: null,
            recipients: ['a@example.com', 'b@example.com', 'c@example.com'],
            score: 3.2,
            action: 'greylist',
            status: 'release_failed',
            size: 3 * 1024 * 1024,
          }),
        ],
        next_cursor: null,
      }),
    );
    renderQuarantine();
    expect(screen.getByRole('heading', { level: 1, name: 'Quarantaine' })).toBeInTheDocument();
    await waitFor(() => expect(rows()).toHaveLength(2));
    const [first, second] = rows() as [HTMLElement, HTMLElement];
    expect(first).toHaveTextContent('promo@spam.example');
    expect(first).toHaveTextContent('jane@example.com');
    expect(first).toHaveTextContent('You won a prize');
    expect(within(first).getByLabelText('Score 12,5 (risque élevé)')).toHaveAttribute('data-band', 'high');
    expect(first).toHaveTextContent('Rejet');
    expect(first).toHaveTextContent('En attente');
    expect(first).toHaveTextContent('12,5 ko');
    expect(second).toHaveTextContent('(sans objet)');
    expect(second).toHaveTextContent('+2');
    expect(within(second).getByLabelText('Score 3,2 (risque faible)')).toHaveAttribute('data-band', 'low');
    expect(second).toHaveTextContent('Liste grise');
    expect(second).toHaveTextContent('Échec de la libération');
    expect(second).toHaveTextContent('3 Mo');
    expect(lastQuery(calls)).toEqual({ status: 'pending', page_size: '50' });
    expect(listCalls(calls)[0]!.authorization).toBeNull(); // no session in this test: the header follows the token
  }, 20_000);

  it('a still-held e-mail whose original retention deleted is marked expired (a released one is not)', async () => {
    mockApi(() =>
      jsonResponse(200, {
        results: [
          listItem({ id: 'm1', raw_available: false }),
          listItem({ id: 'm2', raw_available: false, status: 'released' }),
          listItem({ id: 'm3' }),
        ],
        next_cursor: null,
      }),
    );
    renderQuarantine('/mail?status=all');
    await waitFor(() => expect(rows()).toHaveLength(3));
    const marks = rows().map((r) => within(r).queryByTestId('quarantine-purged'));
    expect(marks[0]).toHaveTextContent('Expiré');
    expect(marks[0]).toHaveAttribute('title', expect.stringContaining('ne peut plus être libéré'));
    expect(marks.slice(1)).toEqual([null, null]);
  }, 20_000);

  it('an e-mail whose recipients differ in status says how many are in each, under its tag', async () => {
    mockApi(() =>
      jsonResponse(200, {
        results: [listItem({ id: 'm1', status: 'pending', status_counts: { pending: 1, released: 2 } }), listItem()],
        next_cursor: null,
      }),
    );
    renderQuarantine('/mail?status=released');
    await waitFor(() => expect(rows()).toHaveLength(2));
    const counts = rows().map((r) => within(r).queryByTestId('quarantine-status-counts'));
    expect(counts[0]).toHaveTextContent('En attente : 1 · Libéré : 2');
    expect(counts[1]).toBeNull();
  }, 20_000);

  it('on a phone, each e-mail is one stacked cell (subject, sender → recipient, date, score, status), most filters folded', async () => {
    const wide = onPhoneScreen();
    try {
      mockApi(() => jsonResponse(200, { results: [listItem()], next_cursor: null }));
      renderQuarantine('/mail?sender=promo');
      await waitFor(() => expect(rows()).toHaveLength(1));
      // Status and search in view; the other filters behind a button that counts those set.
      expect(screen.getByTestId('quarantine-filter-q')).toBeInTheDocument();
      expect(screen.queryByTestId('quarantine-filter-sender')).not.toBeInTheDocument();
      const more = screen.getByRole('button', { name: 'Plus de filtres (1 actif)' });
      expect(more).toHaveAttribute('aria-expanded', 'false');
      await userEvent.setup({ delay: null }).click(more);
      expect(screen.getByTestId('quarantine-filter-sender')).toHaveValue('promo');
      expect(screen.getByRole('button', { name: 'Moins de filtres' })).toHaveAttribute('aria-expanded', 'true');
      const table = screen.getByTestId('quarantine-table');
      expect(
        within(table)
          .getAllByRole('columnheader')
          .map((h) => h.textContent),
      ).toEqual(['', 'Message']);
      const summary = within(rows()[0]!).getByTestId('quarantine-summary');
      expect(within(summary).getByRole('link', { name: 'You won a prize' })).toBeInTheDocument();
      expect(summary).toHaveTextContent('promo@spam.example → jane@example.com');
      expect(within(summary).getByLabelText('Score 12,5 (risque élevé)')).toBeInTheDocument();
      expect(summary).toHaveTextContent('En attente');
    } finally {
      wide();
    }
  }, 20_000);

  it('the hidden copy of the header antd measures widths with holds no Tab stop (inert)', async () => {
    mockApi(() => jsonResponse(200, { results: [listItem()], next_cursor: null }));
    renderQuarantine();
    await waitFor(() => expect(rows()).toHaveLength(1));
    const measure = document.querySelectorAll('.ant-table-measure-row');
    expect(measure.length).toBeGreaterThan(0);
    await waitFor(() => measure.forEach((row) => expect(row).toHaveAttribute('inert')));
  });

  it('asks for the page size of the user preference, and the size changer puts another in the URL', async () => {
    usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES, defaultPageSize: 20 } });
    const { calls } = mockApi(() => jsonResponse(200, { results: [listItem()], next_cursor: null }));
    renderQuarantine();
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(lastQuery(calls).page_size).toBe('20');
    const user = userEvent.setup({ delay: null });
    await pickOption(user, 'E-mails par page', '100');
    await waitFor(() => expect(lastQuery(calls).page_size).toBe('100'));
    expect(currentLocation()).toBe('/mail?page_size=100');
  }, 20_000);

  it('every filter goes to the API query and into the URL; the free text is debounced', async () => {
    freezeDate(DAY_AFTER_DST);
    const { calls } = mockApi(() => jsonResponse(200, { results: [listItem()], next_cursor: null }));
    renderQuarantine();
    await waitFor(() => expect(rows()).toHaveLength(1));
    const user = userEvent.setup({ delay: null });

    await pickOption(user, 'Statut', 'Libérés');
    await waitFor(() => expect(lastQuery(calls).status).toBe('released'));
    expect(currentLocation()).toBe('/mail?status=released');

    const before = listCalls(calls).length;
    await user.type(screen.getByLabelText('Recherche'), 'invoice');
    // One query for the whole word, after the pause: not one per key stroke.
    await waitFor(() => expect(lastQuery(calls).q).toBe('invoice'));
    expect(listCalls(calls).length).toBe(before + 1);

    await user.type(screen.getByLabelText('Expéditeur'), 'spam.example{Enter}');
    await waitFor(() => expect(lastQuery(calls).sender).toBe('spam.example'));
    await user.type(screen.getByLabelText('Destinataire'), 'jane@example.com');
    await waitFor(() => expect(lastQuery(calls).recipient).toBe('jane@example.com'));
    await pickOption(user, 'Action', 'Rejet temporaire');
    await waitFor(() => expect(lastQuery(calls).action).toBe('soft_reject'));
    await user.type(screen.getByLabelText('Score min.'), '5');
    await waitFor(() => expect(lastQuery(calls).score_min).toBe('5'));
    // Typed as the list shows scores in French ("15,5"): it was read as 155 (antd drops the comma).
    await user.type(screen.getByLabelText('Score max.'), '15,5');
    await waitFor(() => expect(lastQuery(calls).score_max).toBe('15.5'));

    await pickOption(user, 'Période', 'Les 7 derniers jours');
    // 24 March (winter time) to 30 March (summer time), Paris.
    await waitFor(() => expect(lastQuery(calls).date_from).toBe('2026-03-24T00:00:00.000+01:00'));
    expect(lastQuery(calls)).toEqual({
      status: 'released',
      q: 'invoice',
      sender: 'spam.example',
      recipient: 'jane@example.com',
      action: 'soft_reject',
      score_min: '5',
      score_max: '15.5',
      date_from: '2026-03-24T00:00:00.000+01:00',
      date_to: '2026-03-30T23:59:59.999+02:00',
      page_size: '50',
    });
    const url = new URLSearchParams(currentLocation().split('?')[1]);
    expect(Object.fromEntries(url)).toEqual({
      status: 'released',
      q: 'invoice',
      sender: 'spam.example',
      recipient: 'jane@example.com',
      action: 'soft_reject',
      score_min: '5',
      score_max: '15.5',
      period: 'last_7_days',
    });

    await user.click(screen.getByTestId('quarantine-filters-reset'));
    await waitFor(() => expect(lastQuery(calls)).toEqual({ status: 'pending', page_size: '50' }));
    expect(currentLocation()).toBe('/mail');
    expect(screen.getByLabelText('Recherche')).toHaveValue('');
  }, 30_000);

  it('a shared link restores its filters; Back undoes a filter change', async () => {
    freezeDate(DAY_AFTER_DST);
    const { calls } = mockApi(() => jsonResponse(200, { results: [listItem()], next_cursor: null }));
    const { router } = renderQuarantine('/mail?status=deleted&q=prize&period=yesterday&page_size=10&status_x=1');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(lastQuery(calls)).toEqual({
      status: 'deleted',
      q: 'prize',
      // Yesterday was the 23-hour day of the change to summer time.
      date_from: '2026-03-29T00:00:00.000+01:00',
      date_to: '2026-03-29T23:59:59.999+02:00',
      page_size: '10',
    });
    expect(screen.getByLabelText('Recherche')).toHaveValue('prize');
    expect(screen.getByTestId('quarantine-filter-status')).toHaveTextContent('Supprimés');
    expect(screen.getByTestId('quarantine-filter-period')).toHaveTextContent('Hier');

    const user = userEvent.setup({ delay: null });
    await pickOption(user, 'Statut', 'En attente');
    await waitFor(() => expect(lastQuery(calls).status).toBe('pending'));
    await act(() => router.navigate(-1));
    await waitFor(() => expect(lastQuery(calls).status).toBe('deleted'));
    expect(screen.getByTestId('quarantine-filter-status')).toHaveTextContent('Supprimés');
  }, 20_000);

  it('a custom period: its two local days go to the API; choosing "Custom" starts with today', async () => {
    freezeDate(DAY_AFTER_DST);
    const { calls } = mockApi(() => jsonResponse(200, { results: [listItem()], next_cursor: null }));
    renderQuarantine('/mail?period=custom&from=2026-11-01&to=2026-11-20');
    await waitFor(() => expect(rows()).toHaveLength(1));
    expect(lastQuery(calls)).toMatchObject({
      date_from: '2026-11-01T00:00:00.000+01:00',
      date_to: '2026-11-20T23:59:59.999+01:00',
    });
    expect(await screen.findByDisplayValue('01/11/2026')).toBeInTheDocument();
    expect(screen.getByDisplayValue('20/11/2026')).toBeInTheDocument();

    const user = userEvent.setup({ delay: null });
    await pickOption(user, 'Période', 'Hier');
    await waitFor(() => expect(screen.queryByDisplayValue('01/11/2026')).toBeNull());
    await pickOption(user, 'Période', 'Personnalisée…');
    expect(screen.getByLabelText('Période').closest('.ant-select')).toHaveTextContent(/^Personnalisée$/);
    await waitFor(() => expect(lastQuery(calls).date_from).toBe('2026-03-30T00:00:00.000+02:00'));
    expect(lastQuery(calls).date_to).toBe('2026-03-30T23:59:59.999+02:00');
  }, 20_000);

  it('keyset paging: Next sends the cursor, Previous and Back come back, page numbers follow', async () => {
    const pages: Record<string, { results: ReturnType<typeof listItem>[]; next_cursor: string | null }> = {
      '': { results: [listItem({ id: 'a1', subject: 'Page one' })], next_cursor: 'c2' },
      c2: { results: [listItem({ id: 'b1', subject: 'Page two' })], next_cursor: 'c3' },
      c3: { results: [listItem({ id: 'c1', subject: 'Page three' })], next_cursor: null },
    };
    const { calls } = mockApi((call) => jsonResponse(200, pages[call.query.get('cursor') ?? '']));
    const { router } = renderQuarantine('/mail?status=pending&q=x');
    expect(await screen.findByText('Page one')).toBeInTheDocument();
    expect(screen.getByTestId('quarantine-prev')).toBeDisabled();
    expect(screen.getByTestId('quarantine-page-number')).toHaveTextContent('Page 1');
    const user = userEvent.setup({ delay: null });

    await user.click(screen.getByTestId('quarantine-next'));
    expect(await screen.findByText('Page two')).toBeInTheDocument();
    expect(lastQuery(calls)).toMatchObject({ cursor: 'c2', q: 'x' });
    expect(currentLocation()).toBe('/mail?q=x&cursor=c2');
    expect(screen.getByTestId('quarantine-page-number')).toHaveTextContent('Page 2');

    await user.click(screen.getByTestId('quarantine-next'));
    expect(await screen.findByText('Page three')).toBeInTheDocument();
    expect(screen.getByTestId('quarantine-next')).toBeDisabled();
    expect(screen.getByTestId('quarantine-page-number')).toHaveTextContent('Page 3');

    await user.click(screen.getByTestId('quarantine-prev'));
    expect(await screen.findByText('Page two')).toBeInTheDocument();
    expect(currentLocation()).toBe('/mail?q=x&cursor=c2');
    expect(screen.getByTestId('quarantine-page-number')).toHaveTextContent('Page 2');

    await user.click(screen.getByTestId('quarantine-prev'));
    expect(await screen.findByText('Page one')).toBeInTheDocument();
    expect(currentLocation()).toBe('/mail?q=x');

    // The browser's Back goes through the same pages.
    await act(() => router.navigate(-1));
    expect(await screen.findByText('Page two')).toBeInTheDocument();
    // A new filter starts again from the first page.
    await pickOption(user, 'Statut', 'Libérés');
    await waitFor(() => expect(lastQuery(calls)).toEqual({ status: 'released', q: 'x', page_size: '50' }));
  }, 20_000);

  it('shows the empty state', async () => {
    mockApi(() => jsonResponse(200, { results: [], next_cursor: null }));
    renderQuarantine();
    expect(await screen.findByText('Aucun e-mail ne correspond à ces filtres.')).toBeInTheDocument();
    expect(rows()).toHaveLength(0);
    expect(screen.getByTestId('quarantine-next')).toBeDisabled();
  });

  it('shows "Error loading quarantine" with a Retry that loads the list', async () => {
    let n = 0;
    mockApi(() =>
      ++n === 1
        ? jsonResponse(500, { detail: 'boom', code: 'internal_error' })
        : jsonResponse(200, { results: [listItem()], next_cursor: null }),
    );
    renderQuarantine();
    expect(await screen.findByText('Erreur lors du chargement de la quarantaine')).toBeInTheDocument();
    expect(screen.getByText('Erreur du serveur. Réessayez plus tard.')).toBeInTheDocument();
    await userEvent.setup({ delay: null }).click(screen.getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(rows()).toHaveLength(1));
  }, 20_000);

  it('a reload keeps the rows uncovered while it runs, and one that fails keeps them, with the error and a Retry above', async () => {
    let answer: (res: Response) => void = () => {};
    let n = 0;
    mockApi(() =>
      ++n === 2
        ? new Promise<Response>((resolve) => (answer = resolve))
        : jsonResponse(200, { results: [listItem()], next_cursor: null }),
    );
    renderQuarantine();
    await waitFor(() => expect(rows()).toHaveLength(1));
    const user = userEvent.setup({ delay: null });
    await user.click(screen.getByTestId('quarantine-reload'));
    await waitFor(() => expect(n).toBe(2));
    // Same page, same rows likely: no overlay over them (the button spins instead).
    expect(screen.getByTestId('quarantine-table').querySelector('.ant-spin-spinning')).toBeNull();
    act(() => answer(jsonResponse(503, { detail: 'down', code: 'database_unavailable' })));
    const alert = await screen.findByTestId('quarantine-refetch-error');
    expect(alert).toHaveTextContent('Erreur lors du chargement de la quarantaine');
    expect(rows()).toHaveLength(1);
    expect(screen.queryByTestId('page-error')).toBeNull();
    await user.click(within(alert).getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(screen.queryByTestId('quarantine-refetch-error')).toBeNull());
    expect(rows()).toHaveLength(1);
  }, 20_000);

  it('is in English when the language is English', async () => {
    mockApi(() => jsonResponse(500, { detail: 'boom', code: 'internal_error' }));
    const { i18next } = await import('@qc/i18n');
    renderQuarantine();
    await act(() => i18next.changeLanguage('en'));
    try {
      expect(await screen.findByText('Error loading quarantine')).toBeInTheDocument();
      expect(screen.getByLabelText('Search')).toBeInTheDocument();
    } finally {
      await act(() => i18next.changeLanguage('fr'));
    }
  });

  it('a click on a row, or Enter on a focused row, opens mail/{id}', async () => {
    const { calls } = mockApi((call) =>
      call.path === '/api/quarantine/'
        ? jsonResponse(200, { results: [listItem({ id: 'id/1' }), listItem({ id: 'm2' })], next_cursor: null })
        : jsonResponse(404, { detail: 'Not found', code: 'email_not_found' }),
    );
    const { router } = renderQuarantine('/mail?status=released');
    await waitFor(() => expect(rows()).toHaveLength(2));
    const user = userEvent.setup({ delay: null });

    await user.click(within(rows()[0]!).getByText('promo@spam.example'));
    await waitFor(() => expect(currentLocation()).toBe('/mail/id%2F1'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/quarantine/id%2F1/')).toBe(true));

    await act(() => router.navigate(-1));
    await waitFor(() => expect(rows()).toHaveLength(2));
    rows()[1]!.focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(currentLocation()).toBe('/mail/m2'));
  }, 20_000);
});
