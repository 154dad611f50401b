import { ReloadOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Table, { type TableProps } from 'antd/es/table';
import { errorMessageKey, errorMessageValues } from '@qc/api-client';
import { useEffect, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { KeysetPagerButtons, type KeysetPager } from './KeysetPager';
import { PageEmpty, PageError, ReloadFailed } from './PageStates';
import { usePhoneLayout } from './usePhoneLayout';

/** What the list views read of a react-query result (`useQuery` of a `{ results }` page). */
export interface ListQuery<T> {
  data: { results: T[] } | undefined;
  error: unknown;
  isError: boolean;
  isPending: boolean;
  isPlaceholderData: boolean;
  isFetching: boolean;
  refetch: () => Promise<unknown>;
}

/** The page header's "Reload" of a query; its icon spins while the query fetches. */
export function ReloadButton({
  query,
  label,
  testId,
}: {
  query: Pick<ListQuery<unknown>, 'isFetching' | 'refetch'>;
  label: string;
  testId: string;
}) {
  return (
    <Button
      icon={<ReloadOutlined aria-hidden spin={query.isFetching} />}
      onClick={() => void query.refetch()}
      data-testid={testId}
    >
      {label}
    </Button>
  );
}

/**
 * The failure states of a list: a first load that failed leaves nothing to show (PageError with a
 * Retry); a reload that failed keeps the rows already shown (`children`) and says so above them.
 */
export function ListStates({
  query,
  errorTitle,
  refetchTestId,
  children,
}: {
  query: Pick<ListQuery<unknown>, 'data' | 'error' | 'isError' | 'refetch'>;
  errorTitle: string;
  refetchTestId: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('common');
  const retry = () => void query.refetch();
  if (query.isError && !query.data) {
    return (
      <PageError
        title={errorTitle}
        description={t(errorMessageKey(query.error), errorMessageValues(query.error))}
        onRetry={retry}
      />
    );
  }
  return (
    <>
      {query.isError ? (
        <ReloadFailed
          title={errorTitle}
          description={t(errorMessageKey(query.error), errorMessageValues(query.error))}
          onRetry={retry}
          testId={refetchTestId}
        />
      ) : null}
      {children}
    </>
  );
}

export interface KeysetListProps<T extends { id: string }> extends Omit<
  TableProps<T>,
  'rowKey' | 'dataSource' | 'loading' | 'pagination' | 'size' | 'tableLayout' | 'scroll' | 'locale'
> {
  list: ListQuery<T>;
  pager: KeysetPager;
  /** Test ids `<testPrefix>-table`, `<testPrefix>-refetch-error` and the pager's `<testPrefix>-first|prev|next|page-number`. */
  testPrefix: string;
  errorTitle: string;
  /** What the empty state says (no rows once loaded). */
  emptyText: ReactNode;
  /** The pager's navigation landmark name. */
  pagerLabel: string;
  /** Below this width the table scrolls sideways (not on a phone, whose rows are one stacked cell). */
  minWidth: number;
  /** Before the pager buttons (e.g. the page size); with it the pager shows even when there are no rows. */
  pagerStart?: ReactNode;
}

/**
 * A keyset page of rows keyed by `id` as every list page shows it: the failure states, the table
 * (its columns, row props and selection given) and the pager under it.
 */
export function KeysetList<T extends { id: string }>({
  list,
  pager,
  testPrefix,
  errorTitle,
  emptyText,
  pagerLabel,
  minWidth,
  pagerStart,
  ...table
}: KeysetListProps<T>) {
  const phone = usePhoneLayout();
  // antd copies the column titles (sorters, a "select this page" checkbox) into a hidden row it
  // measures widths with (aria-hidden, 0 px high): those copies were Tab stops leading nowhere.
  const tableRef = useRef<{ nativeElement: HTMLElement } | null>(null);
  useEffect(() => {
    tableRef.current?.nativeElement
      .querySelectorAll('.ant-table-measure-row')
      .forEach((row) => row.setAttribute('inert', ''));
  });
  // Nothing to page through: no "Page 1" beside three disabled buttons under the empty state.
  const showPager = pagerStart !== undefined || Boolean(list.data?.results.length) || pager.hasPrevious;

  return (
    <ListStates query={list} errorTitle={errorTitle} refetchTestId={`${testPrefix}-refetch-error`}>
      <Table<T>
        ref={(ref) => {
          tableRef.current = ref;
        }}
        {...table}
        rowKey="id"
        dataSource={list.data?.results ?? []}
        // The overlay marks rows that are not the ones asked for yet (first load, another page);
        // a reload of the same page spins its button instead of covering rows it will likely keep.
        loading={list.isPending || list.isPlaceholderData}
        pagination={false}
        size="middle"
        tableLayout="fixed"
        scroll={phone ? undefined : { x: minWidth }}
        locale={{ emptyText: list.isPending ? ' ' : <PageEmpty description={emptyText} /> }}
        data-testid={`${testPrefix}-table`}
      />
      {showPager ? (
        <Flex
          justify={pagerStart === undefined ? 'flex-end' : 'space-between'}
          align="center"
          gap={12}
          wrap
          style={{ marginTop: 16 }}
          role="navigation"
          aria-label={pagerLabel}
        >
          {pagerStart}
          <KeysetPagerButtons pager={pager} testPrefix={testPrefix} />
        </Flex>
      ) : null}
    </ListStates>
  );
}
