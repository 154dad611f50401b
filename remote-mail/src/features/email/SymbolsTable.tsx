import Table, { type ColumnsType } from 'antd/es/table';
import Typography from 'antd/es/typography';
import { TableEmptyText, usePhoneLayout, useThemeToken } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { formatScore } from '../quarantine/quarantine.format';
import type { RspamdSymbol } from '../quarantine/quarantine.types';
import { revealBidi } from './bidi';

type Column = ColumnsType<RspamdSymbol>[number];

/** The Rspamd symbols of the verdict, highest score first (sortable by score). */
export function SymbolsTable({ symbols }: { symbols: RspamdSymbol[] }) {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const token = useThemeToken();
  const phone = usePhoneLayout();

  const name = (v: string) => (
    <Typography.Text code style={{ wordBreak: 'break-all' }}>
      {v}
    </Typography.Text>
  );
  const details = (s: RspamdSymbol) => (
    <>
      {/* Options quote the message (senders, URLs): direction tricks are shown, as elsewhere. */}
      {s.description ? <div>{revealBidi(s.description)}</div> : null}
      {s.options.length ? (
        <Typography.Text type="secondary" style={{ fontSize: 12, wordBreak: 'break-word' }}>
          {revealBidi(s.options.join(', '))}
        </Typography.Text>
      ) : null}
      {!s.description && !s.options.length ? t('none') : null}
      {/* "Held by filter X": the console rule an option names (its token when deleted, or not the caller's to read). */}
      {s.rules?.map((rule) => (
        <div key={rule.token} data-testid="email-symbol-rule">
          <Typography.Text strong style={{ fontSize: 12, wordBreak: 'break-word' }}>
            {t(`email.symbols.${rule.exists ? 'held_by' : 'held_by_deleted'}.${rule.kind}`, {
              name: revealBidi(rule.label ?? rule.token),
            })}
          </Typography.Text>
        </div>
      ))}
    </>
  );
  const score: Column = {
    key: 'score',
    title: t('email.symbols.score'),
    dataIndex: 'score',
    align: 'right',
    width: phone ? 72 : 100,
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
  };

  // On a phone, two columns (the symbol with its description, options and group under it, then the
  // score) rather than four that scroll sideways.
  const columns: Column[] = phone
    ? [
        {
          key: 'symbol',
          title: t('email.symbols.symbol'),
          dataIndex: 'symbol',
          render: (v: string, s) => (
            <div data-testid="email-symbol-summary">
              {name(v)}
              {details(s)}
              {s.groups.length ? (
                <div>
                  <Typography.Text type="secondary">
                    {t('email.symbols.in_group', { count: s.groups.length, group: s.groups.join(', ') })}
                  </Typography.Text>
                </div>
              ) : null}
            </div>
          ),
        },
        score,
      ]
    : [
        { key: 'symbol', title: t('email.symbols.symbol'), dataIndex: 'symbol', render: name },
        score,
        {
          key: 'description',
          title: t('email.symbols.description'),
          dataIndex: 'description',
          render: (_: string | null, s) => details(s),
        },
        {
          key: 'group',
          title: t('email.symbols.group'),
          dataIndex: 'groups',
          width: 140,
          render: (v: string[]) => (v.length ? v.join(', ') : t('none')),
        },
      ];
  return (
    <Table<RspamdSymbol>
      rowKey="symbol"
      size="small"
      columns={columns}
      dataSource={symbols}
      pagination={false}
      scroll={phone ? undefined : { x: 'max-content' }}
      locale={{ emptyText: <TableEmptyText>{t('email.symbols.empty')}</TableEmptyText> }}
      data-testid="email-symbols"
    />
  );
}
