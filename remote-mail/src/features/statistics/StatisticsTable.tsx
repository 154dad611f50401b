import Table from 'antd/es/table';
import type { Statistics } from '@qc/contracts';
import { formatUtcDay } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../quarantine/quarantine.format';

const SERIES = ['quarantined', 'released', 'deleted'] as const;

/**
 * The chart's numbers as a table, behind a disclosure: the chart is a canvas that screen readers
 * cannot read, and an admin may want the exact count of a day. Newest day first.
 */
export function StatisticsTable({ data }: { data: Statistics }) {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const days = [...data.days].reverse();
  return (
    <details data-testid="statistics-data" style={{ marginTop: 12 }}>
      <summary style={{ cursor: 'pointer' }}>{t('statistics.data_table.show')}</summary>
      <Table
        rowKey="date"
        size="small"
        style={{ marginTop: 8 }}
        // On a phone the four columns may not fit: the table scrolls within its card, never the page.
        scroll={{ x: 'max-content' }}
        aria-label={t('statistics.data_table.label')}
        dataSource={days}
        pagination={days.length > 31 ? { pageSize: 31, showSizeChanger: false } : false}
        columns={[
          {
            key: 'date',
            title: t('statistics.data_table.day'),
            dataIndex: 'date',
            // One line per day: "22 nov. 2026" wrapped over three made 30 days a very long page.
            render: (d: string) => <span style={{ whiteSpace: 'nowrap' }}>{formatUtcDay(d, lang)}</span>,
          },
          ...SERIES.map((s) => ({
            key: s,
            title: t(`statistics.series.${s}`),
            dataIndex: s,
            align: 'right' as const,
            render: (n: number) => formatCount(n, lang),
          })),
        ]}
      />
    </details>
  );
}
