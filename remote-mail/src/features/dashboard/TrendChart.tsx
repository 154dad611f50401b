import type { StatisticsDay } from '@qc/contracts';
import { formatUtcDay, useThemeToken } from '@qc/ui';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../quarantine/quarantine.format';

/** Width drawn before the card is measured (and in jsdom, which measures nothing). */
const DEFAULT_WIDTH = 600;
const PAD = { top: 12, right: 16, bottom: 28, left: 8 };
const TICK_COUNT = 4;

/**
 * Whole, round gridline values from 0 up to at least `max` (1, 2 or 5 × 10ⁿ apart; counts are whole
 * numbers, so never a 0.5 step). All zeros still get a 0..1 axis: a flat line on the floor.
 */
export function niceTicks(max: number, count = TICK_COUNT): number[] {
  const raw = Math.max(max, 1) / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const norm = raw / magnitude;
  const step = Math.max(1, (norm <= 1 ? 1 : norm <= 2 ? 2 : norm <= 5 ? 5 : 10) * magnitude);
  const top = Math.max(step, Math.ceil(max / step) * step);
  return Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
}

/** The width of the element, followed as it changes (the card's width: phone or desktop). */
function useWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(([entry]) => {
      const w = Math.round(entry?.contentRect.width ?? 0);
      if (w > 0) setWidth(w);
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

export interface TrendChartProps {
  /** One entry per day, oldest first, zeros included (the api's `days`). */
  days: readonly Pick<StatisticsDay, 'date' | 'quarantined'>[];
  height?: number;
  /** The period's length in days, for the label (default: the days given). */
  period?: number;
}

/**
 * Quarantined e-mail per day as a small hand-drawn SVG area: the dashboard's one chart did not need
 * the charts library (a third of the page's bytes), which now loads only on /statistics. The
 * viewBox follows the measured width, so text keeps its size on a phone instead of shrinking.
 */
export function TrendChart({ days, height = 240, period = days.length }: TrendChartProps) {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const token = useThemeToken();
  const [ref, width] = useWidth();
  const [hover, setHover] = useState<number | null>(null);

  const fontSize = token.fontSizeSM;
  const ticks = niceTicks(Math.max(0, ...days.map((d) => d.quarantined)));
  const top = ticks[ticks.length - 1]!;
  const tickLabels = ticks.map((v) => formatCount(v, lang));
  // Room for the longest y label on the left (about 0.6 em a character).
  const left = PAD.left + Math.ceil(Math.max(...tickLabels.map((s) => s.length)) * fontSize * 0.6) + 6;
  const plotW = Math.max(1, width - left - PAD.right);
  const plotH = Math.max(1, height - PAD.top - PAD.bottom);
  // Points inset half a slot from each edge, so the first and last day labels fit under them.
  const slot = plotW / Math.max(1, days.length);
  const x = (i: number) => left + slot * (i + 0.5);
  const y = (v: number) => PAD.top + plotH - (v / top) * plotH;
  const floor = y(0);

  const labels = days.map((d) => formatUtcDay(d.date, lang, 'short'));
  const counts = days.map((d) => formatCount(d.quarantined, lang));
  // Never rotated: when the labels would touch (a narrow phone), every other one is left out.
  const longest = Math.max(0, ...labels.map((s) => s.length)) * fontSize * 0.6;
  const every = Math.max(1, Math.ceil((longest + 8) / slot));

  const line = days.map((d, i) => `${i ? 'L' : 'M'}${x(i).toFixed(1)},${y(d.quarantined).toFixed(1)}`).join(' ');
  const area = days.length ? `${line} L${x(days.length - 1).toFixed(1)},${floor} L${x(0).toFixed(1)},${floor} Z` : '';
  const label = t('dashboard.trend_label', {
    days: period,
    values: days.map((_, i) => t('dashboard.trend_point', { day: labels[i], count: counts[i] })).join(', '),
  });

  return (
    <div ref={ref} style={{ width: '100%' }}>
      <svg
        role="img"
        aria-label={label}
        width="100%"
        height={height}
        viewBox={`0 0 ${width} ${height}`}
        style={{ display: 'block', fontFamily: token.fontFamily, overflow: 'visible' }}
        data-testid="trend-chart"
        onMouseLeave={() => setHover(null)}
      >
        <g data-part="grid">
          {ticks.map((v, i) => (
            <g key={v}>
              <line
                x1={left}
                x2={width - PAD.right}
                y1={y(v)}
                y2={y(v)}
                stroke={v === 0 ? token.colorBorder : token.colorBorderSecondary}
                strokeWidth={1}
              />
              <text
                x={left - 6}
                y={y(v)}
                textAnchor="end"
                dominantBaseline="middle"
                fontSize={fontSize}
                fill={token.colorTextSecondary}
              >
                {tickLabels[i]}
              </text>
            </g>
          ))}
        </g>
        <path d={area} fill={token.colorPrimary} fillOpacity={0.15} data-part="area" />
        <path
          d={line}
          fill="none"
          stroke={token.colorPrimary}
          strokeWidth={2}
          strokeLinejoin="round"
          data-part="line"
        />
        {days.map((d, i) => (
          <g key={d.date} data-part="point" onMouseEnter={() => setHover(i)}>
            <title>{t('dashboard.trend_point', { day: labels[i], count: counts[i] })}</title>
            {/* The whole day's column answers the pointer, not only the 3 px dot. */}
            <rect x={x(i) - slot / 2} y={PAD.top} width={slot} height={plotH} fill="transparent" />
            {/* Dots only where they stand apart (a year of days is a line), and the one pointed at. */}
            {(slot >= 8 || hover === i) && (
              <circle
                cx={x(i)}
                cy={y(d.quarantined)}
                r={hover === i ? 5 : 3}
                fill={token.colorBgContainer}
                stroke={token.colorPrimary}
                strokeWidth={2}
              />
            )}
            {hover === i && (
              <text
                x={x(i)}
                y={y(d.quarantined) - 10}
                textAnchor="middle"
                fontSize={fontSize}
                fontWeight={600}
                fill={token.colorText}
                data-part="value"
              >
                {counts[i]}
              </text>
            )}
            {i % every === 0 && (
              <text
                x={x(i)}
                y={floor + fontSize + 8}
                textAnchor="middle"
                fontSize={fontSize}
                fill={token.colorTextSecondary}
                data-part="day"
              >
                {labels[i]}
              </text>
            )}
          </g>
        ))}
      </svg>
    </div>
  );
}
