import { ReloadOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Select from 'antd/es/select';
import Table, { type ColumnsType } from 'antd/es/table';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import { errorMessageKey } from '@qc/api-client';
import {
  formatDateTime,
  PageEmpty,
  PageError,
  PageHeader,
  usePhoneLayout,
  useThemeToken,
  VisuallyHidden,
} from '@qc/ui';
import { usePreferences } from '@qc/ui-state';
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type Key,
  type HTMLAttributes,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { KeysetPagerButtons, useKeysetPager, type PagerState } from '../paging/useKeysetPager';
import { BulkActions, BulkOutcomeAlert, type BulkOutcome } from './BulkActions';
import { revealBidi, shownSubject } from '../email/bidi';
import { useToday } from '../filters/useToday';
import { FiltersBar } from './FiltersBar';
import { patchFilters, readFilters, toListQuery, writeFilters, type QuarantineFilters } from './quarantine.filters';
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
import { useQuarantineList } from './quarantine.queries';
import { EMAIL_STATUSES, HELD, LIMITS, PAGE_SIZES, type QuarantineItem } from './quarantine.types';

const MAX_PAGE_SIZE = LIMITS.maxPageSize;

/** Opened from the list: the detail's "Back" returns to this very page (filters, cursor, stack). */
export interface DetailLinkState {
  fromList: true;
}

/** Spec §2 `mail`: the quarantine list. Filters, page size and cursor live in the URL. */
export function QuarantinePage() {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const token = useThemeToken();
  const phone = usePhoneLayout();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const filters = useMemo(() => readFilters(params), [params]);
  const preferred = usePreferences((s) => s.preferences.defaultPageSize);
  const pageSize = Math.min(filters.pageSize ?? preferred, MAX_PAGE_SIZE);
  const now = useToday();
  const query = useMemo(() => toListQuery(filters, pageSize, now), [filters, pageSize, now]);
  const list = useQuarantineList(query);
  const [selected, setSelected] = useState<Key[]>([]);
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);

  const show = (next: QuarantineFilters, state: PagerState = { cursors: [] }) => {
    const search = writeFilters(next).toString();
    navigate({ search: search ? `?${search}` : '' }, { state });
  };
  const change = (patch: Partial<QuarantineFilters>) => show(patchFilters(filters, patch));
  const nextCursor = list.data && !list.isPlaceholderData ? list.data.next_cursor : null;
  const pager = useKeysetPager(filters.cursor, nextCursor, (cursor, state) => show({ ...filters, cursor }, state));
  // The selection belongs to the page shown: it is dropped when the page or the filters change.
  const [selectionOf, setSelectionOf] = useState(query);
  if (selectionOf !== query) {
    setSelectionOf(query);
    setSelected([]);
  }
  const open = (item: QuarantineItem) =>
    navigate(encodeURIComponent(item.id), { state: { fromList: true } satisfies DetailLinkState });

  const sizes = [...new Set<number>([...PAGE_SIZES, preferred])]
    .filter((n) => n <= MAX_PAGE_SIZE)
    .sort((a, b) => a - b);

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
  const columns: ColumnsType<QuarantineItem> = phone
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
      ];

  const rowProps = (item: QuarantineItem) =>
    ({
      tabIndex: 0,
      className: 'qc-quarantine-row',
      'data-testid': 'quarantine-row',
      style: { cursor: 'pointer' },
      onClick: (e: MouseEvent<HTMLElement>) => {
        // The subject link navigates itself; the selection checkbox only selects.
        if ((e.target as HTMLElement).closest('a, .ant-table-selection-column')) return;
        open(item);
      },
      onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
        if (e.key === 'Enter' && e.target === e.currentTarget) {
          e.preventDefault();
          open(item);
        }
      },
    }) as HTMLAttributes<HTMLElement>;

  // antd copies the column titles, the "select this page" checkbox included, into a hidden row it
  // measures widths with (aria-hidden, 0 px high): that copy was a Tab stop leading nowhere.
  const section = useRef<HTMLElement>(null);
  useEffect(() => {
    section.current?.querySelectorAll('.ant-table-measure-row').forEach((row) => row.setAttribute('inert', ''));
  });

  return (
    <section ref={section} aria-labelledby="quarantine-title" data-testid="quarantine-page">
      <PageHeader
        title={<span id="quarantine-title">{t('quarantine.title')}</span>}
        description={t('quarantine.description')}
        extra={
          <Flex gap={8} wrap>
            <BulkActions
              items={(list.data?.results ?? []).filter((item) => selected.includes(item.id))}
              onDone={() => setSelected([])}
              onOutcome={setOutcome}
            />
            <Button
              icon={<ReloadOutlined aria-hidden spin={list.isFetching} />}
              onClick={() => void list.refetch()}
              data-testid="quarantine-reload"
            >
              {t('quarantine.reload')}
            </Button>
          </Flex>
        }
      />
      <FiltersBar filters={filters} onChange={change} />
      {outcome ? <BulkOutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} /> : null}
      {list.isError ? (
        <PageError
          title={t('quarantine.error_title')}
          description={t(errorMessageKey(list.error), { ns: 'common' })}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <>
          <style>{`.qc-quarantine-row:focus-visible{outline:none}.qc-quarantine-row:focus-visible>td{box-shadow:inset 0 2px 0 ${token.colorPrimary},inset 0 -2px 0 ${token.colorPrimary}}`}</style>
          <Table<QuarantineItem>
            rowKey="id"
            columns={columns}
            dataSource={list.data?.results ?? []}
            loading={list.isFetching}
            pagination={false}
            size="middle"
            tableLayout="fixed"
            scroll={phone ? undefined : { x: 960 }}
            onRow={rowProps}
            rowSelection={{
              selectedRowKeys: selected,
              onChange: setSelected,
              // antd names it "Select all" in English whatever the language; it selects this page only.
              getTitleCheckboxProps: () => ({ 'aria-label': t('quarantine.bulk.select_page') }),
              getCheckboxProps: (item) => ({
                disabled: !HELD.includes(item.status),
                // Named by subject (or "no subject") and sender: no internal id, and rows without a
                // subject stay told apart.
                'aria-label': t('quarantine.bulk.select_row', {
                  subject: shownSubject(item.subject, t('no_subject')),
                  sender: item.sender ? revealBidi(item.sender) : t('none'),
                }),
              }),
            }}
            aria-label={t('quarantine.table_label')}
            locale={{ emptyText: list.isPending ? ' ' : <PageEmpty description={t('quarantine.empty')} /> }}
            data-testid="quarantine-table"
          />
          <Flex
            justify="space-between"
            align="center"
            gap={12}
            wrap
            style={{ marginTop: 16 }}
            role="navigation"
            aria-label={t('quarantine.pager.label')}
          >
            <Flex align="center" gap={8}>
              <label htmlFor="qc-quarantine-page-size">{t('quarantine.pager.page_size')}</label>
              <Select<number>
                id="qc-quarantine-page-size"
                value={pageSize}
                onChange={(size) => change({ pageSize: size === preferred ? null : size })}
                options={sizes.map((n) => ({ value: n, label: String(n) }))}
                style={{ width: 90 }}
                data-testid="quarantine-page-size"
              />
            </Flex>
            <KeysetPagerButtons pager={pager} testPrefix="quarantine" />
          </Flex>
        </>
      )}
    </section>
  );
}
