import { PlusOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import type { ColumnsType } from 'antd/es/table';
import Typography from 'antd/es/typography';
import { LIMITS } from '@qc/contracts';
import {
  FilterBar,
  formatDateTime,
  KeysetList,
  PageHeader,
  ReloadButton,
  TextFilter,
  useKeysetNavigation,
  usePhoneLayout,
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

function writeDomainFilters(f: DomainFilters): URLSearchParams {
  const params = new URLSearchParams();
  if (f.q) params.set('q', f.q);
  if (f.cursor) params.set('cursor', f.cursor);
  return params;
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

  const { show, pager } = useKeysetNavigation(filters, writeDomainFilters, list);

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
            <ReloadButton query={list} label={t('domains.reload')} testId="domains-reload" />
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
      <FilterBar label={t('domains.filters_label')} testPrefix="domains">
        <TextFilter
          id={`${base}-q`}
          label={t('domains.search')}
          placeholder={t('domains.search_placeholder')}
          value={filters.q}
          onCommit={(q) => show({ q, cursor: null })}
          width={280}
          testId="domains-filter-q"
        />
      </FilterBar>
      <KeysetList<Domain>
        list={list}
        pager={pager}
        testPrefix="domains"
        errorTitle={t('domains.error_title')}
        emptyText={t(filters.q ? 'domains.empty_filtered' : 'domains.empty')}
        pagerLabel={t('domains.pager_label')}
        minWidth={720}
        columns={columns}
        onRow={() => ({ 'data-testid': 'domain-row' }) as object}
        aria-label={t('domains.table_label')}
      />
    </section>
  );
}
