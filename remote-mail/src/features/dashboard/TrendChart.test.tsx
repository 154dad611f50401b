import { i18next as i18n, initI18n } from '@qc/i18n';
import { useThemeToken } from '@qc/ui';
import { useTheme } from '@qc/ui-state';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { RemoteRoot } from '../../exposed/RemoteRoot';
import { niceTicks, TrendChart } from './TrendChart';

const DAYS = [
  { date: '2026-11-15', quarantined: 0 },
  { date: '2026-11-16', quarantined: 2 },
  { date: '2026-11-17', quarantined: 6 },
  { date: '2026-11-18', quarantined: 1 },
  { date: '2026-11-19', quarantined: 0 },
  { date: '2026-11-20', quarantined: 3 },
  { date: '2026-11-21', quarantined: 4 },
];
const ZEROS = DAYS.map((d) => ({ ...d, quarantined: 0 }));

/** The tokens the chart sees (same ThemeRoot, the remote's), written out to compare its colours with. */
function TokenProbe() {
  const { colorPrimary, colorTextSecondary, colorBorder, colorBorderSecondary } = useThemeToken();
  const token = { colorPrimary, colorTextSecondary, colorBorder, colorBorderSecondary };
  return <output hidden data-testid="token" data-token={JSON.stringify(token)} />;
}
const readToken = () =>
  JSON.parse(screen.getByTestId('token').getAttribute('data-token')!) as Record<
    'colorPrimary' | 'colorTextSecondary' | 'colorBorder' | 'colorBorderSecondary',
    string
  >;

function renderChart(days = DAYS) {
  render(
    <RemoteRoot>
      <TokenProbe />
      <TrendChart days={days} height={240} />
    </RemoteRoot>,
  );
  return screen.getByRole('img');
}

const parts = (svg: Element, part: string) => [...svg.querySelectorAll(`[data-part="${part}"]`)];
const cy = (g: Element) => Number(g.querySelector('circle')!.getAttribute('cy'));
const gridY = (svg: Element) =>
  Array.from(parts(svg, 'grid')[0]!.querySelectorAll('line'), (l) => Number(l.getAttribute('y1')));

beforeAll(() => initI18n());
afterEach(async () => {
  act(() => useTheme.getState().setMode('light'));
  await i18n.changeLanguage('fr');
});

describe('TrendChart', () => {
  it('one point per day, labelled with its short French day and count, all read out in the label', () => {
    const svg = renderChart();
    expect(svg).toHaveAccessibleName(
      'E-mails mis en quarantaine par jour, 7\u00a0derniers jours (UTC)\u00a0: 15 nov.\u00a0: 0, 16 nov.\u00a0: 2, ' +
        '17 nov.\u00a0: 6, 18 nov.\u00a0: 1, 19 nov.\u00a0: 0, 20 nov.\u00a0: 3, 21 nov.\u00a0: 4',
    );
    const points = parts(svg, 'point');
    expect(points.map((p) => p.querySelector('title')!.textContent)).toEqual(
      DAYS.map((d) => `${Number(d.date.slice(8))} nov.\u00a0: ${d.quarantined}`),
    );
    // 600 px wide (jsdom measures nothing): room for every day's label, in order, left to right.
    expect(parts(svg, 'day').map((d) => d.textContent)).toEqual(DAYS.map((d) => `${Number(d.date.slice(8))} nov.`));
    const xs = points.map((p) => Number(p.querySelector('circle')!.getAttribute('cx')));
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
    expect(svg).toHaveAttribute('width', '100%');
    expect(svg.getAttribute('viewBox')).toMatch(/^0 0 \d+ 240$/);
  });

  it('in English: short English days', async () => {
    await act(() => i18n.changeLanguage('en'));
    const svg = renderChart();
    expect(svg.getAttribute('aria-label')).toBe(
      'Quarantined e-mail per day, last 7 days (UTC): Nov 15: 0, Nov 16: 2, Nov 17: 6, Nov 18: 1, Nov 19: 0, Nov 20: 3, Nov 21: 4',
    );
    expect(parts(svg, 'day')[0]).toHaveTextContent('Nov 15');
  });

  it('scales to the highest day: round gridlines 0, 2, 4, 6 and the peak on the top one', () => {
    const svg = renderChart();
    const labels = Array.from(parts(svg, 'grid')[0]!.querySelectorAll('text'), (t) => t.textContent);
    expect(labels).toEqual(['0', '2', '4', '6']);
    const [floor, , , top] = gridY(svg) as [number, number, number, number];
    const points = parts(svg, 'point');
    expect(cy(points[2]!)).toBe(top); // 6, the peak
    expect(cy(points[0]!)).toBe(floor); // 0
    // 3 is half of 6: half way up.
    expect(cy(points[5]!)).toBeCloseTo((floor + top) / 2, 5);
  });

  it('round ticks for any maximum, whole numbers only', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(1)).toEqual([0, 1]);
    expect(niceTicks(7)).toEqual([0, 2, 4, 6, 8]);
    expect(niceTicks(10)).toEqual([0, 5, 10]);
    expect(niceTicks(1234)).toEqual([0, 500, 1000, 1500]);
  });

  it('all zeros: a flat line on the floor, no error, the zeros read out', () => {
    const svg = renderChart(ZEROS);
    const floor = gridY(svg)[0]!;
    expect(parts(svg, 'point').map(cy)).toEqual(ZEROS.map(() => floor));
    const d = parts(svg, 'line')[0]!.getAttribute('d')!;
    expect(d).not.toMatch(/NaN|Infinity/);
    expect(new Set(d.match(/,[\d.]+/g))).toEqual(new Set([`,${floor.toFixed(1)}`]));
    expect(svg.getAttribute('aria-label')).toContain('21 nov.\u00a0: 0');
  });

  it('hovering a day shows its count', () => {
    const svg = renderChart();
    expect(parts(svg, 'value')).toHaveLength(0);
    fireEvent.mouseEnter(parts(svg, 'point')[2]!);
    expect(parts(svg, 'value').map((v) => v.textContent)).toEqual(['6']);
    fireEvent.mouseLeave(svg);
    expect(parts(svg, 'value')).toHaveLength(0);
  });

  it('both themes: colours from the theme tokens, light ink on dark', () => {
    const primary: string[] = [];
    for (const mode of ['light', 'dark'] as const) {
      act(() => useTheme.getState().setMode(mode));
      const svg = renderChart();
      const t = readToken();
      primary.push(t.colorPrimary);
      expect(parts(svg, 'line')[0]).toHaveAttribute('stroke', t.colorPrimary);
      expect(parts(svg, 'area')[0]).toHaveAttribute('fill', t.colorPrimary);
      for (const label of parts(svg, 'day')) expect(label).toHaveAttribute('fill', t.colorTextSecondary);
      const grid = parts(svg, 'grid')[0]!.querySelectorAll('line');
      expect(grid[0]).toHaveAttribute('stroke', t.colorBorder);
      expect(grid[1]).toHaveAttribute('stroke', t.colorBorderSecondary);
      // The tokens really are the theme's: white-based ink only on dark.
      expect(parts(svg, 'day')[0]!.getAttribute('fill')!.replace(/\s/g, '')).toMatch(
        mode === 'dark' ? /^rgba\(255,255,255,/ : /^rgba\(0,0,0,/,
      );
      cleanup();
    }
    expect(primary[1]).not.toBe(primary[0]);
  });

  it('on a phone (330 px for the plot): the viewBox follows the width, every other day labelled', () => {
    const original = globalThis.ResizeObserver;
    globalThis.ResizeObserver = class {
      constructor(private cb: ResizeObserverCallback) {}
      observe() {
        this.cb([{ contentRect: { width: 330 } } as ResizeObserverEntry], this as unknown as ResizeObserver);
      }
      unobserve() {}
      disconnect() {}
    } as unknown as typeof ResizeObserver;
    try {
      const svg = renderChart();
      expect(svg.getAttribute('viewBox')).toBe('0 0 330 240');
      expect(parts(svg, 'day').map((d) => d.textContent)).toEqual(['15 nov.', '17 nov.', '19 nov.', '21 nov.']);
      // Still one point per day, and every day read out.
      expect(parts(svg, 'point')).toHaveLength(7);
      expect(svg.getAttribute('aria-label')).toContain('16 nov.\u00a0: 2');
    } finally {
      globalThis.ResizeObserver = original;
    }
  });
});
