import Select from 'antd/es/select';
import { Field, FilterBar, TextFilter } from '@qc/ui';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { isFiltered, type RuleFilters, type RuleFilterSpec } from './rule-filters';

/**
 * A rule list's filters: search, action, pattern type (filters), state, and the kind's own
 * (`extra`: the owner of control-panel filters). On a phone only the search shows at first.
 */
export function RuleFilterBar({
  filters,
  spec,
  onChange,
  onReset,
  testPrefix,
  searchPlaceholder,
  extra,
}: {
  filters: RuleFilters;
  spec: RuleFilterSpec;
  onChange: (patch: Partial<RuleFilters>) => void;
  onReset: () => void;
  testPrefix: string;
  searchPlaceholder: string;
  extra?: ReactNode;
}) {
  const { t } = useTranslation('rspamd');
  const base = useId();
  const more = (['action', 'pattern_type', 'enabled', 'owner'] as const).filter((k) => filters[k] !== '').length;
  const moreFilters = (
    <>
      <Field id={`${base}-action`} label={t('list.filters.action')} width={200}>
        <Select<string>
          id={`${base}-action`}
          value={filters.action || undefined}
          placeholder={t('list.filters.any_action')}
          allowClear
          onChange={(action) => onChange({ action: action ?? '' })}
          options={spec.actions.map((a) => ({ value: a, label: t(`actions.${a}.label`) }))}
          data-testid={`${testPrefix}-filter-action`}
        />
      </Field>
      {spec.patternTypes ? (
        <Field id={`${base}-pattern`} label={t('list.filters.pattern_type')} width={200}>
          <Select<string>
            id={`${base}-pattern`}
            value={filters.pattern_type || undefined}
            placeholder={t('list.filters.any_pattern_type')}
            allowClear
            onChange={(pattern_type) => onChange({ pattern_type: pattern_type ?? '' })}
            options={spec.patternTypes.map((p) => ({ value: p, label: t(`pattern_types.${p}.label`) }))}
            data-testid={`${testPrefix}-filter-pattern-type`}
          />
        </Field>
      ) : null}
      <Field id={`${base}-enabled`} label={t('list.filters.state')} width={160}>
        <Select<'true' | 'false'>
          id={`${base}-enabled`}
          value={filters.enabled || undefined}
          placeholder={t('list.filters.any_state')}
          allowClear
          onChange={(enabled) => onChange({ enabled: enabled ?? '' })}
          options={[
            { value: 'true', label: t('list.filters.enabled') },
            { value: 'false', label: t('list.filters.disabled') },
          ]}
          data-testid={`${testPrefix}-filter-enabled`}
        />
      </Field>
      {extra}
    </>
  );
  return (
    <FilterBar
      label={t('list.filters.label')}
      testPrefix={testPrefix}
      more={{ filters: moreFilters, active: more }}
      reset={{ shown: isFiltered(filters), onReset }}
    >
      <TextFilter
        id={`${base}-q`}
        label={t('list.filters.search')}
        placeholder={searchPlaceholder}
        value={filters.q}
        onCommit={(q) => onChange({ q })}
        width={240}
        testId={`${testPrefix}-filter-q`}
      />
    </FilterBar>
  );
}
