import { useSession } from '@qc/auth';
import type { Statistics, StatisticsTops } from '@qc/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ExposedStatistics from '../../exposed/Statistics';
import { jsonResponse, mockApi, pickOption, renderExposed, type ApiCall } from '../../test-utils';

const STATS: Statistics = {
  range: { from: '2026-11-15', to: '2026-11-21' },
  days: [{ date: '2026-11-21', quarantined: 6, released: 2, deleted: 0 }],
  totals: { quarantined: 6, released: 2, deleted: 0 },
  risk: { low: 1, medium: 2, high: 3, critical: 0 },
};

const TOPS: StatisticsTops = {
  range: STATS.range,
  senders: [
    { key: 'king@spam.example', count: 1234 },
    { key: '', count: 2 },
  ],
  recipients: [{ key: 'ann@a.example', count: 5 }],
  symbols: [
    { key: 'BAYES_SPAM', count: 4 },
    { key: 'URIBL_BLACK', count: 3 },
  ],
  domains: null,
};

const topsCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === '/api/statistics/tops/');
const items = (kind: string) =>
  within(screen.getByTestId(`statistics-top-${kind}`))
    .queryAllByTestId('statistics-top-item')
    .map((li) => li.textContent);

function serve(tops: StatisticsTops | null) {
  return mockApi((call) =>
    call.path === '/api/statistics/tops/'
      ? tops
        ? jsonResponse(200, tops)
        : jsonResponse(500, { code: 'internal_error', detail: 'boom' })
      : jsonResponse(200, STATS),
  );
}

beforeEach(() => jest.restoreAllMocks());
afterEach(() => act(() => useSession.setState({ user: null })));

describe('statistics tops', () => {
  it('lists the top senders, recipients and symbols of the period, and follows its changes', async () => {
    const { calls } = serve(TOPS);
    renderExposed('statistics', <ExposedStatistics />, '/statistics');
    await screen.findByTestId('statistics-tops');
    const french = new Intl.NumberFormat('fr').format(1234);
    expect(items('senders')).toEqual([`king@spam.example${french}`, 'Expéditeur vide (<>)2']);
    expect(items('recipients')).toEqual(['ann@a.example5']);
    expect(items('symbols')).toEqual(['BAYES_SPAM4', 'URIBL_BLACK3']);
    expect(screen.getByRole('list', { name: 'Principaux symboles Rspamd' })).toBeInTheDocument();
    expect(screen.queryByTestId('statistics-domains')).toBeNull();
    expect(Object.fromEntries(topsCalls(calls).at(-1)!.query)).toEqual({ days: '7' });

    await pickOption(userEvent.setup({ delay: null }), 'Période', 'Les 30 derniers jours');
    await waitFor(() => expect(Object.fromEntries(topsCalls(calls).at(-1)!.query)).toEqual({ days: '30' }));
  });

  it('an admin also gets the per-domain table; an empty list says so', async () => {
    serve({
      ...TOPS,
      symbols: [],
      domains: [
        { domain: 'a.example', quarantined: 5, released: 1, deleted: 0 },
        { domain: 'b.example', quarantined: 2, released: 0, deleted: 2 },
      ],
    });
    renderExposed('statistics', <ExposedStatistics />, '/statistics');
    const table = await screen.findByTestId('statistics-domains');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => Array.from(r.querySelectorAll('td'), (td) => td.textContent))).toEqual([
      ['a.example', '5', '1', '0'],
      ['b.example', '2', '0', '2'],
    ]);
    expect(
      within(screen.getByTestId('statistics-top-symbols')).getByText('Rien sur cette période.'),
    ).toBeInTheDocument();
  });

  it('a failure of the tops leaves the rest of the page', async () => {
    serve(null);
    renderExposed('statistics', <ExposedStatistics />, '/statistics');
    expect(await screen.findByTestId('statistics-tops-error')).toHaveTextContent(
      'Les classements n’ont pas pu être chargés.',
    );
    expect(screen.getByTestId('statistics-total-quarantined')).toHaveTextContent('6');
  });
});
