import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Flex from 'antd/es/flex';
import Row from 'antd/es/row';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { errorMessageKey } from '@qc/api-client';
import { formatUtcDay, PageEmpty, PageError, PageHeader, PageLoading, ReloadButton, retryableLazy } from '@qc/ui';
import { Suspense, useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { SeverityTag } from '../logs/SeverityTag';
import { LOG_SEVERITIES, type HarakaSummary } from '../logs/logs.types';
import { useControlChars } from '../logs/useControlChars';
import { RemoteVersion } from '../../RemoteVersion';
import { PeriodSelect } from './PeriodSelect';
import { useSummary } from './stats.queries';
import { readStatsView, writeStatsView } from './stats.view';

const HarakaChart = retryableLazy(() => import('./HarakaChart'));

/** Spec §2 `haraka/statistics/summary`: the period's lines by severity, host, origin and hour. */
export function SummaryPage() {
  const { t, i18n } = useTranslation('haraka');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const view = useMemo(() => readStatsView(params), [params]);
  const summary = useSummary(view.days);
  const base = useId();
  const count = (v: number) => new Intl.NumberFormat(lang).format(v);
  const data = summary.data;

  return (
    <section aria-labelledby="haraka-summary-title" data-testid="haraka-summary-page">
      <PageHeader
        title={<span id="haraka-summary-title">{t('summary.title')}</span>}
        description={t('summary.description')}
        extra={<ReloadButton query={summary} label={t('stats.reload')} testId="summary-reload" />}
      />
      <Flex wrap gap={12} align="flex-end" style={{ marginBottom: 16 }}>
        <PeriodSelect
          id={`${base}-days`}
          value={view.days}
          onChange={(days) => {
            const search = writeStatsView({ ...view, days }).toString();
            navigate({ search: search ? `?${search}` : '' });
          }}
        />
      </Flex>
      {summary.isError && !data ? (
        <PageError
          title={t('stats.error_title')}
          description={t(errorMessageKey(summary.error), { ns: 'common' })}
          onRetry={() => void summary.refetch()}
        />
      ) : !data ? (
        <PageLoading />
      ) : (
        <Flex vertical gap={16}>
          <Typography.Text type="secondary" data-testid="summary-range">
            {t('stats.range_shown', {
              from: formatUtcDay(data.range.from, lang),
              to: formatUtcDay(data.range.to, lang),
            })}
          </Typography.Text>
          {/* Five cards sharing the width at any size (a 24-column grid left a fifth of it empty). */}
          <Flex wrap gap={16} role="list" aria-label={t('summary.cards_label')}>
            {(['total', ...LOG_SEVERITIES] as const).map((key) => (
              <div key={key} role="listitem" style={{ flex: '1 1 120px', minWidth: 0 }}>
                <Card size="small" data-testid={`summary-card-${key}`}>
                  <div id={`${base}-card-${key}`} style={{ marginBottom: 4 }}>
                    {key === 'total' ? t('summary.total') : <SeverityTag severity={key} />}
                  </div>
                  <div
                    aria-labelledby={`${base}-card-${key}`}
                    data-testid={`summary-count-${key}`}
                    style={{ fontSize: 24, fontWeight: 600, fontVariantNumeric: 'tabular-nums' }}
                  >
                    {count(key === 'total' ? data.total : data.by_severity[key])}
                  </div>
                </Card>
              </div>
            ))}
          </Flex>
          {data.total === 0 ? (
            <PageEmpty description={t('stats.empty')} />
          ) : (
            <SummaryDetails data={data} count={count} />
          )}
        </Flex>
      )}
      <RemoteVersion />
    </section>
  );
}

function SummaryDetails({ data, count }: { data: HarakaSummary; count: (v: number) => string }) {
  const { t } = useTranslation('haraka');
  const num = (v: number) => <span style={{ fontVariantNumeric: 'tabular-nums' }}>{count(v)}</span>;
  // Wrapped, not cut: on a phone an ellipsis left "qco…" of an origin.
  const shown = useControlChars();
  const name = (v: string) => <span style={{ overflowWrap: 'anywhere' }}>{shown(v)}</span>;
  return (
    <>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('summary.top_hostnames')} data-testid="summary-top-hostnames">
            <Table
              rowKey="hostname"
              size="small"
              pagination={false}
              dataSource={data.top_hostnames}
              aria-label={t('summary.top_hostnames')}
              columns={[
                { key: 'hostname', title: t('summary.columns.hostname'), dataIndex: 'hostname', render: name },
                {
                  key: 'total',
                  title: t('summary.columns.total'),
                  dataIndex: 'total',
                  align: 'right',
                  render: num,
                },
              ]}
            />
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card size="small" title={t('summary.top_error_origins')} data-testid="summary-top-origins">
            <Table
              rowKey="origin"
              size="small"
              pagination={false}
              dataSource={data.top_error_origins}
              aria-label={t('summary.top_error_origins')}
              columns={[
                { key: 'origin', title: t('summary.columns.origin'), dataIndex: 'origin', render: name },
                {
                  key: 'errors',
                  title: t('summary.columns.errors'),
                  dataIndex: 'errors',
                  align: 'right',
                  render: num,
                },
                {
                  key: 'warnings',
                  title: t('summary.columns.warnings'),
                  dataIndex: 'warnings',
                  align: 'right',
                  render: num,
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
      <Card size="small" title={t('summary.per_hour')} data-testid="summary-per-hour">
        <div role="img" aria-label={t('summary.per_hour_label')}>
          <Suspense fallback={<PageLoading label={t('stats.loading_chart')} />}>
            <HarakaChart kind="per_hour" data={data.per_hour} height={260} />
          </Suspense>
        </div>
      </Card>
    </>
  );
}
