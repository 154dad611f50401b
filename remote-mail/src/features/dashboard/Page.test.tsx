import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, relative, resolve } from 'node:path';
import { initI18n } from '@qc/i18n';
import { QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
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
// antd's Select measures its popup (jsdom has no ResizeObserver; the chart's own use checks for it).
const hadResizeObserver = 'ResizeObserver' in globalThis;
beforeAll(() => {
  if (!hadResizeObserver) {
    (globalThis as { ResizeObserver?: unknown }).ResizeObserver = class {
      observe() {}
      unobserve() {}
      disconnect() {}
    };
  }
});
afterAll(() => {
  if (!hadResizeObserver) delete (globalThis as { ResizeObserver?: unknown }).ResizeObserver;
});
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
    expect(await screen.findByTestId('dashboard-trend')).toBeInTheDocument();
    down = true;
    await userEvent.setup().click(screen.getByRole('button', { name: 'Actualiser' }));
    expect(await screen.findByText('Erreur lors du chargement du tableau de bord')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId('dashboard-trend')).toBeNull());
  });

  it('shows a trend chart of the quarantined e-mail of the last 7 days', async () => {
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
    const trend = await screen.findByTestId('dashboard-trend');
    expect(trend).toHaveTextContent('En quarantaine, 7 derniers jours (UTC)');
    expect(within(trend).getByTestId('trend-chart')).toHaveAccessibleName(
      'E-mails mis en quarantaine par jour, 7\u00a0derniers jours (UTC)\u00a0: 21 nov.\u00a0: 6',
    );
    expect(queries).toEqual(['?days=7']);

    // The spec's chart periods: another one asks for its days and says so in the title.
    const period = screen.getByLabelText('Période du graphique');
    expect(period.closest('.ant-select')).toHaveTextContent('Les 7 derniers jours');
    // antd opens a Select on mouse down.
    fireEvent.mouseDown(period);
    const options = Array.from(
      document.querySelectorAll('.ant-select-dropdown:not(.ant-select-dropdown-hidden) .ant-select-item-option'),
      (o) => o.getAttribute('title'),
    );
    expect(options).toEqual([
      'Les 2 derniers jours',
      'Les 7 derniers jours',
      'Les 30 derniers jours',
      'Les 3 derniers mois',
      'Les 180 derniers jours',
      'Les 365 derniers jours',
    ]);
    fireEvent.click(await screen.findByTitle('Les 30 derniers jours'));
    await waitFor(() => expect(queries).toEqual(['?days=7', '?days=30']));
    await waitFor(() => expect(trend).toHaveTextContent('En quarantaine, 30 derniers jours (UTC)'));
    expect(within(trend).getByTestId('trend-chart')).toHaveAccessibleName(
      'E-mails mis en quarantaine par jour, 30\u00a0derniers jours (UTC)\u00a0: 21 nov.\u00a0: 6',
    );
  });

  it('a year of days draws a line, not 365 overlapping dots', async () => {
    const year = Array.from({ length: 365 }, (_, i) => ({
      date: new Date(Date.UTC(2026, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
      quarantined: i % 5,
      released: 0,
      deleted: 0,
    }));
    jest.spyOn(globalThis, 'fetch').mockImplementation(async (input) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      if (url.pathname === '/api/statistics/') {
        return json(200, { ...STATS, days: url.search === '?days=365' ? year : STATS.days });
      }
      return json(200, { pending: 1, released: 2, deleted: 0 });
    });
    renderDashboard();
    const trend = await screen.findByTestId('dashboard-trend');
    fireEvent.mouseDown(screen.getByLabelText('Période du graphique'));
    fireEvent.click(await screen.findByTitle('Les 365 derniers jours'));
    await waitFor(() => expect(trend.querySelectorAll('[data-part="point"]')).toHaveLength(365));
    expect(trend.querySelectorAll('circle')).toHaveLength(0);
    // The day labels are thinned out so they never touch.
    expect(trend.querySelectorAll('[data-part="day"]').length).toBeLessThan(40);
  });
});

/** Relative imports (static and dynamic) of a source file, resolved to files. */
function localImports(file: string): { local: string[]; bare: string[] } {
  const source = readFileSync(file, 'utf8');
  const specs = [...source.matchAll(/(?:from\s+|import\s*\(\s*|import\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!);
  const local = specs
    .filter((s) => s.startsWith('.'))
    .map((s) => {
      const base = resolve(dirname(file), s);
      const found = [`${base}.ts`, `${base}.tsx`, `${base}/index.ts`, `${base}/index.tsx`, base].find(
        (f) => existsSync(f) && statSync(f).isFile(),
      );
      if (!found) throw new Error(`${file}: cannot resolve ${s}`);
      return found;
    });
  return { local, bare: specs.filter((s) => !s.startsWith('.')) };
}

describe('remote_mail/Dashboard module graph', () => {
  it('never reaches the charts library: it loads only on the statistics page (issue 22)', () => {
    const seen = new Set<string>();
    const packages = new Set<string>();
    const queue = [resolve(__dirname, '../../exposed/Dashboard.tsx')];
    while (queue.length) {
      const file = queue.pop()!;
      if (seen.has(file)) continue;
      seen.add(file);
      const { local, bare } = localImports(file);
      bare.forEach((p) => packages.add(p));
      queue.push(...local);
    }
    const files = [...seen].map((f) => relative(resolve(__dirname, '../..'), f));
    // The walk really followed the imports (the page, its chart, the shared statistics query).
    expect(files).toEqual(
      expect.arrayContaining([
        'features/dashboard/Page.tsx',
        'features/dashboard/TrendChart.tsx',
        'features/statistics/statistics.queries.ts',
      ]),
    );
    expect(files.filter((f) => /StatisticsChart/.test(f))).toEqual([]);
    expect([...packages].filter((p) => p.startsWith('@ant-design/charts') || p.startsWith('@antv/'))).toEqual([]);
  });
});
