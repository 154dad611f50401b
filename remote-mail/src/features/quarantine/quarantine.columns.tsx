import Flex from 'antd/es/flex';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { formatDateTime, VisuallyHidden } from '@qc/ui';
import type { TFunction } from 'i18next';
import { Link } from 'react-router-dom';
import { revealBidi } from '../email/bidi';
import {
  ACTION_COLORS,
  CELL_LINK,
  formatScore,
  formatSize,
  isKnownAction,
  SCORE_COLORS,
  scoreBand,
  STATUS_COLORS,
} from './quarantine.format';
import { EMAIL_STATUSES, HELD, type QuarantineItem } from './quarantine.types';
import { RowMenu } from './RowMenu';

/**
 * The quarantine list's columns in this language: one stacked cell per row on a phone. Built once
 * per language and layout by the page (useMemo), so a selection click does not render every cell again.
 */
export function quarantineColumns(
  t: TFunction<'mail'>,
  lang: string,
  phone: boolean,
  onNotSpam: (item: QuarantineItem) => void,
): ColumnsType<QuarantineItem> {
  const menuCell = (item: QuarantineItem) => <RowMenu item={item} t={t} onNotSpam={onNotSpam} />;
  const dateCell = (v: string) => <time dateTime={v}>{formatDateTime(v, lang)}</time>;
  const recipientsCell = (item: QuarantineItem) => {
    const v = item.recipients;
    const more = Math.max(item.recipient_count ?? v.length, v.length) - 1;
    return (
      <span title={v.join(', ')}>
        {v[0] ?? t('none')}
        {more > 0 ? (
          <Tag style={{ marginInlineStart: 6 }}>{t('quarantine.more_recipients', { count: more })}</Tag>
        ) : null}
      </span>
    );
  };
  const subjectCell = (item: QuarantineItem) => (
    // Not a tab stop (the row is): kept as a link for middle-click / open in a new tab. As wide
    // as its cell and cut there, so the whole cell is the link and none of it hides under the
    // next column.
    <Link
      to={encodeURIComponent(item.id)}
      state={{ fromList: true }}
      tabIndex={-1}
      title={item.subject === null ? undefined : revealBidi(item.subject)}
      style={CELL_LINK}
    >
      {item.subject !== null ? (
        revealBidi(item.subject)
      ) : (
        <Typography.Text type="secondary" italic>
          {t('no_subject')}
        </Typography.Text>
      )}
    </Link>
  );
  const scoreCell = (v: number | null) => {
    if (v === null || v === undefined) return t('none');
    const band = scoreBand(v);
    const label = t('score_label', { score: formatScore(v, lang), band: t(`score_bands.${band}`) });
    return (
      <Tag color={SCORE_COLORS[band]} title={label} aria-label={label} data-band={band} style={{ marginInlineEnd: 0 }}>
        {formatScore(v, lang)}
      </Tag>
    );
  };
  // Still held but past retention: it can only be deleted now, which the status alone would not say.
  // Recipients in several statuses (one released, one held): how many in each, in words, under
  // the tag, since the tag shows the status that still needs action.
  const statusCell = ({ status, raw_available, status_counts }: QuarantineItem) => (
    <Flex wrap gap={4} align="center">
      <Tag color={STATUS_COLORS[status] ?? 'default'} style={{ marginInlineEnd: 0 }}>
        {t(`statuses.${status}`, { defaultValue: status })}
      </Tag>
      {!raw_available && HELD.includes(status) ? (
        <Tag title={t('quarantine.purged_help')} style={{ marginInlineEnd: 0 }} data-testid="quarantine-purged">
          {t('quarantine.purged')}
          {/* The tooltip is for a mouse; a screen reader reads why with the tag. */}
          <VisuallyHidden>{` (${t('quarantine.purged_help')})`}</VisuallyHidden>
        </Tag>
      ) : null}
      {status_counts ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="quarantine-status-counts">
          {EMAIL_STATUSES.filter((s) => status_counts[s])
            .map((s) => t('quarantine.status_count', { status: t(`statuses.${s}`), count: status_counts[s] }))
            .join(' · ')}
        </Typography.Text>
      ) : null}
    </Flex>
  );

  // Fixed layout (like History): sender, recipients and subject share what the fixed columns
  // leave and cut long text with an ellipsis (full text in their own title), so a long subject
  // cannot widen the table past the page; below its minimum width it scrolls. On a phone, each
  // row is one stacked cell instead: subject, sender and first recipient, then date, score, status.
  return phone
    ? [
        {
          key: 'summary',
          title: t('quarantine.columns.message'),
          render: (_: unknown, item) => (
            <Flex vertical gap={4} style={{ minWidth: 0 }} data-testid="quarantine-summary">
              {subjectCell(item)}
              <Typography.Text type="secondary" ellipsis style={{ fontSize: 12 }}>
                <span title={revealBidi(item.sender)}>{revealBidi(item.sender)}</span> → {recipientsCell(item)}
              </Typography.Text>
              <Flex wrap gap={6} align="center" style={{ fontSize: 12 }}>
                {dateCell(item.received_at)}
                {scoreCell(item.score)}
                {statusCell(item)}
                {menuCell(item)}
              </Flex>
            </Flex>
          ),
        },
      ]
    : [
        {
          key: 'date',
          title: t('quarantine.columns.date'),
          dataIndex: 'received_at',
          render: dateCell,
          width: 150,
        },
        {
          key: 'sender',
          title: t('quarantine.columns.sender'),
          dataIndex: 'sender',
          ellipsis: { showTitle: false },
          render: (v: string) => <span title={revealBidi(v)}>{revealBidi(v)}</span>,
        },
        {
          key: 'recipients',
          title: t('quarantine.columns.recipients'),
          dataIndex: 'recipients',
          ellipsis: { showTitle: false },
          render: (_: string[], item) => recipientsCell(item),
        },
        {
          key: 'subject',
          title: t('quarantine.columns.subject'),
          dataIndex: 'subject',
          ellipsis: { showTitle: false },
          render: (_: string | null, item) => subjectCell(item),
        },
        {
          key: 'score',
          title: t('quarantine.columns.score'),
          dataIndex: 'score',
          width: 80,
          align: 'right',
          render: scoreCell,
        },
        {
          key: 'action',
          title: t('quarantine.columns.action'),
          dataIndex: 'action',
          width: 130,
          render: (v: string) =>
            isKnownAction(v) ? <Tag color={ACTION_COLORS[v]}>{t(`actions.${v}`)}</Tag> : <Tag>{v}</Tag>,
        },
        {
          key: 'status',
          title: t('quarantine.columns.status'),
          dataIndex: 'status',
          width: 150,
          render: (_: QuarantineItem['status'], item) => statusCell(item),
        },
        {
          key: 'size',
          title: t('quarantine.columns.size'),
          dataIndex: 'size',
          width: 90,
          align: 'right',
          render: (v: number) => formatSize(v, lang),
        },
        {
          key: 'menu',
          title: <VisuallyHidden>{t('quarantine.columns.menu')}</VisuallyHidden>,
          width: 48,
          align: 'center',
          render: (_: unknown, item) => menuCell(item),
        },
      ];
}
