import { Area, Column, DualAxes, Line, Pie } from '@ant-design/charts';
import Flex from 'antd/es/flex';
import Typography from 'antd/es/typography';
import type { Statistics } from '@qc/contracts';
import { formatUtcDay, PageEmpty, usePhoneLayout, useThemeToken } from '@qc/ui';
import { useTheme } from '@qc/ui-state';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../quarantine/quarantine.format';
import { RISK_COLORS } from './risk-colors';
import type { ChartType, PieData } from './statistics.view';

const SERIES = ['quarantined', 'released', 'deleted'] as const;
interface Slice {
  name: string;
  value: number;
}
type Series = (typeof SERIES)[number];
/** Each series in the colour of its totals card (antd tokens: the current theme's, light or dark). */
const SERIES_TOKENS = { quarantined: 'colorWarning', released: 'colorSuccess', deleted: 'colorError' } as const;

export interface StatisticsChartProps {
  type: ChartType;
  data: Statistics;
  pie?: PieData;
  /** Only the quarantined series (the dashboard's trend): no legend. */
  quarantinedOnly?: boolean;
  height?: number;
}

/**
 * The charts (a chunk of its own, always lazy: @ant-design/charts weighs ~430 KB gzip). Themed from
 * @qc/ui-state: 'classicDark' when the resolved mode is dark (DESIGN §3); series colours are the
 * antd tokens of that theme.
 *
 * The day series are drawn overlaid, never stacked: released and deleted are counted on the day of
 * the action, quarantined on the day the mail came in, so summing them means nothing.
 */
export default function StatisticsChart({
  type,
  data,
  pie = 'actions',
  quarantinedOnly,
  height = 320,
}: StatisticsChartProps) {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const token = useThemeToken();
  const phone = usePhoneLayout();
  const theme = useTheme((s) => s.resolved) === 'dark' ? 'classicDark' : 'classic';
  const label = (s: Series) => t(`statistics.series.${s}`);
  const colorOf = (list: readonly Series[]) => ({
    domain: list.map(label),
    range: list.map((s) => token[SERIES_TOKENS[s]]),
  });
  const long = (list: readonly Series[]) =>
    data.days.flatMap((d) => list.map((s) => ({ date: d.date, series: label(s), value: d[s] })));
  // Short day labels, never rotated (a rotated label eats the plot): those that would overlap are
  // hidden; with their year when the range crosses a new year (365 days ran "23 nov." to "18 nov.").
  // Counts are whole numbers: no 0.5 ticks, and written as the language writes them ("1 234" in
  // French), on the axis and in the tooltip alike. Room on the right for the last day's label.
  const dayStyle = data.range.from.slice(0, 4) === data.range.to.slice(0, 4) ? 'short' : 'long';
  const axis = {
    x: { labelAutoRotate: false, labelAutoHide: true, labelFormatter: (d: string) => formatUtcDay(d, lang, dayStyle) },
    y: { tickFilter: (v: number) => Number.isInteger(v), labelFormatter: (v: number) => formatCount(v, lang) },
  };
  const tooltip = {
    title: (d: { date: string }) => formatUtcDay(d.date, lang),
    items: [{ channel: 'y', valueFormatter: (v: number) => formatCount(v, lang) }],
  };
  const common = { theme, height, autoFit: true, marginRight: 32 };

  if (type === 'pie' || type === 'donut') {
    const slices =
      pie === 'risk'
        ? (Object.keys(RISK_COLORS) as (keyof typeof RISK_COLORS)[]).map((k) => ({
            name: t(`statistics.risk_levels.${k}`),
            value: data.risk[k],
          }))
        : (['released', 'deleted'] as const).map((s) => ({ name: label(s), value: data.totals[s] }));
    const color =
      pie === 'risk' ? { range: Object.values(RISK_COLORS) } : { range: [token.colorSuccess, token.colorError] };
    // Each slice says its count and share beside it: colours alone told neither. On a phone, only its
    // share: a longer label ran off the screen's edge (the legend names the slices, the cards count them).
    const total = slices.reduce((sum, s) => sum + s.value, 0);
    const share = (s: Slice) =>
      new Intl.NumberFormat(lang, { style: 'percent', maximumFractionDigits: 1 }).format(s.value / total);
    const sliceText = (s: Slice) =>
      phone ? share(s) : t('statistics.slice', { name: s.name, count: formatCount(s.value, lang), percent: share(s) });
    return (
      <Flex vertical gap={8}>
        <Typography.Text type="secondary" data-testid="statistics-pie-caption">
          {t(`statistics.pie_captions.${pie}`)}
        </Typography.Text>
        {slices.every((s) => s.value === 0) ? (
          <PageEmpty description={t(`statistics.pie_empty.${pie}`)} />
        ) : (
          <Pie
            {...common}
            // Room on both sides for the labels outside the ring.
            insetLeft={40}
            insetRight={40}
            data={slices}
            angleField="value"
            colorField="name"
            innerRadius={type === 'donut' ? 0.6 : 0}
            scale={{ color }}
            label={{ text: (s: Slice) => (s.value ? sliceText(s) : ''), position: 'outside' }}
            // The labels say it all; G2's default pie tooltip came up empty.
            tooltip={false}
          />
        )}
      </Flex>
    );
  }

  const chart = (() => {
    if (type === 'composed') {
      // Bars and lines of the same counts: one shared y scale (DualAxes gives each child its own by
      // default), hence one y axis, and a legend naming the three series.
      const shared = { independent: false };
      return (
        <DualAxes
          {...common}
          xField="date"
          axis={axis}
          tooltip={tooltip}
          scale={{ y: { key: 'count' }, color: colorOf(SERIES) }}
          children={[
            {
              type: 'interval',
              data: long(['quarantined']),
              yField: 'value',
              colorField: 'series',
              scale: { y: shared },
              tooltip,
            },
            {
              type: 'line',
              data: long(['released', 'deleted']),
              yField: 'value',
              colorField: 'series',
              scale: { y: shared },
              tooltip,
            },
          ]}
        />
      );
    }
    const series = quarantinedOnly ? SERIES.slice(0, 1) : SERIES;
    const props = {
      ...common,
      data: long(series),
      xField: 'date',
      yField: 'value',
      colorField: 'series',
      axis,
      tooltip,
      scale: { color: colorOf(series) },
      ...(quarantinedOnly ? { legend: false as const } : {}),
    };
    if (type === 'bar') return <Column {...props} group />;
    if (type === 'line') return <Line {...props} />;
    // Overlaid areas: see-through, each outlined by its line.
    return <Area {...props} style={{ fillOpacity: 0.2 }} line={{}} />;
  })();
  if (quarantinedOnly) return chart;
  return (
    <Flex vertical gap={8}>
      {chart}
      <Typography.Text type="secondary" data-testid="statistics-series-note">
        {t('statistics.series_note')}
      </Typography.Text>
    </Flex>
  );
}
