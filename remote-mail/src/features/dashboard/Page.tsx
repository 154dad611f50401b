import { CheckCircleOutlined, DeleteOutlined, InboxOutlined, ReloadOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import { errorMessageKey } from '@qc/api-client';
import type { DashboardCounts, StatisticsPeriod } from '@qc/contracts';
import { PageError, PageHeader, useThemeToken } from '@qc/ui';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import { useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../quarantine/quarantine.format';
import { useStatistics } from '../statistics/statistics.queries';
import { daysOfRange, RANGES, type StatisticsRange } from '../statistics/statistics.view';
import { useDashboardCounts } from './dashboard.queries';
import { TrendChart } from './TrendChart';

/** Tall enough for a readable plot under one line of day labels (no legend: a single series). */
const TREND_HEIGHT = 240;
/** The trend's periods (spec §9 chart periods), each under its statistics range's name. */
const TREND_PERIODS = RANGES.filter((r): r is Exclude<StatisticsRange, 'custom'> => r !== 'custom');

/**
 * Quarantined e-mail per day over a chosen period, 7 days at first (hidden while loading or on
 * error: the counts matter more). A failed refresh keeps the last answer in the cache: shown beside
 * the counts' error, it would pass for current.
 */
function Trend() {
  const { t } = useTranslation('mail');
  const [days, setDays] = useState<StatisticsPeriod>(7);
  const params = useMemo(() => ({ days: String(days) }), [days]);
  const stats = useStatistics(params);
  const selectId = useId();
  if (stats.isError || !Array.isArray(stats.data?.days)) return null;
  return (
    <Card
      size="small"
      title={t('statistics.trend_title', { days })}
      extra={
        <Select<StatisticsPeriod>
          id={selectId}
          size="small"
          value={days}
          onChange={setDays}
          aria-label={t('dashboard.trend_period')}
          popupMatchSelectWidth={false}
          options={TREND_PERIODS.map((r) => ({ value: daysOfRange(r), label: t(`statistics.ranges.${r}`) }))}
          data-testid="dashboard-trend-period"
        />
      }
      style={{ marginTop: 16 }}
      data-testid="dashboard-trend"
    >
      {/* Our own small SVG, not the charts library: that loads only on the statistics page (issue 22). */}
      <TrendChart days={stats.data!.days} period={days} height={TREND_HEIGHT} />
    </Card>
  );
}

const CARDS: { key: keyof DashboardCounts; icon: ReactNode; color: 'colorWarning' | 'colorSuccess' | 'colorError' }[] =
  [
    { key: 'pending', icon: <InboxOutlined aria-hidden />, color: 'colorWarning' },
    { key: 'released', icon: <CheckCircleOutlined aria-hidden />, color: 'colorSuccess' },
    { key: 'deleted', icon: <DeleteOutlined aria-hidden />, color: 'colorError' },
  ];

/** Dashboard (spec §2): counts of pending, released and deleted e-mail. */
export function DashboardPage() {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const token = useThemeToken();
  const queryClient = useQueryClient();
  const fetching = useIsFetching() > 0;
  const counts = useDashboardCounts();

  // Refetches every active query at once (the counts, the current user...): one refresh serves them all.
  const reloadAll = () => void queryClient.invalidateQueries();

  return (
    <section aria-labelledby="dashboard-title">
      <PageHeader
        title={<span id="dashboard-title">{t('dashboard.title')}</span>}
        description={t('dashboard.description')}
        extra={
          <Button
            icon={<ReloadOutlined aria-hidden spin={fetching} />}
            aria-label={t('dashboard.reload')}
            onClick={reloadAll}
            data-testid="dashboard-reload"
          >
            {t('dashboard.reload')}
          </Button>
        }
      />
      {counts.isError ? (
        <PageError
          title={t('dashboard.error_title')}
          description={t(errorMessageKey(counts.error), { ns: 'common' })}
          onRetry={() => void counts.refetch()}
        />
      ) : (
        <Row gutter={[16, 16]} role="list" aria-label={t('dashboard.counts_label')}>
          {CARDS.map(({ key, icon, color }) => (
            <Col xs={24} md={8} key={key} role="listitem">
              <Card loading={counts.isPending} data-testid={`dashboard-card-${key}`}>
                <div style={{ display: 'flex', alignItems: 'center', gap: 16 }}>
                  <span style={{ fontSize: 28, color: token[color] }} aria-hidden>
                    {icon}
                  </span>
                  <div>
                    <div id={`dashboard-label-${key}`} style={{ color: token.colorTextSecondary }}>
                      {t(`dashboard.${key}`)}
                    </div>
                    <div
                      data-testid={`dashboard-count-${key}`}
                      aria-labelledby={`dashboard-label-${key}`}
                      style={{ fontSize: 30, fontWeight: 600, lineHeight: 1.2, fontVariantNumeric: 'tabular-nums' }}
                    >
                      {counts.data ? formatCount(counts.data[key], lang) : ''}
                    </div>
                  </div>
                </div>
              </Card>
            </Col>
          ))}
        </Row>
      )}
      <Trend />
    </section>
  );
}
