import { PlusOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Tabs from 'antd/es/tabs';
import { PageHeader } from '@qc/ui';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { RuleFilterBar } from '../rules/RuleFilterBar';
import { RuleTable } from '../rules/RuleTable';
import { filtersEndpoint } from '../rules/rules.api';
import { FILTER_ACTIONS, FILTER_PATTERN_TYPES, FILTER_TYPES, RSPAMD_PATHS } from '../rules/rules.types';
import type { FilterType, RspamdFilter } from '../rules/rules.types';
import { ListTop } from '../rules/StatusLine';
import { useRuleListPage } from '../rules/useRuleListPage';
import { isFiltered } from '../rules/rule-filters';
import { filterColumns, filterSummary } from './filters.columns';
import { MatchHelp } from './MatchHelp';

const nameOf = (f: RspamdFilter) => f.value;

/** One family's list: its Rspamd status, what it matches, filters and the table. */
function FamilyList({ type }: { type: FilterType }) {
  const { t } = useTranslation('rspamd');
  const ep = useMemo(() => filtersEndpoint(type), [type]);
  const spec = useMemo(() => ({ actions: FILTER_ACTIONS, patternTypes: FILTER_PATTERN_TYPES[type] }), [type]);
  const page = useRuleListPage<RspamdFilter>(ep, spec);
  const columns = useMemo(() => filterColumns(t), [t]);
  return (
    <>
      <ListTop list={page.list} statusOf={ep.list} reloadLabel={t('list.reload')} testPrefix="filters" />
      <MatchHelp type={type} />
      <RuleFilterBar
        filters={page.filters}
        spec={spec}
        onChange={page.change}
        onReset={page.reset}
        testPrefix="filters"
        searchPlaceholder={t('filters.search_placeholder')}
      />
      <RuleTable<RspamdFilter>
        kind="filter"
        ep={ep}
        list={page.list}
        pager={page.pager}
        query={page.query}
        testPrefix="filters"
        errorTitle={t('kinds.filter.error_title')}
        emptyText={t(isFiltered(page.filters) ? 'list.empty_filtered' : `families.${type}.empty`)}
        columns={columns}
        summary={filterSummary}
        nameOf={nameOf}
        minWidth={900}
      />
    </>
  );
}

/**
 * Spec §2 `rspamd` and `rspamd/{domains,ips,users,special}`: the standard filters, one tab per
 * family, each its own URL (`/rspamd` shows the first). Filters and cursor live in the URL.
 */
export function FiltersPage({ type }: { type: FilterType }) {
  const { t } = useTranslation('rspamd');
  const navigate = useNavigate();
  return (
    <section aria-labelledby="filters-title" data-testid="filters-page" data-family={type}>
      <PageHeader
        title={<span id="filters-title">{t('filters.title')}</span>}
        description={t('filters.description')}
        extra={
          <Button
            type="primary"
            icon={<PlusOutlined aria-hidden />}
            onClick={() => navigate(RSPAMD_PATHS.filterCreate(type))}
            data-testid="filters-new"
          >
            {t('filters.new')}
          </Button>
        }
      />
      <Tabs
        activeKey={type}
        onChange={(key) => navigate(RSPAMD_PATHS.filters(key as FilterType))}
        aria-label={t('filters.tabs_label')}
        items={FILTER_TYPES.map((f) => ({
          key: f,
          label: <span data-testid={`filters-tab-${f}`}>{t(`families.${f}.tab`)}</span>,
          children: f === type ? <FamilyList key={f} type={f} /> : null,
        }))}
        destroyOnHidden
      />
    </section>
  );
}
