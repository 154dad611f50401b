import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Switch from 'antd/es/switch';
import { DetailStates, NotFound, useChoiceGroup } from '@qc/ui';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router-dom';
import { ActionField, RuleFormShell, StoredHint, storedDiffers } from '../rules/RuleFormShell';
import { createRule, filtersEndpoint, updateRule } from '../rules/rules.api';
import { useRule } from '../rules/rules.queries';
import {
  FILTER_ACTIONS,
  FILTER_PATTERN_TYPES,
  isFilterType,
  RSPAMD_LIMITS,
  RSPAMD_PATHS,
  type FilterAction,
  type FilterType,
  type PatternType,
  type RspamdFilter,
} from '../rules/rules.types';
import { ruleStandIns, useLiveCheck } from '../rules/useLiveCheck';
import { changedFields, useRuleSave } from '../rules/useRuleSave';

interface FilterValues {
  value: string;
  pattern_type: PatternType;
  action?: FilterAction;
  description: string;
  enabled: boolean;
}

const FIELDS = ['value', 'pattern_type', 'action', 'description', 'enabled'] as const;

/** The request body of the form's values (trimmed; an action not chosen yet left out). */
function bodyOf(v: FilterValues) {
  return {
    value: (v.value ?? '').trim(),
    pattern_type: v.pattern_type,
    ...(v.action ? { action: v.action } : {}),
    description: (v.description ?? '').trim(),
    enabled: v.enabled,
  };
}

/** The form of a filter of one family: new (`rule` null) or edited. */
function FilterForm({ type, rule }: { type: FilterType; rule: RspamdFilter | null }) {
  const { t } = useTranslation('rspamd');
  const choiceGroup = useChoiceGroup();
  const [form] = Form.useForm<FilterValues>();
  const ep = useMemo(() => filtersEndpoint(type), [type]);
  const backTo = RSPAMD_PATHS.filters(type);
  const values = Form.useWatch([], { form, preserve: true }) as FilterValues | undefined;
  const patternType = values?.pattern_type ?? rule?.pattern_type ?? 'exact';

  const live = useLiveCheck<FilterValues, (typeof FIELDS)[number], RspamdFilter>({
    form,
    fields: FIELDS,
    conflictField: 'value',
    body: (v) => (v.value?.trim() ? bodyOf(v) : null),
    standIns: (v) => ruleStandIns(v, { action: 'reject', description: RSPAMD_LIMITS.descriptionMin }),
    send: (body, signal) => (rule ? updateRule(ep, rule.id, body, true, signal) : createRule(ep, body, true, signal)),
  });
  const { save, saving, refusal } = useRuleSave({
    kind: 'filter',
    ep,
    live,
    fields: FIELDS,
    conflictField: 'value',
    editingId: rule?.id ?? null,
    backTo,
    nameOf: (saved) => String(saved.value ?? ''),
  });
  const stored = live.check?.stored ?? null;
  // The api may store the pattern under another type than the one chosen: the hint says which.
  const storedSuffix =
    stored && stored.pattern_type !== patternType ? t(`pattern_types.${stored.pattern_type}.label`) : undefined;

  return (
    <RuleFormShell<FilterValues>
      kind="filter"
      ep={ep}
      form={form}
      title={rule ? t('filters.edit_title', { family: t(`families.${type}.tab`) }) : t(`families.${type}.new`)}
      intro={t(`families.${type}.matches`)}
      testId="filter-form-page"
      backTo={backTo}
      editing={rule ? { id: rule.id, name: rule.value } : null}
      initialValues={
        rule ? { ...rule } : { value: '', pattern_type: FILTER_PATTERN_TYPES[type][0], description: '', enabled: true }
      }
      onValuesChange={live.schedule}
      onFinish={(v) => void save(rule ? changedFields(bodyOf(v), rule) : bodyOf(v))}
      saving={saving}
      refusal={refusal}
    >
      <Form.Item
        name="pattern_type"
        label={t('form.pattern_type')}
        extra={
          <span data-testid="filter-pattern-help" style={{ overflowWrap: 'anywhere' }}>
            {t(`pattern_types.${patternType}.help`)} {t(`families.${type}.examples.${patternType}`)}
          </span>
        }
        rules={[live.rule('pattern_type')]}
      >
        <Radio.Group
          {...choiceGroup}
          options={FILTER_PATTERN_TYPES[type].map((p) => ({ value: p, label: t(`pattern_types.${p}.label`) }))}
          data-testid="filter-pattern-type"
        />
      </Form.Item>
      <Form.Item
        name="value"
        label={t(`families.${type}.value_label`)}
        // No extra at all while there is no hint: an empty one still took a row under the field.
        extra={
          storedDiffers(values?.value ?? '', stored?.value ?? null, storedSuffix) ? (
            <StoredHint typed={values?.value ?? ''} stored={stored?.value ?? null} suffix={storedSuffix} />
          ) : undefined
        }
        rules={[
          { required: true, whitespace: true, message: t('errors.pattern_required') },
          { max: RSPAMD_LIMITS.value, message: t('errors.too_long', { max: RSPAMD_LIMITS.value }) },
          live.rule('value'),
        ]}
      >
        <Input
          autoComplete="off"
          spellCheck={false}
          placeholder={t(`families.${type}.placeholder.${patternType}`)}
          data-testid="filter-value"
        />
      </Form.Item>
      <ActionField actions={FILTER_ACTIONS} testId="filter-action" />
      <Form.Item
        name="description"
        label={t('form.description')}
        rules={[
          { required: true, whitespace: true, message: t('errors.description_required') },
          { min: RSPAMD_LIMITS.descriptionMin, message: t('errors.description_too_short') },
          live.rule('description'),
        ]}
      >
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={RSPAMD_LIMITS.description}
          showCount
          data-testid="filter-description"
        />
      </Form.Item>
      <Form.Item name="enabled" label={t('form.enabled')} valuePropName="checked" extra={t('form.enabled_help')}>
        <Switch data-testid="filter-enabled" />
      </Form.Item>
    </RuleFormShell>
  );
}

function UnknownFamily() {
  const { t } = useTranslation('rspamd');
  return (
    <NotFound
      title={t('filters.unknown_family')}
      description={t('filters.unknown_family_help')}
      backLabel={t('form.back')}
      backTo={RSPAMD_PATHS.filters('domains')}
      testId="filters-unknown-family"
    />
  );
}

/** Spec §2 `rspamd/{filterType}/create`. */
export function NewFilterPage() {
  const { type } = useParams();
  if (!isFilterType(type)) return <UnknownFamily />;
  return <FilterForm key={type} type={type} rule={null} />;
}

/** Spec §2 `rspamd/{filterType}/edit/{id}`: the filter's form, or "not found" (unknown, or of another family). */
export function EditFilterPage() {
  const { t } = useTranslation('rspamd');
  const { type, id = '' } = useParams();
  const ep = useMemo(() => filtersEndpoint(isFilterType(type) ? type : 'domains'), [type]);
  const query = useRule<RspamdFilter>(ep, id, isFilterType(type));
  if (!isFilterType(type)) return <UnknownFamily />;
  return (
    <DetailStates
      query={query}
      errorTitle={t('kinds.filter.load_error')}
      notFound={
        <NotFound
          title={t('kinds.filter.not_found')}
          description={t('kinds.filter.not_found_help')}
          backLabel={t('form.back')}
          backTo={RSPAMD_PATHS.filters(type)}
          testId="rule-not-found"
        />
      }
    >
      {(rule) => <FilterForm key={rule.id} type={type} rule={rule} />}
    </DetailStates>
  );
}
