import { LIMITS } from '@qc/contracts';
import { useKeysetNavigation } from '@qc/ui';
import { usePreferences } from '@qc/ui-state';
import { useMemo } from 'react';
import { useSearchParams } from 'react-router-dom';
import {
  NO_RULE_FILTERS,
  readRuleFilters,
  toRuleListQuery,
  writeRuleFilters,
  type RuleFilters,
  type RuleFilterSpec,
} from './rule-filters';
import type { RuleEndpoint } from './rules.api';
import { useRuleList } from './rules.queries';

/**
 * A rule list page's state: its filters and cursor from the URL, the keyset page of the account's
 * page size, and navigation to other filters (`change`, `reset`) or pages (`pager`).
 */
export function useRuleListPage<T>(ep: RuleEndpoint, spec: RuleFilterSpec) {
  const [params] = useSearchParams();
  // `spec` is a constant of each page: the filters follow the URL only.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const filters = useMemo(() => readRuleFilters(params, spec), [params]);
  const pageSize = Math.min(
    usePreferences((s) => s.preferences.defaultPageSize),
    LIMITS.maxPageSize,
  );
  const query = useMemo(() => toRuleListQuery(filters, pageSize), [filters, pageSize]);
  const list = useRuleList<T>(ep, query);
  const { show, pager } = useKeysetNavigation(filters, writeRuleFilters, list);
  return {
    filters,
    query,
    list,
    pager,
    change: (patch: Partial<RuleFilters>) => show({ ...filters, ...patch, cursor: null }),
    reset: () => show({ ...NO_RULE_FILTERS }),
  };
}
