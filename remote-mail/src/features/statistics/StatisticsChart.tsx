import { Area, Column, DualAxes, Line, Pie } from '@ant-design/charts';
import type { Statistics } from '@qc/contracts';
import { useTheme } from '@qc/ui-state';
import { useTranslation } from 'react-i18next';
import { RISK_COLORS } from './risk-colors';
import type { ChartType, PieData } from './statistics.view';

const SERIES = ['quarantined', 'released', 'deleted'] as const;

export interface StatisticsChartProps {
  type: ChartType;
  data: Statistics;
  pie?: PieData;
  /** Only the quarantined series (the dashboard's trend). */
  quarantinedOnly?: boolean;
  height?: number;
}

/**
 * The charts (a chunk of its own, always lazy: @ant-design/charts weighs ~430 KB gzip). Themed from
 * @qc/ui-state: 'classicDark' when the resolved mode is dark (DESIGN §3).
 */
export default function StatisticsChart({
  type,
  data,
  pie = 'totals',
  quarantinedOnly,
  height = 320,
}: StatisticsChartProps) {
  const { t } = useTranslation('mail');
  const theme = useTheme((s) => s.resolved) === 'dark' ? 'classicDark' : 'classic';
  const series = quarantinedOnly ? SERIES.slice(0, 1) : SERIES;
  const long = data.days.flatMap((d) =>
    series.map((s) => ({ date: d.date, series: t(`statistics.series.${s}`), value: d[s] })),
  );
  const common = { theme, height, autoFit: true };

  if (type === 'pie' || type === 'donut') {
    const slices =
      pie === 'risk'
        ? (Object.keys(RISK_COLORS) as (keyof typeof RISK_COLORS)[]).map((k) => ({
            name: t(`statistics.risk_levels.${k}`),
            value: data.risk[k],
          }))
        : SERIES.map((s) => ({ name: t(`statistics.series.${s}`), value: data.totals[s] }));
    return (
      <Pie
        {...common}
        data={slices}
        angleField="value"
        colorField="name"
        innerRadius={type === 'donut' ? 0.6 : 0}
        {...(pie === 'risk' ? { scale: { color: { range: Object.values(RISK_COLORS) } } } : {})}
      />
    );
  }
  if (type === 'composed') {
    const rows = data.days.map((d) => ({ ...d }));
    return (
      <DualAxes
        {...common}
        data={rows}
        xField="date"
        children={[
          { type: 'interval', yField: 'quarantined', axis: { y: { title: t('statistics.series.quarantined') } } },
          {
            type: 'line',
            yField: 'released',
            axis: { y: { position: 'right', title: t('statistics.series.released') } },
          },
        ]}
      />
    );
  }
  const props = { ...common, data: long, xField: 'date', yField: 'value', colorField: 'series' };
  if (type === 'bar') return <Column {...props} group />;
  if (type === 'line') return <Line {...props} />;
  return <Area {...props} stack />;
}
