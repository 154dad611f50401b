import { Area, Column, DualAxes, Line, Pie } from '@ant-design/charts';
import { formatUtcDay, useThemeToken } from '@qc/ui';
import { useTheme } from '@qc/ui-state';
import { useTranslation } from 'react-i18next';
import { LOG_SEVERITIES, type HarakaLogsPerDay, type HarakaSummary, type LogSeverity } from '../logs/logs.types';
import type { ChartType } from './stats.view';

type Token = ReturnType<typeof useThemeToken>;
/** Each severity in a colour of the current theme's tokens (light or dark), as its tag. */
const severityColor = (token: Token): Record<LogSeverity, string> => ({
  INFO: token.colorInfo,
  NOTICE: token.cyan,
  WARN: token.colorWarning,
  ERROR: token.colorError,
});

export type HarakaChartProps =
  | { kind: 'per_day'; type: ChartType; data: HarakaLogsPerDay; height?: number }
  | { kind: 'per_hour'; data: HarakaSummary['per_hour']; height?: number };

/**
 * The charts of remote-haraka (a chunk of its own, always lazy: @ant-design/charts weighs ~430 KB
 * gzip). Themed from @qc/ui-state: 'classicDark' when the resolved mode is dark (DESIGN §3).
 */
export default function HarakaChart(props: HarakaChartProps) {
  const { t, i18n } = useTranslation('haraka');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const token = useThemeToken();
  const theme = useTheme((s) => s.resolved) === 'dark' ? 'classicDark' : 'classic';
  const count = (v: number) => new Intl.NumberFormat(lang).format(v);
  const common = { theme, height: props.height ?? 320, autoFit: true, marginRight: 32 };
  const y = { tickFilter: (v: number) => Number.isInteger(v), labelFormatter: count };

  if (props.kind === 'per_hour') {
    return (
      <Column
        {...common}
        data={props.data.map((h) => ({ hour: t('summary.hour', { hour: h.hour }), total: h.total }))}
        xField="hour"
        yField="total"
        axis={{ x: { labelAutoRotate: false, labelAutoHide: true }, y }}
        style={{ fill: token.colorPrimary }}
        tooltip={{ items: [{ channel: 'y', name: t('summary.lines'), valueFormatter: count }] }}
      />
    );
  }

  const { type, data } = props;
  const colors = severityColor(token);
  const name = (s: LogSeverity) => t(`severities.${s}`);
  const scaleColor = { domain: LOG_SEVERITIES.map(name), range: LOG_SEVERITIES.map((s) => colors[s]) };
  if (type === 'pie' || type === 'donut') {
    const slices = LOG_SEVERITIES.map((s) => ({
      name: name(s),
      value: data.days.reduce((sum, d) => sum + d[s], 0),
    }));
    return (
      <Pie
        {...common}
        data={slices}
        angleField="value"
        colorField="name"
        innerRadius={type === 'donut' ? 0.6 : 0}
        scale={{ color: scaleColor }}
        label={{ text: (s: { name: string; value: number }) => (s.value ? `${s.name} ${count(s.value)}` : '') }}
        tooltip={false}
      />
    );
  }
  const long = data.days.flatMap((d) => LOG_SEVERITIES.map((s) => ({ date: d.date, series: name(s), value: d[s] })));
  const axis = {
    x: { labelAutoRotate: false, labelAutoHide: true, labelFormatter: (d: string) => formatUtcDay(d, lang, 'short') },
    y,
  };
  const tooltip = {
    title: (d: { date: string }) => formatUtcDay(d.date, lang),
    items: [{ channel: 'y', valueFormatter: count }],
  };
  if (type === 'composed') {
    // The total as bars, each severity as a line over it, on one shared y scale.
    const shared = { independent: false };
    return (
      <DualAxes
        {...common}
        xField="date"
        axis={axis}
        scale={{ y: { key: 'count' } }}
        children={[
          {
            type: 'interval',
            data: data.days.map((d) => ({ date: d.date, value: d.total })),
            yField: 'value',
            style: { fill: token.colorFillSecondary },
            scale: { y: shared },
            tooltip,
          },
          {
            type: 'line',
            data: long,
            yField: 'value',
            colorField: 'series',
            scale: { y: shared, color: scaleColor },
            tooltip,
          },
        ]}
      />
    );
  }
  const chart = {
    ...common,
    data: long,
    xField: 'date',
    yField: 'value',
    colorField: 'series',
    axis,
    tooltip,
    scale: { color: scaleColor },
  };
  if (type === 'bar') return <Column {...chart} stack />;
  if (type === 'line') return <Line {...chart} />;
  return <Area {...chart} stack style={{ fillOpacity: 0.6 }} />;
}
