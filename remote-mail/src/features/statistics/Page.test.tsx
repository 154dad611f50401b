import type { Statistics } from '@qc/contracts';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ExposedStatistics from '../../exposed/Statistics';
import { readView } from './statistics.view';
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

/** The chart components as rendered, with their props as passed (functions included). */
type ChartKind = 'Area' | 'Column' | 'Line' | 'Pie' | 'DualAxes';
interface ChartProps {
  data: { date: string; series: string; value: number }[];
  height: number;
  stack?: unknown;
  group?: unknown;
  line?: unknown;
  legend?: unknown;
  label?: unknown;
  style?: { fillOpacity?: number };
  axis: {
    x: { labelAutoRotate: boolean; labelAutoHide: boolean; labelFormatter: (d: string) => string };
    y: { tickFilter: (v: number) => boolean };
  };
  tooltip: { title: (d: { date: string }) => string };
  scale: { y?: { key?: string }; color: { domain?: string[]; range: string[] } };
  children?: {
    type: string;
    data: ChartProps['data'];
    colorField: string;
    scale: { y: { independent: boolean } };
    axis?: { y?: unknown };
  }[];
}
const charts = jest.requireActual<Record<ChartKind, (p: ChartProps) => unknown>>('@ant-design/charts');
let rendered: { kind: ChartKind; props: ChartProps }[] = [];
const lastRendered = (kind: ChartKind) => rendered.filter((r) => r.kind === kind).at(-1)?.props;

beforeEach(() => {
  jest.restoreAllMocks();
  rendered = [];
  for (const kind of ['Area', 'Column', 'Line', 'Pie', 'DualAxes'] as const) {
    const stub = charts[kind];
    jest.spyOn(charts, kind).mockImplementation((props) => {
      rendered.push({ kind, props });
      return stub(props);
    });
  }
});

// The light theme's colorWarning, colorSuccess, colorError (the totals cards' colours): antd's
// orange, and the darker green and red of shared/ui-state's theme (WCAG AA on white).
const SERIES_COLORS = ['#faad14', '#237804', '#cf1322'];

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

    // The chart's numbers, for screen readers and exact counts: a table behind a disclosure, newest first.
    const data = screen.getByTestId('statistics-data');
    await userEvent
      .setup({ delay: null })
      .click(within(data).getByText('Voir les données du graphique, jour par jour'));
    const table = within(data).getByRole('table');
    const cells = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((r) =>
        within(r)
          .getAllByRole('cell')
          .map((c) => c.textContent),
      );
    expect(cells).toEqual([
      ['21 nov. 2026', '6', '2', '0'],
      ['20 nov. 2026', '4', '1', '2'],
    ]);
  }, 60_000);

  it('draws the areas overlaid, not stacked: released and deleted are not added to quarantined', async () => {
    mockApi(() => jsonResponse(200, STATS));
    renderExposed('statistics', <ExposedStatistics />);
    await chart();
    const area = lastRendered('Area')!;
    expect(area.stack).toBeUndefined();
    // See-through fills, each outlined by its line, in the totals cards' colours.
    expect(area.style?.fillOpacity).toBeLessThan(0.5);
    expect(area.line).toBeDefined();
    expect(area.scale.color).toEqual({ domain: ['En quarantaine', 'Libérés', 'Supprimés'], range: SERIES_COLORS });
    expect(screen.getByTestId('statistics-series-note')).toHaveTextContent('le jour de leur réception');
  }, 60_000);

  it('formats the days in the language: the range sentence, the axis labels (never rotated) and the tooltips', async () => {
    mockApi(() => jsonResponse(200, STATS));
    renderExposed('statistics', <ExposedStatistics />);
    await chart();
    expect(screen.getByTestId('statistics-range-shown')).toHaveTextContent(
      'Du 15 nov. 2026 au 21 nov. 2026 (jours UTC)',
    );
    const { axis, tooltip } = lastRendered('Area')!;
    expect(axis.x.labelAutoRotate).toBe(false);
    expect(axis.x.labelAutoHide).toBe(true);
    expect(axis.x.labelFormatter('2026-11-16')).toBe('16 nov.');
    expect(axis.x.labelFormatter('2026-01-01')).toBe('1 janv.'); // a UTC day, whatever the zone
    expect(tooltip.title({ date: '2026-11-21' })).toBe('21 nov. 2026');
    expect([0, 0.5, 1, 1.5, 2].filter(axis.y.tickFilter)).toEqual([0, 1, 2]);

    const { i18next } = await import('@qc/i18n');
    await act(() => i18next.changeLanguage('en'));
    try {
      await waitFor(() =>
        expect(screen.getByTestId('statistics-range-shown')).toHaveTextContent(
          'From Nov 15, 2026 to Nov 21, 2026 (UTC days)',
        ),
      );
      expect(lastRendered('Area')!.axis.x.labelFormatter('2026-11-16')).toBe('Nov 16');
    } finally {
      await act(() => i18next.changeLanguage('fr'));
    }
  }, 60_000);

  it('a range across a new year labels its days with their year', async () => {
    mockApi(() => jsonResponse(200, { ...STATS, range: { from: '2025-11-23', to: '2026-11-22' } }));
    renderExposed('statistics', <ExposedStatistics />, '/statistics?days=365');
    await chart();
    expect(lastRendered('Area')!.axis.x.labelFormatter('2025-12-30')).toBe('30 déc. 2025');
  }, 60_000);

  it('one period control holds the ranges and the chart periods; the chart type is kept in the URL', async () => {
    const { calls } = mockApi(() => jsonResponse(200, STATS));
    renderExposed('statistics', <ExposedStatistics />);
    await chart();
    const user = userEvent.setup({ delay: null });
    expect(screen.queryByLabelText('Période du graphique')).toBeNull();
    expect(within(screen.getByTestId('statistics-controls')).getAllByRole('combobox')).toHaveLength(2);

    await user.click(screen.getByLabelText('Période'));
    const listbox = document.querySelector<HTMLElement>('.ant-select-dropdown:not(.ant-select-dropdown-hidden)')!;
    expect(Array.from(listbox.querySelectorAll('.ant-select-item-option'), (o) => o.getAttribute('title'))).toEqual([
      'Les 2 derniers jours',
      'Les 7 derniers jours',
      'Les 30 derniers jours',
      'Les 3 derniers mois',
      'Les 180 derniers jours',
      'Les 365 derniers jours',
      'Personnalisée…',
    ]);
    await user.keyboard('{Escape}');

    await pickOption(user, 'Période', 'Les 3 derniers mois');
    await waitFor(() => expect(lastQuery(calls)).toEqual({ days: '90' }));
    await pickOption(user, 'Période', 'Les 2 derniers jours');
    await waitFor(() => expect(lastQuery(calls)).toEqual({ days: '2' }));
    await pickOption(user, 'Période', 'Les 365 derniers jours');
    await waitFor(() => expect(lastQuery(calls)).toEqual({ days: '365' }));
    expect(currentLocation()).toBe('/statistics?days=365');
    expect(screen.getByLabelText('Période').closest('.ant-select')).toHaveTextContent('Les 365 derniers jours');

    await pickOption(user, 'Type de graphique', 'Barres');
    await waitFor(async () => expect((await chart()).kind).toBe('Column'));
    expect(lastRendered('Column')!.group).toBe(true);
    // No request for a chart type change.
    expect(statsCalls(calls).filter((c) => c.query.get('days') === '365')).toHaveLength(1);
  }, 60_000);

  it('the composed chart: bars and lines on one shared y axis, with a legend and a colour per series', async () => {
    mockApi(() => jsonResponse(200, STATS));
    renderExposed('statistics', <ExposedStatistics />, '/statistics?type=composed');
    expect((await chart()).kind).toBe('DualAxes');
    const { children, scale, axis } = lastRendered('DualAxes')!;
    expect(children!.map((c) => c.type)).toEqual(['interval', 'line']);
    // One y scale for both (DualAxes makes them independent unless told), one y axis drawn.
    expect(scale.y?.key).toBe('count');
    expect(children!.map((c) => c.scale.y.independent)).toEqual([false, false]);
    expect(children!.map((c) => c.axis?.y)).toEqual([undefined, undefined]); // the shared scale's one axis
    // Coloured by series (hence a legend): three distinct theme colours.
    expect(children!.map((c) => c.colorField)).toEqual(['series', 'series']);
    expect(children![0]!.data.map((d) => d.series)).toEqual(['En quarantaine', 'En quarantaine']);
    expect(new Set(children![1]!.data.map((d) => d.series))).toEqual(new Set(['Libérés', 'Supprimés']));
    expect(scale.color).toEqual({ domain: ['En quarantaine', 'Libérés', 'Supprimés'], range: SERIES_COLORS });
    expect(axis.x.labelAutoRotate).toBe(false);
  }, 60_000);

  it('the pie shows a whole: the releases and deletions of the period, or the risk levels', async () => {
    mockApi(() => jsonResponse(200, STATS));
    renderExposed('statistics', <ExposedStatistics />, '/statistics?type=pie');
    const pie = await chart();
    expect(pie.kind).toBe('Pie');
    expect(pie.props.innerRadius).toBe(0);
    // Not quarantined + released + deleted (released and deleted are not parts of quarantined).
    expect(pie.props.data).toEqual([
      { name: 'Libérés', value: 3 },
      { name: 'Supprimés', value: 2 },
    ]);
    expect(screen.getByTestId('statistics-pie-caption')).toHaveTextContent(
      'E-mails libérés ou supprimés pendant la période, quel que soit le jour de leur mise en quarantaine.',
    );
    // Each slice is labelled with its count and share (the colours alone told neither).
    const label = lastRendered('Pie')!.label as { text: (s: { name: string; value: number }) => string };
    // The share as the runtime's ICU writes a French percentage (its space has varied by version).
    const percent = new Intl.NumberFormat('fr', { style: 'percent', maximumFractionDigits: 1 }).format(0.6);
    expect(percent).toMatch(/^60\s%$/);
    expect(label.text({ name: 'Libérés', value: 3 })).toBe(`Libérés\u00a0: 3 (${percent})`);
    expect(label.text({ name: 'Supprimés', value: 0 })).toBe('');
    const user = userEvent.setup({ delay: null });
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
    expect(screen.getByTestId('statistics-pie-caption')).toHaveTextContent('par niveau de risque');
    expect(currentLocation()).toBe('/statistics?type=donut&pie=risk');
  }, 60_000);

  it('a pie with nothing to show says so', async () => {
    const none = { ...STATS, totals: { quarantined: 10, released: 0, deleted: 0 } };
    mockApi(() => jsonResponse(200, none));
    renderExposed('statistics', <ExposedStatistics />, '/statistics?type=pie');
    expect(await screen.findByText('Aucun e-mail libéré ni supprimé sur cette période.')).toBeInTheDocument();
    expect(screen.queryByTestId('chart-stub')).toBeNull();
  }, 60_000);

  it('a custom range asks for date_from and date_to', async () => {
    const { calls } = mockApi(() => jsonResponse(200, STATS));
    renderExposed('statistics', <ExposedStatistics />, '/statistics?from=2026-10-01&to=2026-10-31&type=line');
    expect((await chart()).kind).toBe('Line');
    expect(lastQuery(calls)).toEqual({ date_from: '2026-10-01', date_to: '2026-10-31' });
    expect(await screen.findAllByTestId('statistics-dates', {}, { timeout: 10_000 })).toHaveLength(2);
    // The ellipsis belongs to the menu's choice ("more to choose"), not to the chosen value.
    expect(screen.getByLabelText('Période').closest('.ant-select')).toHaveTextContent(/^Personnalisée$/);
  }, 60_000);

  it('a custom range longer than the api answers (366 days) is not asked for: the default period is shown', async () => {
    const { calls } = mockApi(() => jsonResponse(200, STATS));
    renderExposed('statistics', <ExposedStatistics />, '/statistics?from=2025-01-01&to=2026-01-02');
    await chart();
    expect(lastQuery(calls)).toEqual({ days: '7' });
    expect(screen.getByLabelText('Période').closest('.ant-select')).toHaveTextContent('Les 7 derniers jours');
    // 366 days, both ends counted, is still a range; 367 is not.
    expect(readView(new URLSearchParams('from=2025-01-01&to=2026-01-01'))).toMatchObject({ from: '2025-01-01' });
    expect(readView(new URLSearchParams('from=2025-01-01&to=2026-01-02'))).toMatchObject({ from: '', to: '' });
  }, 60_000);

  it('the date picker does not offer a day that would make the range longer than 366 days', async () => {
    mockApi(() => jsonResponse(200, STATS));
    renderExposed('statistics', <ExposedStatistics />, '/statistics?from=2025-01-15&to=2026-01-10');
    const [, end] = await screen.findAllByTestId('statistics-dates', {}, { timeout: 10_000 });
    await userEvent.setup({ delay: null }).click(end!);
    const cell = async (day: string) =>
      (await screen.findAllByTitle(day)).find((el) => el.classList.contains('ant-picker-cell'))!;
    // Editing the end: bounded by the start (2025-01-15), 366 days both counted.
    expect(await cell('2026-01-15')).not.toHaveClass('ant-picker-cell-disabled');
    expect(await cell('2026-01-16')).toHaveClass('ant-picker-cell-disabled');
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
