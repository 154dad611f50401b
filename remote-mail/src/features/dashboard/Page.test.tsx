import { initI18n } from '@qc/i18n';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import ExposedDashboard from '../../exposed/Dashboard';

function json(status: number, body: unknown) {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/** Another active query of the shell (the current user), as in the host. */
function MeQuery() {
  useQuery({ queryKey: ['me'], queryFn: () => fetch('http://localhost/api/users/me/').then((r) => r.json()) });
  return null;
}

function renderDashboard() {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MeQuery />
      <ExposedDashboard />
    </QueryClientProvider>,
  );
}

const STATS = {
  range: { from: '2026-11-15', to: '2026-11-21' },
  days: [{ date: '2026-11-21', quarantined: 6, released: 2, deleted: 0 }],
  totals: { quarantined: 6, released: 2, deleted: 0 },
  risk: { low: 1, medium: 2, high: 3, critical: 0 },
};

beforeAll(() => initI18n());
beforeEach(() => {
  localStorage.clear();
  jest.restoreAllMocks();
});

describe('remote_mail/Dashboard', () => {
  it('shows the three counts from GET /api/dashboard/, written the French way', async () => {
    jest
      .spyOn(globalThis, 'fetch')
      .mockImplementation(async () => json(200, { pending: 12345, released: 3, deleted: 0 }));
    renderDashboard();
    expect(screen.getByRole('heading', { level: 1, name: 'Tableau de bord' })).toBeInTheDocument();
    // The space ICU puts between groups has changed between versions (U+00A0, then U+202F): the
    // expected text comes from the runtime's own French format, which must group the thousands.
    const french = new Intl.NumberFormat('fr').format(12345);
    expect(french).toMatch(/^12\s345$/);
    await waitFor(() => expect(screen.getByTestId('dashboard-count-pending').textContent).toBe(french));
    expect(screen.getByTestId('dashboard-count-released')).toHaveTextContent('3');
    expect(screen.getByTestId('dashboard-count-deleted')).toHaveTextContent('0');
    expect(screen.getByText('En attente')).toBeInTheDocument();
  });

  it('the reload button refetches every active query at once', async () => {
    const paths: string[] = [];
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      paths.push(new URL(url).pathname);
      return url.includes('/users/me/') ? json(200, { id: 'u1' }) : json(200, { pending: 1, released: 2, deleted: 3 });
    });
    renderDashboard();
    await waitFor(() => expect(screen.getByTestId('dashboard-count-deleted')).toHaveTextContent('3'));
    paths.length = 0;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Actualiser' }));
    await waitFor(() => expect(paths.sort()).toEqual(['/api/dashboard/', '/api/statistics/', '/api/users/me/']));
  });

  it('shows a translated error with Retry', async () => {
    let n = 0;
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      if (url.includes('/users/me/')) return json(200, { id: 'u1' });
      if (url.includes('/statistics/')) return json(200, STATS);
      return ++n === 1
        ? json(503, { detail: 'down', code: 'unavailable' })
        : json(200, { pending: 5, released: 0, deleted: 0 });
    });
    renderDashboard();
    expect(await screen.findByText('Erreur lors du chargement du tableau de bord')).toBeInTheDocument();
    expect(
      screen.getByText('Le service est momentanément indisponible. Réessayez dans quelques instants.'),
    ).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Réessayer' }));
    await waitFor(() => expect(screen.getByTestId('dashboard-count-pending')).toHaveTextContent('5'));
  });

  it('a failed reload hides the trend: its cached numbers beside the error would pass for current', async () => {
    let down = false;
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = input instanceof Request ? input.url : String(input);
      if (down) return json(503, { detail: 'down', code: 'unavailable' });
      if (url.includes('/users/me/')) return json(200, { id: 'u1' });
      if (url.includes('/statistics/')) return json(200, STATS);
      return json(200, { pending: 5, released: 0, deleted: 0 });
    });
    renderDashboard();
    expect(await screen.findByTestId('chart-stub')).toBeInTheDocument();
    down = true;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Actualiser' }));
    expect(await screen.findByText('Erreur lors du chargement du tableau de bord')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('dashboard-trend')).toBeNull());
  });

  it('shows a lazy trend chart of the quarantined e-mail of the last 7 days', async () => {
    const queries: string[] = [];
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === '/api/statistics/') {
        queries.push(url.search);
        return json(200, STATS);
      }
      return json(200, { pending: 1, released: 2, deleted: 3 });
    });
    renderDashboard();
    const chart = await screen.findByTestId('chart-stub');
    expect(chart).toHaveAttribute('data-chart', 'Area');
    const props = JSON.parse(chart.getAttribute('data-props')!) as { data: unknown[] };
    expect(props.data).toEqual([{ date: '2026-11-21', series: 'En quarantaine', value: 6 }]);
    expect(queries).toEqual(['?days=7']);
  });

  it('the trend is readable: tall enough, no legend for its one series, day labels hidden rather than rotated', async () => {
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      return url.pathname === '/api/statistics/'
        ? json(200, STATS)
        : json(200, { pending: 1, released: 2, deleted: 3 });
    });
    renderDashboard();
    const chart = await screen.findByTestId('chart-stub');
    const props = JSON.parse(chart.getAttribute('data-props')!) as {
      height: number;
      legend?: unknown;
      axis: { x: { labelAutoRotate?: boolean; labelAutoHide?: boolean } };
    };
    expect(props.height).toBeGreaterThanOrEqual(220);
    expect(props.legend).toBe(false);
    expect(props.axis.x).toMatchObject({ labelAutoRotate: false, labelAutoHide: true });
  });
});
