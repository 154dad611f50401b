import Card from 'antd/es/card';
import Col from 'antd/es/col';
import Flex from 'antd/es/flex';
import Row from 'antd/es/row';
import Table from 'antd/es/table';
import Typography from 'antd/es/typography';
import { errorMessageKey } from '@qc/api-client';
import type { DomainStatistics, TopItem } from '@qc/contracts';
import { PageLoading } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../quarantine/quarantine.format';
import { useStatisticsTops } from './statistics.queries';
import type { StatisticsParams } from './statistics.view';

const LISTS = ['senders', 'recipients', 'symbols'] as const;
type ListKey = (typeof LISTS)[number];

/** One top list: rank, name (cut with an ellipsis, full in its title) and count, most first. */
function TopList({ kind, items, lang }: { kind: ListKey; items: TopItem[]; lang: string }) {
  const { t } = useTranslation('mail');
  const title = t(`statistics.tops.${kind}`);
  return (
    <Card size="small" title={title} style={{ height: '100%' }} data-testid={`statistics-top-${kind}`}>
      {items.length === 0 ? (
        <Typography.Text type="secondary">{t('statistics.tops.none')}</Typography.Text>
      ) : (
        <ol aria-label={title} style={{ margin: 0, paddingInlineStart: 22 }}>
          {items.map((item) => {
            // The null sender (bounces) is stored as ''.
            const name = kind === 'senders' && item.key === '' ? t('statistics.tops.null_sender') : item.key;
            return (
              <li key={item.key} data-testid="statistics-top-item">
                <Flex justify="space-between" gap={8}>
                  <span
                    title={name}
                    style={{ minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
                  >
                    {name}
                  </span>
                  <strong style={{ fontVariantNumeric: 'tabular-nums' }}>{formatCount(item.count, lang)}</strong>
                </Flex>
              </li>
            );
          })}
        </ol>
      )}
    </Card>
  );
}

/**
 * Issue 23 #21: top senders, recipients and Rspamd symbols of the period (and, for admins, each
 * domain's counts), under the charts. Read from the api's rollup; a failure here leaves the page.
 */
export function StatisticsTops({ params }: { params: StatisticsParams }) {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const tops = useStatisticsTops(params);
  if (tops.isError) {
    return (
      <Typography.Text type="danger" role="alert" data-testid="statistics-tops-error">
        {t('statistics.tops.error')} {t(errorMessageKey(tops.error), { ns: 'common' })}
      </Typography.Text>
    );
  }
  const data = tops.data;
  // Anything but the expected shape (an older api) reads as not there yet.
  if (!data || !Array.isArray(data.senders)) return <PageLoading label={t('statistics.tops.loading')} />;
  return (
    <Flex vertical gap={16} data-testid="statistics-tops">
      <Row gutter={[16, 16]}>
        {LISTS.map((kind) => (
          <Col xs={24} lg={8} key={kind}>
            <TopList kind={kind} items={data[kind]} lang={lang} />
          </Col>
        ))}
      </Row>
      {data.domains ? (
        <Card size="small" title={t('statistics.tops.domains')} data-testid="statistics-domains">
          <Table<DomainStatistics>
            rowKey="domain"
            size="small"
            scroll={{ x: 'max-content' }}
            aria-label={t('statistics.tops.domains')}
            dataSource={data.domains}
            pagination={data.domains.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
            locale={{ emptyText: t('statistics.tops.none') }}
            columns={[
              { key: 'domain', title: t('statistics.tops.domain'), dataIndex: 'domain' },
              ...(['quarantined', 'released', 'deleted'] as const).map((s) => ({
                key: s,
                title: t(`statistics.series.${s}`),
                dataIndex: s,
                align: 'right' as const,
                render: (n: number) => formatCount(n, lang),
              })),
            ]}
          />
        </Card>
      ) : null}
    </Flex>
  );
}
