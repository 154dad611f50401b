import { CheckCircleOutlined, DeleteOutlined, InboxOutlined } from '@ant-design/icons';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Flex from 'antd/es/flex';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Typography from 'antd/es/typography';
import { errorMessageKey } from '@qc/api-client';
import type { RiskCounts } from '@qc/contracts';
import {
  Field,
  formatUtcDay,
  PageEmpty,
  PageError,
  PageHeader,
  PageLoading,
  ReloadButton,
  retryableLazy,
  toLocalDay,
  useThemeToken,
} from '@qc/ui';
import { Suspense, useId, useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { DatesField } from '../filters/DatesField';
import { formatCount } from '../quarantine/quarantine.format';
import { RISK_COLORS } from './risk-colors';
import { useStatistics } from './statistics.queries';
import { StatisticsTable } from './StatisticsTable';
import { StatisticsTops } from './StatisticsTops';
import {
  CHART_TYPES,
  daysOfRange,
  PIE_DATAS,
  RANGES,
  rangeOf,
  readView,
  STATISTICS_MAX_DAYS,
  toStatisticsParams,
  writeView,
  type ChartType,
  type PieData,
  type StatisticsRange,
  type StatisticsView,
} from './statistics.view';

const StatisticsChart = retryableLazy(() => import('./StatisticsChart'));

const TOTALS: {
  key: 'quarantined' | 'released' | 'deleted';
  icon: ReactNode;
  color: 'colorWarning' | 'colorSuccess' | 'colorError';
}[] = [
  { key: 'quarantined', icon: <InboxOutlined aria-hidden />, color: 'colorWarning' },
  { key: 'released', icon: <CheckCircleOutlined aria-hidden />, color: 'colorSuccess' },
  { key: 'deleted', icon: <DeleteOutlined aria-hidden />, color: 'colorError' },
];
const RISK_KEYS = Object.keys(RISK_COLORS) as (keyof RiskCounts)[];

/** Spec §9 `statistics`: counts over a period, a chart of several types and the risk-level breakdown. */
export function StatisticsPage() {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const token = useThemeToken();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const view = useMemo(() => readView(params), [params]);
  const request = useMemo(() => toStatisticsParams(view), [view]);
  const stats = useStatistics(request);
  const base = useId();
  const id = (name: string) => `${base}-${name}`;

  const change = (patch: Partial<StatisticsView>) => {
    const search = writeView({ ...view, ...patch }).toString();
    navigate({ search: search ? `?${search}` : '' });
  };
  const pickRange = (range: StatisticsRange) => {
    if (range !== 'custom') return change({ days: daysOfRange(range), from: '', to: '' });
    const today = toLocalDay(new Date());
    const first = toLocalDay(new Date(Date.now() - (view.days - 1) * 86_400_000));
    change({ from: first, to: today });
  };
  const data = stats.data;
  const empty =
    data !== undefined &&
    Object.values(data.totals).every((n) => n === 0) &&
    Object.values(data.risk).every((n) => n === 0);

  return (
    <section aria-labelledby="statistics-title" data-testid="statistics-page">
      <PageHeader
        title={<span id="statistics-title">{t('statistics.title')}</span>}
        description={t('statistics.description')}
        extra={<ReloadButton query={stats} label={t('statistics.reload')} testId="statistics-reload" />}
      />
      <Flex wrap gap={12} align="flex-end" style={{ marginBottom: 16 }} data-testid="statistics-controls">
        <Field id={id('range')} label={t('statistics.range')} width={210}>
          <Select<StatisticsRange>
            id={id('range')}
            value={rangeOf(view)}
            onChange={pickRange}
            options={RANGES.map((r) => ({ value: r, label: t(`statistics.ranges.${r}`) }))}
            labelRender={({ value, label }) => (value === 'custom' ? t('statistics.ranges.custom_chosen') : label)}
            data-testid="statistics-range"
          />
        </Field>
        {view.from ? (
          <DatesField
            id={id('dates')}
            label={t('statistics.dates')}
            from={view.from}
            to={view.to}
            onChange={(from, to) => change({ from, to })}
            maxDays={STATISTICS_MAX_DAYS}
            testId="statistics-dates"
          />
        ) : null}
        <Field id={id('type')} label={t('statistics.chart_type')} width={170}>
          <Select<ChartType>
            id={id('type')}
            value={view.type}
            onChange={(type) => change({ type })}
            options={CHART_TYPES.map((c) => ({ value: c, label: t(`statistics.chart_types.${c}`) }))}
            data-testid="statistics-chart-type"
          />
        </Field>
        {view.type === 'pie' || view.type === 'donut' ? (
          <Field id={id('pie')} label={t('statistics.pie_data')} width={190}>
            <Select<PieData>
              id={id('pie')}
              value={view.pie}
              onChange={(pie) => change({ pie })}
              options={PIE_DATAS.map((p) => ({ value: p, label: t(`statistics.pie_datas.${p}`) }))}
              data-testid="statistics-pie-data"
            />
          </Field>
        ) : null}
      </Flex>
      {stats.isError ? (
        <PageError
          title={t('statistics.error_title')}
          description={t(errorMessageKey(stats.error), { ns: 'common' })}
          onRetry={() => void stats.refetch()}
        />
      ) : !data ? (
        <PageLoading />
      ) : (
        <Flex vertical gap={16}>
          <Typography.Text type="secondary" data-testid="statistics-range-shown">
            {t('statistics.range_shown', {
              from: formatUtcDay(data.range.from, lang),
              to: formatUtcDay(data.range.to, lang),
            })}
          </Typography.Text>
          <Row gutter={[16, 16]} role="list" aria-label={t('statistics.totals_label')}>
            {TOTALS.map(({ key, icon, color }) => (
              <Col xs={24} md={8} key={key} role="listitem">
                <Card size="small">
                  <Flex align="center" gap={16}>
                    <span style={{ fontSize: 24, color: token[color] }} aria-hidden>
                      {icon}
                    </span>
                    <div>
                      <div id={`${base}-total-${key}`} style={{ color: token.colorTextSecondary }}>
                        {t(`statistics.series.${key}`)}
                      </div>
                      <div
                        aria-labelledby={`${base}-total-${key}`}
                        data-testid={`statistics-total-${key}`}
                        style={{ fontSize: 26, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
                      >
                        {formatCount(data.totals[key], lang)}
                      </div>
                    </div>
                  </Flex>
                </Card>
              </Col>
            ))}
          </Row>
          <Card size="small" title={t('statistics.risk_title')} data-testid="statistics-risk">
            <Flex wrap gap={24} role="list" aria-label={t('statistics.risk_title')}>
              {RISK_KEYS.map((k) => (
                <Flex key={k} align="center" gap={8} role="listitem" data-testid={`statistics-risk-${k}`}>
                  <span
                    aria-hidden
                    data-color={RISK_COLORS[k]}
                    style={{ width: 12, height: 12, borderRadius: 6, background: RISK_COLORS[k] }}
                  />
                  <span>{t(`statistics.risk_levels.${k}`)}</span>
                  <strong style={{ fontVariantNumeric: 'tabular-nums' }}>{formatCount(data.risk[k], lang)}</strong>
                </Flex>
              ))}
            </Flex>
          </Card>
          <Card size="small" data-testid="statistics-chart">
            {empty ? (
              <PageEmpty description={t('statistics.empty')} />
            ) : (
              <>
                <Suspense fallback={<PageLoading label={t('statistics.loading_chart')} />}>
                  <StatisticsChart type={view.type} pie={view.pie} data={data} />
                </Suspense>
                <StatisticsTable data={data} />
              </>
            )}
          </Card>
          <StatisticsTops params={request} />
        </Flex>
      )}
    </section>
  );
}
