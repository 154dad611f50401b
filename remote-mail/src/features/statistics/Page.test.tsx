import type { Statistics } from '@qc/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ExposedStatistics from '../../exposed/Statistics';
import { currentLocation, jsonResponse, mockApi, pickOption, renderExposed, type ApiCall } from '../../test-utils';

const statsCalls = (calls: ApiCall[]) => calls.filter((c) => c.path === '/api/statistics/');
const lastQuery = (calls: ApiCall[]) => Object.fromEntries(statsCalls(calls).at(-1)!.query);

const STATS: Statistics = {
  range: { from: '2026-11-15', to: '2026-11-21' },
  days: [
    { date: '2026-11-20', quarantined: 4, released: 1, deleted: 2 },
    { date: '2026-11-21', quarantined: 6, released: 2, deleted: 0 },
  ],
  totals: { quarantined: 10, released: 3, deleted: 2 },
  risk: { low: 1, medium: 2, high: 3, critical: 4 },
};

interface StubProps {
  theme?: string;
  data: unknown[];
  innerRadius?: number;
  children: { type: string }[];
}

/** The stub chart (test/charts-stub.cjs): its kind and props. */
async function chart() {
  const el = await screen.findByTestId('chart-stub');
  return {
    kind: el.getAttribute('data-chart'),
    props: JSON.parse(el.getAttribute('data-props')!) as StubProps,
  };
}

beforeEach(() => jest.restoreAllMocks());

describe('statistics page', () => {
  it('shows the totals, the risk breakdown and a lazy area chart of the last 7 days by default', async () => {
    const { calls } = mockApi(() => jsonResponse(200, STATS));
    renderExposed('statistics', <ExposedStatistics />);
    const { kind, props } = await chart();
    expect(kind).toBe('Area');
    expect(props.theme).toBe('classic');
    expect(props.data).toContainEqual({ date: '2026-11-21', series: 'En quarantaine', value: 6 });
    expect(lastQuery(calls)).toEqual({ days: '7' });
    expect(screen.getByTestId('statistics-total-quarantined')).toHaveTextContent('10');
    expect(screen.getByTestId('statistics-total-released')).toHaveTextContent('3');
    expect(screen.getByTestId('statistics-total-deleted')).toHaveTextContent('2');
    expect(screen.getByTestId('statistics-risk-low')).toHaveTextContent('Faible1');
    expect(screen.getByTestId('statistics-risk-medium')).toHaveTextContent('Moyen2');
    expect(screen.getByTestId('statistics-risk-high')).toHaveTextContent('Élevé3');
    expect(screen.getByTestId('statistics-risk-critical')).toHaveTextContent('Critique4');
    expect(screen.getByTestId('statistics-risk-critical').querySelector('[data-color]')).toHaveAttribute(
      'data-color',
      '#a8071a',
    );
  }, 60_000);

  it('range, period and chart type selectors change the request and the chart', async () => {
    const { calls } = mockApi(() => jsonResponse(200, STATS));
    renderExposed('statistics', <ExposedStatistics />);
    await chart();
    const user = userEvent.setup({ delay: null });

    await pickOption(user, 'Période', '3 derniers mois');
    await waitFor(() => expect(lastQuery(calls)).toEqual({ days: '90' }));
    await pickOption(user, 'Période du graphique', '365 jours');
    await waitFor(() => expect(lastQuery(calls)).toEqual({ days: '365' }));
    expect(currentLocation()).toBe('/statistics?days=365');

    await pickOption(user, 'Type de graphique', 'Barres');
    await waitFor(async () => expect((await chart()).kind).toBe('Column'));
    await pickOption(user, 'Type de graphique', 'Composé');
    await waitFor(async () => expect((await chart()).kind).toBe('DualAxes'));
    expect((await chart()).props.children.map((c) => c.type)).toEqual(['interval', 'line']);

    await pickOption(user, 'Type de graphique', 'Anneau');
    await pickOption(user, 'Données du camembert', 'Niveaux de risque');
    await waitFor(async () => expect((await chart()).props.data).toHaveLength(4));
    const donut = await chart();
    expect(donut.kind).toBe('Pie');
    expect(donut.props.innerRadius).toBe(0.6);
    expect(donut.props.data).toEqual([
      { name: 'Faible', value: 1 },
      { name: 'Moyen', value: 2 },
      { name: 'Élevé', value: 3 },
      { name: 'Critique', value: 4 },
    ]);
    expect(currentLocation()).toBe('/statistics?days=365&type=donut&pie=risk');
    // No request for a chart type change.
    expect(statsCalls(calls).filter((c) => c.query.get('days') === '365')).toHaveLength(1);
  }, 60_000);

  it('a custom range asks for date_from and date_to', async () => {
    const { calls } = mockApi(() => jsonResponse(200, STATS));
    renderExposed('statistics', <ExposedStatistics />, '/statistics?from=2026-10-01&to=2026-10-31&type=line');
    expect((await chart()).kind).toBe('Line');
    expect(lastQuery(calls)).toEqual({ date_from: '2026-10-01', date_to: '2026-10-31' });
    expect(await screen.findAllByTestId('quarantine-filter-range', {}, { timeout: 10_000 })).toHaveLength(2);
  }, 60_000);

  it('shows the empty and the error states', async () => {
    const zero = {
      ...STATS,
      totals: { quarantined: 0, released: 0, deleted: 0 },
      risk: { low: 0, medium: 0, high: 0, critical: 0 },
    };
    mockApi(() => jsonResponse(200, zero));
    const view = renderExposed('statistics', <ExposedStatistics />);
    expect(await screen.findByText('Aucun e-mail sur cette période.')).toBeInTheDocument();
    expect(screen.queryByTestId('chart-stub')).toBeNull();
    view.unmount();
    jest.restoreAllMocks();
    mockApi(() => jsonResponse(500, { error: { code: 'internal', message: 'boom' } }));
    renderExposed('statistics', <ExposedStatistics />);
    expect(await screen.findByText('Erreur lors du chargement des statistiques')).toBeInTheDocument();
  }, 60_000);
});
