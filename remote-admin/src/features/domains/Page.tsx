import { PlusOutlined, ReloadOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Table, { type ColumnsType } from 'antd/es/table';
import Typography from 'antd/es/typography';
import { errorMessageKey } from '@qc/api-client';
import { LIMITS } from '@qc/contracts';
import {
  formatDateTime,
  KeysetPagerButtons,
  PageEmpty,
  PageError,
  PageHeader,
  ReloadFailed,
  TextFilter,
  useKeysetPager,
  usePhoneLayout,
  type PagerState,
} from '@qc/ui';
import { usePreferences } from '@qc/ui-state';
import { useId, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import type { DomainListParams } from './domains.api';
import { useDomainList } from './domains.queries';
import type { Domain } from './domains.types';

interface DomainFilters {
  q: string;
  cursor: string | null;
}

function readDomainFilters(params: URLSearchParams): DomainFilters {
  return { q: (params.get('q') ?? '').trim().slice(0, 253), cursor: params.get('cursor') || null };
}

function writeDomainFilters(f: DomainFilters): string {
  const params = new URLSearchParams();
  if (f.q) params.set('q', f.q);
  if (f.cursor) params.set('cursor', f.cursor);
  return params.toString();
}

/** The name as people write it (an IDN's U-label), with the stored A-label beside it when it differs. */
export function DomainName({ domain }: { domain: Pick<Domain, 'name' | 'display_name'> }) {
  return (
    <>
      {domain.display_name}
      {domain.display_name !== domain.name ? (
        <Typography.Text type="secondary" style={{ marginInlineStart: 6, fontSize: 12 }}>
          ({domain.name})
        </Typography.Text>
      ) : null}
    </>
  );
}

/** Spec §2 `domains` (admin): the domains with their users count; search by the start of the name. */
export function DomainsPage() {
  const { t, i18n } = useTranslation('admin');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const navigate = useNavigate();
  const phone = usePhoneLayout();
  const [params] = useSearchParams();
  const filters = useMemo(() => readDomainFilters(params), [params]);
  const pageSize = Math.min(
    usePreferences((s) => s.preferences.defaultPageSize),
    LIMITS.maxPageSize,
  );
  const query = useMemo<DomainListParams>(
    () => ({
      page_size: String(pageSize),
      ...(filters.q ? { q: filters.q } : {}),
      ...(filters.cursor ? { cursor: filters.cursor } : {}),
    }),
    [filters, pageSize],
  );
  const list = useDomainList(query);
  const base = useId();

  const show = (next: DomainFilters, state: PagerState = { cursors: [] }) => {
    const search = writeDomainFilters(next);
    navigate({ search: search ? `?${search}` : '' }, { state });
  };
  const nextCursor = list.data && !list.isPlaceholderData ? list.data.next_cursor : null;
  const pager = useKeysetPager(filters.cursor, nextCursor, (cursor, state) => show({ ...filters, cursor }, state));

  const nameLink = (d: Domain) => (
    <Link to={encodeURIComponent(d.id)} data-testid="domain-link">
      <DomainName domain={d} />
    </Link>
  );
  const usersCount = (d: Domain) => t('domains.users_count', { count: d.users_count });
  const created = (d: Domain) => <time dateTime={d.created_at}>{formatDateTime(d.created_at, lang)}</time>;
  const columns: ColumnsType<Domain> = phone
    ? [
        {
          key: 'summary',
          title: t('domains.columns.name'),
          render: (_: unknown, d) => (
            <Flex vertical gap={2} style={{ minWidth: 0 }} data-testid="domain-summary">
              {nameLink(d)}
              {d.description ? <Typography.Text ellipsis>{d.description}</Typography.Text> : null}
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {usersCount(d)} · {created(d)}
              </Typography.Text>
            </Flex>
          ),
        },
      ]
    : [
        { key: 'name', title: t('domains.columns.name'), render: (_: unknown, d) => nameLink(d) },
        {
          key: 'description',
          title: t('domains.columns.description'),
          dataIndex: 'description',
          ellipsis: { showTitle: false },
          render: (v: string) => (v ? <span title={v}>{v}</span> : t('none')),
        },
        {
          key: 'users',
          title: t('domains.columns.users'),
          width: 160,
          render: (_: unknown, d) => <span data-testid="domain-users-count">{usersCount(d)}</span>,
        },
        { key: 'created', title: t('domains.columns.created'), width: 170, render: (_: unknown, d) => created(d) },
      ];

  return (
    <section aria-labelledby="domains-title" data-testid="domains-page">
      <PageHeader
        title={<span id="domains-title">{t('domains.title')}</span>}
        description={t('domains.description')}
        extra={
          <>
            <Button
              icon={<ReloadOutlined aria-hidden spin={list.isFetching} />}
              onClick={() => void list.refetch()}
              data-testid="domains-reload"
            >
              {t('domains.reload')}
            </Button>
            <Button
              type="primary"
              icon={<PlusOutlined aria-hidden />}
              onClick={() => navigate('new')}
              data-testid="domains-new"
            >
              {t('domains.new')}
            </Button>
          </>
        }
      />
      <Flex
        wrap
        gap={12}
        align="flex-end"
        role="search"
        aria-label={t('domains.filters_label')}
        style={{ marginBottom: 16 }}
      >
        <TextFilter
          id={`${base}-q`}
          label={t('domains.search')}
          placeholder={t('domains.search_placeholder')}
          value={filters.q}
          onCommit={(q) => show({ q, cursor: null })}
          width={280}
          testId="domains-filter-q"
        />
      </Flex>
      {list.isError && !list.data ? (
        <PageError
          title={t('domains.error_title')}
          description={t(errorMessageKey(list.error), { ns: 'common' })}
          onRetry={() => void list.refetch()}
        />
      ) : (
        <>
          {list.isError ? (
            <ReloadFailed
              title={t('domains.error_title')}
              description={t(errorMessageKey(list.error), { ns: 'common' })}
              onRetry={() => void list.refetch()}
              testId="domains-refetch-error"
            />
          ) : null}
          <Table<Domain>
            rowKey="id"
            columns={columns}
            dataSource={list.data?.results ?? []}
            loading={list.isPending || list.isPlaceholderData}
            pagination={false}
            size="middle"
            tableLayout="fixed"
            scroll={phone ? undefined : { x: 720 }}
            onRow={() => ({ 'data-testid': 'domain-row' }) as object}
            aria-label={t('domains.table_label')}
            locale={{
              emptyText: list.isPending ? (
                ' '
              ) : (
                <PageEmpty description={t(filters.q ? 'domains.empty_filtered' : 'domains.empty')} />
              ),
            }}
            data-testid="domains-table"
          />
          {list.data?.results.length || pager.hasPrevious ? (
            <Flex justify="flex-end" style={{ marginTop: 16 }} role="navigation" aria-label={t('domains.pager_label')}>
              <KeysetPagerButtons pager={pager} testPrefix="domains" />
            </Flex>
          ) : null}
        </>
      )}
    </section>
  );
}
