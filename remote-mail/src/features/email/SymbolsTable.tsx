import Table, { type ColumnsType } from 'antd/es/table';
import Typography from 'antd/es/typography';
import { TableEmptyText, useThemeToken } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { formatScore } from '../quarantine/quarantine.format';
import type { RspamdSymbol } from '../quarantine/quarantine.types';

/** The Rspamd symbols of the verdict, highest score first (sortable by score). */
export function SymbolsTable({ symbols }: { symbols: RspamdSymbol[] }) {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const token = useThemeToken();
  const columns: ColumnsType<RspamdSymbol> = [
    {
      key: 'symbol',
      title: t('email.symbols.symbol'),
      dataIndex: 'symbol',
      render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
    },
    {
      key: 'score',
      title: t('email.symbols.score'),
      dataIndex: 'score',
      align: 'right',
      width: 100,
      sorter: (a, b) => a.score - b.score,
      defaultSortOrder: 'descend',
      sortDirections: ['descend', 'ascend', 'descend'],
      render: (v: number) => (
        <span
          data-testid="email-symbol-score"
          style={{
            fontVariantNumeric: 'tabular-nums',
            color: v > 0 ? token.colorError : v < 0 ? token.colorSuccess : undefined,
          }}
        >
          {formatScore(v, lang)}
        </span>
      ),
    },
    {
      key: 'description',
      title: t('email.symbols.description'),
      dataIndex: 'description',
      render: (v: string | null, s) => (
        <>
          {v ? <div>{v}</div> : null}
          {s.options.length ? (
            <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-word' }}>
              {s.options.join(', ')}
            </Typography.Text>
          ) : null}
          {!v && !s.options.length ? t('none') : null}
        </>
      ),
    },
    {
      key: 'group',
      title: t('email.symbols.group'),
      dataIndex: 'group',
      width: 140,
      render: (v: string | null) => v || t('none'),
    },
  ];
  return (
    <Table<RspamdSymbol>
      rowKey="symbol"
      size="small"
      columns={columns}
      dataSource={symbols}
      pagination={false}
      scroll={{ x: 'max-content' }}
      locale={{ emptyText: <TableEmptyText>{t('email.symbols.empty')}</TableEmptyText> }}
      data-testid="email-symbols"
    />
  );
}
