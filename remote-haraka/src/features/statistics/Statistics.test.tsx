import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useTheme } from '@qc/ui-state';
import {
  currentLocation,
  jsonResponse,
  mockApi,
  pickOption,
  renderLogsPerDay,
  renderSummary,
  signInAdmin,
} from '../../test-utils';
import type { HarakaLogsPerDay, HarakaSummary } from '../logs/logs.types';

beforeEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
  signInAdmin();
});

const SUMMARY: HarakaSummary = {
  days: 7,
  range: { from: '2026-11-14', to: '2026-11-20' },
  total: 1234,
  by_severity: { INFO: 1000, NOTICE: 200, WARN: 30, ERROR: 4 },
  top_hostnames: [
    { hostname: 'mx1.example.com', total: 900 },
    { hostname: 'mx2.example.com', total: 334 },
  ],
  top_error_origins: [{ origin: 'queue/smtp_forward', errors: 3, warnings: 10 }],
  per_hour: Array.from({ length: 24 }, (_, hour) => ({ hour, total: hour === 9 ? 100 : 1 })),
};

const perDay = (n: number): HarakaLogsPerDay => ({
  days: Array.from({ length: n }, (_, i) => ({
    date: `2026-11-${String(21 - n + i).padStart(2, '0')}`,
    INFO: 10 + i,
    NOTICE: 2,
    WARN: 1,
    ERROR: i,
    total: 13 + 2 * i,
  })),
});

describe('haraka/statistics/summary', () => {
  it('cards per severity, top hosts and error origins, the per-hour chart; the period goes to the URL and request', async () => {
    const { calls } = mockApi(() => jsonResponse(200, SUMMARY));
    renderSummary();
    expect(await screen.findByTestId('summary-count-total')).toHaveTextContent(/1\s234/);
    expect(screen.getByTestId('summary-count-ERROR')).toHaveTextContent('4');
    expect(screen.getByTestId('summary-count-WARN')).toHaveTextContent('30');
    expect(within(screen.getByTestId('summary-top-hostnames')).getAllByRole('row')).toHaveLength(3);
    expect(screen.getByTestId('summary-top-origins')).toHaveTextContent('queue/smtp_forward');
    const chart = await screen.findByTestId('chart-stub');
    expect(chart.dataset.chart).toBe('Column');
    expect(JSON.parse(chart.dataset.props!).data).toHaveLength(24);
    expect(calls[0]!.query.get('days')).toBe('7');
    expect(screen.getByTestId('remote-haraka-version')).toBeInTheDocument();

    await pickOption(userEvent.setup({ delay: null }), 'Période', '365 derniers jours');
    await waitFor(() => expect(currentLocation()).toBe('/haraka/statistics/summary?days=365'));
    await waitFor(() => expect(calls.at(-1)!.query.get('days')).toBe('365'));
  });
});

describe('haraka/statistics/logs-per-day', () => {
  it('draws the chart type of the URL, lazily, in the dark theme, with a table of the days under it', async () => {
    useTheme.setState({ resolved: 'dark' } as never);
    try {
      const { calls } = mockApi(() => jsonResponse(200, perDay(30)));
      renderLogsPerDay('/haraka/statistics/logs-per-day?days=30&type=bar');
      const chart = await screen.findByTestId('chart-stub');
      expect(chart.dataset.chart).toBe('Column');
      const props = JSON.parse(chart.dataset.props!);
      expect(props.theme).toBe('classicDark');
      expect(props.data).toHaveLength(30 * 4);
      expect(calls[0]!.query.get('days')).toBe('30');
      const rows = screen.getAllByTestId('per-day-row');
      expect(rows).toHaveLength(30);
      expect(rows[0]).toHaveTextContent('20 nov. 2026'); // newest first
      // Most severe first (on a phone the table scrolls sideways).
      expect(
        within(screen.getByTestId('per-day-table'))
          .getAllByRole('columnheader')
          .map((h) => h.textContent),
      ).toEqual(['Jour', 'ERROR', 'WARN', 'NOTICE', 'INFO', 'Total']);
    } finally {
      useTheme.setState({ resolved: 'light' } as never);
    }
  });

  it.each([
    ['area', 'Area'],
    ['line', 'Line'],
    ['pie', 'Pie'],
    ['donut', 'Pie'],
    ['composed', 'DualAxes'],
  ])('chart type %s', async (type, kind) => {
    mockApi(() => jsonResponse(200, perDay(7)));
    renderLogsPerDay(`/haraka/statistics/logs-per-day?type=${type}`);
    const chart = await screen.findByTestId('chart-stub');
    expect(chart.dataset.chart).toBe(kind);
    if (type === 'donut') expect(JSON.parse(chart.dataset.props!).innerRadius).toBe(0.6); // eslint-disable-line jest/no-conditional-expect
  });

  it('an empty period says so instead of an empty chart', async () => {
    mockApi(() =>
      jsonResponse(200, {
        days: perDay(2).days.map((d) => ({ ...d, INFO: 0, NOTICE: 0, WARN: 0, ERROR: 0, total: 0 })),
      }),
    );
    renderLogsPerDay('/haraka/statistics/logs-per-day?days=2');
    expect(await screen.findByText('Aucune ligne de journal sur cette période')).toBeInTheDocument();
    expect(screen.queryByTestId('chart-stub')).toBeNull();
  });
});
