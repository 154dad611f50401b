import Card from 'antd/es/card';
import Flex from 'antd/es/flex';
import Select from 'antd/es/select';
import Table, { type ColumnsType } from 'antd/es/table';
import Typography from 'antd/es/typography';
import { errorMessageKey } from '@qc/api-client';
import {
  Field,
  formatUtcDay,
  PageEmpty,
  PageError,
  PageHeader,
  PageLoading,
  ReloadButton,
  retryableLazy,
  usePhoneLayout,
} from '@qc/ui';
import { Suspense, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { RemoteVersion } from '../../RemoteVersion';
import { LOG_SEVERITIES, type HarakaLogsPerDay } from '../logs/logs.types';
import { PeriodSelect } from './PeriodSelect';
import { useLogsPerDay } from './stats.queries';
import { CHART_TYPES, readStatsView, writeStatsView, type ChartType, type StatsView } from './stats.view';

// A chunk of its own: @ant-design/charts loads only when a chart is drawn.
const HarakaChart = retryableLazy(() => import('./HarakaChart'));
type Day = HarakaLogsPerDay['days'][number];

/** Spec §2 `haraka/statistics/logs-per-day`: lines per day and severity, as a chart and a table. */
export function LogsPerDayPage() {
  const { t, i18n } = useTranslation('haraka');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const phone = usePhoneLayout();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const view = useMemo(() => readStatsView(params), [params]);
  const perDay = useLogsPerDay(view.days);
  const base = useId();
  const count = (v: number) => (
    <span style={{ fontVariantNumeric: 'tabular-nums' }}>{new Intl.NumberFormat(lang).format(v)}</span>
  );
  const change = (patch: Partial<StatsView>) => {
    const search = writeStatsView({ ...view, ...patch }).toString();
    navigate({ search: search ? `?${search}` : '' });
  };
  const data = perDay.data;
  const empty = data !== undefined && data.days.every((d) => d.total === 0);
  // Newest day first in the table (the chart reads left to right, oldest first).
  const rows = useMemo(() => (data ? [...data.days].reverse() : []), [data]);
  const columns: ColumnsType<Day> = [
    {
      key: 'date',
      title: t('per_day.columns.date'),
      dataIndex: 'date',
      width: phone ? 110 : 160,
      render: (d: string) => <time dateTime={d}>{formatUtcDay(d, lang)}</time>,
    },
    // Most severe first: on a phone the table scrolls, and ERROR and WARN are the ones to see.
    ...[...LOG_SEVERITIES].reverse().map((s) => ({
      key: s,
      title: t(`severities.${s}`),
      dataIndex: s,
      align: 'right' as const,
      render: count,
    })),
    { key: 'total', title: t('per_day.total'), dataIndex: 'total', align: 'right', render: count },
  ];

  return (
    <section aria-labelledby="haraka-per-day-title" data-testid="haraka-per-day-page">
      <PageHeader
        title={<span id="haraka-per-day-title">{t('per_day.title')}</span>}
        description={t('per_day.description')}
        extra={<ReloadButton query={perDay} label={t('stats.reload')} testId="per-day-reload" />}
      />
      <Flex wrap gap={12} align="flex-end" style={{ marginBottom: 16 }}>
        <PeriodSelect id={`${base}-days`} value={view.days} onChange={(days) => change({ days })} />
        <Field id={`${base}-type`} label={t('per_day.chart_type')} width={170}>
          <Select<ChartType>
            id={`${base}-type`}
            value={view.type}
            onChange={(type) => change({ type })}
            options={CHART_TYPES.map((c) => ({ value: c, label: t(`per_day.chart_types.${c}`) }))}
            data-testid="per-day-chart-type"
          />
        </Field>
      </Flex>
      {perDay.isError && !data ? (
        <PageError
          title={t('stats.error_title')}
          description={t(errorMessageKey(perDay.error), { ns: 'common' })}
          onRetry={() => void perDay.refetch()}
        />
      ) : !data ? (
        <PageLoading />
      ) : (
        <Flex vertical gap={16}>
          {data.days.length ? (
            <Typography.Text type="secondary" data-testid="per-day-range">
              {t('stats.range_shown', {
                from: formatUtcDay(data.days[0]!.date, lang),
                to: formatUtcDay(data.days.at(-1)!.date, lang),
              })}
            </Typography.Text>
          ) : null}
          <Card size="small" data-testid="per-day-chart">
            {empty ? (
              <PageEmpty description={t('stats.empty')} />
            ) : (
              <Flex vertical gap={8}>
                {view.type === 'pie' || view.type === 'donut' ? (
                  <Typography.Text type="secondary">{t('per_day.pie_caption')}</Typography.Text>
                ) : null}
                <Suspense fallback={<PageLoading label={t('stats.loading_chart')} />}>
                  <HarakaChart kind="per_day" type={view.type} data={data} />
                </Suspense>
              </Flex>
            )}
          </Card>
          <Table<Day>
            rowKey="date"
            size="small"
            columns={columns}
            dataSource={rows}
            pagination={rows.length > 31 ? { pageSize: 31, showSizeChanger: false } : false}
            scroll={{ x: 560 }}
            aria-label={t('per_day.table_label')}
            onRow={() => ({ 'data-testid': 'per-day-row' }) as object}
            data-testid="per-day-table"
          />
        </Flex>
      )}
      <RemoteVersion />
    </section>
  );
}
