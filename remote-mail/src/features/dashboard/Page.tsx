import { CheckCircleOutlined, DeleteOutlined, InboxOutlined, ReloadOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Row from 'antd/es/row';
import { errorMessageKey } from '@qc/api-client';
import type { DashboardCounts } from '@qc/contracts';
import { PageError, PageHeader, useThemeToken } from '@qc/ui';
import { useIsFetching, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../quarantine/quarantine.format';
import { useStatistics } from '../statistics/statistics.queries';
import { useDashboardCounts } from './dashboard.queries';
import { TrendChart } from './TrendChart';

const TREND = { days: '7' } as const;
/** Tall enough for a readable plot under one line of day labels (no legend: a single series). */
const TREND_HEIGHT = 240;

/**
 * Quarantined e-mail of the last 7 days (hidden while loading or on error: the counts matter more).
 * A failed refresh keeps the last answer in the cache: shown beside the counts' error, it would
 * pass for current.
 */
function Trend() {
  const { t } = useTranslation('mail');
  const stats = useStatistics(TREND);
  if (stats.isError || !Array.isArray(stats.data?.days)) return null;
  return (
    <Card size="small" title={t('statistics.trend_title')} style={{ marginTop: 16 }} data-testid="dashboard-trend">
      {/* Our own small SVG, not the charts library: that loads only on the statistics page (issue 22). */}
      <TrendChart days={stats.data!.days} height={TREND_HEIGHT} />
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
