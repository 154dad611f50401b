import Alert from 'antd/es/alert';
import Flex from 'antd/es/flex';
import Select from 'antd/es/select';
import type { SorterResult } from 'antd/es/table/interface';
import Typography from 'antd/es/typography';
import { useSession } from '@qc/auth';
import { useQueryClient } from '@tanstack/react-query';
import { KeysetList, PageHeader, ReloadButton, useKeysetNavigation, usePhoneLayout, useThemeToken } from '@qc/ui';
import { usePreferences } from '@qc/ui-state';
import {
  useCallback,
  useMemo,
  useState,
  type Key,
  type HTMLAttributes,
  type KeyboardEvent,
  type MouseEvent,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { BulkActions, BulkOutcomeAlert, type BulkOutcome } from './BulkActions';
import { revealBidi, shownSubject } from '../email/bidi';
import { useToday } from '../filters/useToday';
import { quarantineColumns } from './quarantine.columns';
import { FiltersBar } from './FiltersBar';
import { NotSpamDialog, type NotSpamTarget } from '../email/NotSpamDialog';
import { ROW_MENU_CLASS } from './RowMenu';
import {
  DEFAULT_FILTERS,
  patchFilters,
  readFilters,
  scoreRangeReversed,
  toListQuery,
  writeFilters,
  type QuarantineFilters,
} from './quarantine.filters';
import { quarantineKeys, useQuarantineList } from './quarantine.queries';
import {
  HELD,
  LIMITS,
  PAGE_SIZES,
  SORT_KEYS,
  type QuarantineItem,
  type QuarantineList,
  type SortKey,
} from './quarantine.types';

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
  // A reversed score range: the api would answer 400; the fields say so and nothing is asked.
  const reversed = scoreRangeReversed(filters);
  const list = useQuarantineList(query, !reversed);
  const role = useSession((s) => s.user?.role);
  // The count comes with the first page (no cursor): the next pages show the one it brought.
  const queryClient = useQueryClient();
  // (Not the previous filters' count while the new page loads: that one is placeholder data.)
  const firstPage = list.isPlaceholderData
    ? undefined
    : ((list.data?.total ? list.data : undefined) ??
      queryClient.getQueryData<QuarantineList>(quarantineKeys.list({ ...query, cursor: undefined })));
  const total = firstPage?.total;
  const [selected, setSelected] = useState<Key[]>([]);
  const [outcome, setOutcome] = useState<BulkOutcome | null>(null);

  const { show, pager } = useKeysetNavigation(filters, writeFilters, list);
  const change = (patch: Partial<QuarantineFilters>) => show(patchFilters(filters, patch));
  // The selection belongs to the page shown: it is dropped when the page or the filters change.
  const [selectionOf, setSelectionOf] = useState(query);
  if (selectionOf !== query) {
    setSelectionOf(query);
    setSelected([]);
  }
  const open = useCallback(
    (item: QuarantineItem) =>
      navigate(encodeURIComponent(item.id), { state: { fromList: true } satisfies DetailLinkState }),
    [navigate],
  );

  const sizes = [...new Set<number>([...PAGE_SIZES, preferred])]
    .filter((n) => n <= MAX_PAGE_SIZE)
    .sort((a, b) => a - b);

  // Built once per language and layout: rebuilt on every render, they made antd render every cell
  // of every row again on each selection click or refetch (200 rows: seconds on a slow machine).
  const [notSpam, setNotSpam] = useState<NotSpamTarget | null>(null);
  // A user's recipient is always their own address: no Recipients column for them.
  const showRecipients = role !== 'user';
  const { sort, order } = filters;
  const columns = useMemo(
    () =>
      quarantineColumns(t, lang, phone, (item) => setNotSpam({ id: item.id, sender: item.sender }), {
        showRecipients,
        sort: { by: sort, order },
      }),
    [t, lang, phone, showRecipients, sort, order],
  );
  // antd's sorter, controlled: a header click asks the api for the first page in that order.
  const onSort = (sorter: SorterResult<QuarantineItem> | SorterResult<QuarantineItem>[]) => {
    const s = Array.isArray(sorter) ? sorter[0] : sorter;
    const key = s?.columnKey as SortKey | undefined;
    if (!s?.order || !key || !(SORT_KEYS as readonly string[]).includes(key)) {
      change({ sort: DEFAULT_FILTERS.sort, order: DEFAULT_FILTERS.order });
    } else change({ sort: key, order: s.order === 'ascend' ? 'asc' : 'desc' });
  };

  const rowProps = useCallback(
    (item: QuarantineItem) =>
      ({
        tabIndex: 0,
        className: 'qc-quarantine-row',
        'data-testid': 'quarantine-row',
        style: { cursor: 'pointer' },
        onClick: (e: MouseEvent<HTMLElement>) => {
          // The subject link navigates itself; the selection checkbox only selects; the row menu
          // (its items are in a portal: their clicks reach the row through React) opens its menu.
          if (!e.currentTarget.contains(e.target as Node)) return;
          if ((e.target as HTMLElement).closest(`a, .ant-table-selection-column, .${ROW_MENU_CLASS}`)) return;
          open(item);
        },
        onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
          if (!e.currentTarget.contains(e.target as Node)) return;
          if (e.key === 'Enter' && e.target === e.currentTarget) {
            e.preventDefault();
            open(item);
          }
        },
      }) as HTMLAttributes<HTMLElement>,
    [open],
  );

  const rowSelection = useMemo(
    () => ({
      selectedRowKeys: selected,
      onChange: setSelected,
      // antd names it "Select all" in English whatever the language; it selects this page only.
      getTitleCheckboxProps: () => ({ 'aria-label': t('quarantine.bulk.select_page') }),
      getCheckboxProps: (item: QuarantineItem) => ({
        disabled: !HELD.includes(item.status),
        // Named by subject (or "no subject") and sender: no internal id, and rows without a
        // subject stay told apart.
        'aria-label': t('quarantine.bulk.select_row', {
          subject: shownSubject(item.subject, t('no_subject')),
          sender: item.sender ? revealBidi(item.sender) : t('none'),
        }),
      }),
    }),
    [selected, t],
  );

  const bulkActions = (
    <BulkActions
      items={(list.data?.results ?? []).filter((item) => selected.includes(item.id))}
      onDone={() => setSelected([])}
      onOutcome={setOutcome}
    />
  );
  // On a phone the header is far above the rows being ticked: once some are, Release/Delete move
  // to a bar that sticks to the bottom of the screen while the list scrolls.
  const stickyBulk = phone && selected.length > 0;

  return (
    <section aria-labelledby="quarantine-title" data-testid="quarantine-page">
      <PageHeader
        title={<span id="quarantine-title">{t('quarantine.title')}</span>}
        description={t(
          role === 'user'
            ? 'quarantine.description_user'
            : role === 'domain_admin'
              ? 'quarantine.description_domain_admin'
              : 'quarantine.description',
        )}
        extra={
          <Flex gap={8} wrap>
            {stickyBulk ? null : bulkActions}
            <ReloadButton query={list} label={t('quarantine.reload')} testId="quarantine-reload" />
          </Flex>
        }
      />
      <FiltersBar filters={filters} onChange={change} />
      <NotSpamDialog target={notSpam} onClose={() => setNotSpam(null)} />
      {outcome ? <BulkOutcomeAlert outcome={outcome} onClose={() => setOutcome(null)} /> : null}
      <style>{`.qc-quarantine-row:focus-visible{outline:none}.qc-quarantine-row:focus-visible>td{box-shadow:inset 0 2px 0 ${token.colorPrimary},inset 0 -2px 0 ${token.colorPrimary}}`}</style>
      {total && !reversed ? (
        <Typography.Text type="secondary" aria-live="polite" data-testid="quarantine-total">
          {total.exact
            ? t('quarantine.total', { count: total.count, n: total.count.toLocaleString(lang) })
            : t('quarantine.total_over', { count: total.count, n: total.count.toLocaleString(lang) })}
        </Typography.Text>
      ) : null}
      {reversed ? (
        <Alert
          type="error"
          showIcon
          title={t('quarantine.filters.score_reversed')}
          style={{ marginTop: 16 }}
          data-testid="quarantine-score-reversed"
        />
      ) : (
        <KeysetList<QuarantineItem>
          list={list}
          pager={pager}
          testPrefix="quarantine"
          errorTitle={t('quarantine.error_title')}
          emptyText={t('quarantine.empty')}
          pagerLabel={t('quarantine.pager.label')}
          // The fixed columns (~870 px) and a little subject: a 1280 px screen with the drawer open and
          // the feedback button's gutter leaves 952 px, no horizontal scroll there.
          minWidth={920}
          columns={columns}
          onRow={rowProps}
          rowSelection={rowSelection}
          onChange={(_pagination, _filters, sorter) => onSort(sorter)}
          aria-label={t('quarantine.table_label')}
          pagerStart={
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
          }
        />
      )}
      {stickyBulk ? (
        <div
          style={{
            position: 'sticky',
            bottom: 0,
            zIndex: 10,
            marginInline: -12,
            padding: '8px 12px',
            background: token.colorBgContainer,
            borderTop: `1px solid ${token.colorBorderSecondary}`,
            boxShadow: token.boxShadowSecondary,
          }}
          data-testid="quarantine-bulk-bar"
        >
          {bulkActions}
        </div>
      ) : null}
    </section>
  );
}
