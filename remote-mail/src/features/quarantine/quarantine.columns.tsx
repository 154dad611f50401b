import Flex from 'antd/es/flex';
import type { ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { formatDateTime, VisuallyHidden } from '@qc/ui';
import type { TFunction } from 'i18next';
import { Link } from 'react-router-dom';
import { revealBidi } from '../email/bidi';
import { HomographNote } from '../email/HomographNote';
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
import { EMAIL_STATUSES, HELD, type QuarantineItem, type SortKey, type SortOrder } from './quarantine.types';
import { RowMenu } from './RowMenu';

const ELLIPSIS = { overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap', minWidth: 0 } as const;

/** What the list is sorted by (server-side): a column key and its direction. */
export interface ListSort {
  by: SortKey;
  order: SortOrder;
}

export interface ColumnOptions {
  /** False for a `user`: the recipient is always their own address, so it is not shown. */
  showRecipients: boolean;
  sort: ListSort;
}

const antdOrder = (sort: ListSort, key: SortKey) =>
  sort.by === key ? (sort.order === 'asc' ? ('ascend' as const) : ('descend' as const)) : null;

/**
 * The quarantine list's columns in this language: one stacked cell per row on a phone. Built once
 * per language and layout by the page (useMemo), so a selection click does not render every cell again.
 */
export function quarantineColumns(
  t: TFunction<'mail'>,
  lang: string,
  phone: boolean,
  onNotSpam: (item: QuarantineItem) => void,
  { showRecipients, sort }: ColumnOptions,
): ColumnsType<QuarantineItem> {
  // Server-side sort (antd's sorter: true, controlled): the page asks the api again on change.
  // The first click on a column sorts it descending (highest score, newest, largest first).
  const sortable = (key: SortKey) => ({
    sorter: true,
    sortOrder: antdOrder(sort, key),
    sortDirections: ['descend' as const, 'ascend' as const, 'descend' as const],
    showSorterTooltip: false,
  });
  const menuCell = (item: QuarantineItem) => <RowMenu item={item} t={t} onNotSpam={onNotSpam} />;
  const dateCell = (v: string) => <time dateTime={v}>{formatDateTime(v, lang)}</time>;
  // The first address is cut with an ellipsis; the "+N" tag after it never is.
  const recipientsCell = (item: QuarantineItem) => {
    const v = item.recipients;
    const more = Math.max(item.recipient_count ?? v.length, v.length) - 1;
    return (
      <Flex align="center" gap={6} style={{ minWidth: 0 }} title={v.join(', ')}>
        <span style={ELLIPSIS}>{v[0] ?? t('none')}</span>
        {more > 0 ? (
          <Tag style={{ marginInlineEnd: 0, flex: 'none' }} data-testid="quarantine-more-recipients">
            {t('quarantine.more_recipients', { count: more })}
          </Tag>
        ) : null}
      </Flex>
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

  // Fixed layout (like History): the subject takes what the fixed columns leave, so it keeps the
  // room (about 290 px at 1440 px with the drawer open); a long subject is cut with an ellipsis (full
  // text in its title) and cannot widen the table; below its minimum width the table scrolls. The
  // sender and (not for a user) the first recipient share one column, one above the other. On a
  // phone each row is one stacked cell: subject, sender and first recipient, then date, score, status.
  return phone
    ? [
        {
          key: 'summary',
          title: t('quarantine.columns.message'),
          render: (_: unknown, item) => (
            <Flex vertical gap={4} style={{ minWidth: 0 }} data-testid="quarantine-summary">
              {subjectCell(item)}
              <Flex align="center" style={{ minWidth: 0, fontSize: 12 }}>
                <Typography.Text type="secondary" ellipsis style={{ fontSize: 12, flex: 'none', maxWidth: '50%' }}>
                  <span title={revealBidi(item.sender)}>{revealBidi(item.sender)}</span>
                </Typography.Text>
                {showRecipients ? (
                  <>
                    <Typography.Text type="secondary" style={{ fontSize: 12, flex: 'none', whiteSpace: 'pre' }}>
                      {' → '}
                    </Typography.Text>
                    <Typography.Text type="secondary" style={{ fontSize: 12, minWidth: 0 }}>
                      {recipientsCell(item)}
                    </Typography.Text>
                  </>
                ) : null}
              </Flex>
              <HomographNote address={item.sender} />
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
          ...sortable('date'),
        },
        {
          key: 'sender',
          title: showRecipients ? t('quarantine.columns.sender_recipients') : t('quarantine.columns.sender'),
          dataIndex: 'sender',
          width: 184,
          render: (v: string, item) => (
            <Flex vertical style={{ minWidth: 0 }}>
              <span title={revealBidi(v)} style={ELLIPSIS}>
                {revealBidi(v)}
              </span>
              <HomographNote address={v} />
              {showRecipients ? (
                <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="quarantine-recipients">
                  {recipientsCell(item)}
                </Typography.Text>
              ) : null}
            </Flex>
          ),
          ...sortable('sender'),
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
          width: 84,
          align: 'right',
          render: scoreCell,
          ...sortable('score'),
        },
        {
          key: 'action',
          title: t('quarantine.columns.action'),
          dataIndex: 'action',
          width: 124,
          render: (v: string) =>
            isKnownAction(v) ? <Tag color={ACTION_COLORS[v]}>{t(`actions.${v}`)}</Tag> : <Tag>{v}</Tag>,
        },
        {
          key: 'status',
          title: t('quarantine.columns.status'),
          dataIndex: 'status',
          width: 136,
          render: (_: QuarantineItem['status'], item) => statusCell(item),
        },
        {
          key: 'size',
          title: t('quarantine.columns.size'),
          dataIndex: 'size',
          width: 96,
          align: 'right',
          render: (v: number) => formatSize(v, lang),
          ...sortable('size'),
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
