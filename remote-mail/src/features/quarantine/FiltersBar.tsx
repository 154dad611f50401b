import { CloseCircleFilled, FilterOutlined, SearchOutlined, UndoOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Input from 'antd/es/input';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import { DATE_PRESETS, toLocalDay, usePhoneLayout, type DatePeriod } from '@qc/ui';
import { lazy, Suspense, useEffect, useEffectEvent, useId, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_FILTERS, type QuarantineFilters } from './quarantine.filters';
import { EMAIL_ACTIONS, STATUS_FILTERS, type QuarantineStatusFilter } from './quarantine.types';

const CustomRangePicker = lazy(() => import('./CustomRangePicker'));

/** Typing settles for this long before the URL (and so the query) changes. */
export const FILTER_DEBOUNCE_MS = 400;

/**
 * A text kept locally while typing and committed after a pause (or Enter). When the committed value
 * changes from elsewhere (Back, reset), the draft follows it.
 */
function useDraft(value: string, commit: (v: string) => void) {
  const [draft, setDraft] = useState(value);
  const [seen, setSeen] = useState(value);
  if (seen !== value) {
    setSeen(value);
    setDraft(value);
  }
  const onCommit = useEffectEvent(commit);
  useEffect(() => {
    if (draft.trim() === value) return;
    const timer = setTimeout(() => onCommit(draft.trim()), FILTER_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [draft, value]);
  const flush = () => {
    if (draft.trim() !== value) commit(draft.trim());
  };
  return [draft, setDraft, flush] as const;
}

export function Field({
  id,
  label,
  children,
  width,
}: {
  id: string;
  label: string;
  children: ReactNode;
  width: number;
}) {
  return (
    <Flex vertical gap={4} style={{ width, maxWidth: '100%' }}>
      <label htmlFor={id} style={{ fontSize: 12 }}>
        {label}
      </label>
      {children}
    </Flex>
  );
}

export function TextFilter({
  id,
  label,
  value,
  onCommit,
  placeholder,
  width = 200,
  testId,
  prefix,
}: {
  id: string;
  label: string;
  value: string;
  onCommit: (v: string) => void;
  placeholder?: string;
  width?: number;
  testId: string;
  prefix?: ReactNode;
}) {
  const { t } = useTranslation('mail');
  const [draft, setDraft, flush] = useDraft(value, onCommit);
  return (
    <Field id={id} label={label} width={width}>
      <Input
        id={id}
        value={draft}
        onChange={(e) => setDraft(e.target.value)}
        onPressEnter={flush}
        placeholder={placeholder}
        prefix={prefix}
        // antd's clear button is named by its icon ("close-circle"): named here, in the user's language.
        allowClear={{ clearIcon: <CloseCircleFilled aria-label={t('quarantine.filters.clear', { field: label })} /> }}
        maxLength={200}
        data-testid={testId}
      />
    </Field>
  );
}

function ScoreFilter({
  id,
  label,
  value,
  onCommit,
  testId,
}: {
  id: string;
  label: string;
  value: string;
  onCommit: (v: string) => void;
  testId: string;
}) {
  const [draft, setDraft, flush] = useDraft(value, onCommit);
  return (
    <Field id={id} label={label} width={110}>
      <InputNumber
        id={id}
        value={draft === '' ? null : Number(draft)}
        onChange={(v) => setDraft(v === null || v === undefined ? '' : String(v))}
        onPressEnter={flush}
        step={0.5}
        min={-1000}
        max={1000}
        style={{ width: '100%' }}
        data-testid={testId}
      />
    </Field>
  );
}

/** The filters a phone shows behind "More filters" (status and search stay in view). */
const MORE_FILTERS = ['sender', 'recipient', 'action', 'scoreMin', 'scoreMax', 'period'] as const;

export interface FiltersBarProps {
  filters: QuarantineFilters;
  onChange: (patch: Partial<QuarantineFilters>) => void;
}

/** Status, free text, sender, recipient, action, score bounds and date period of the list. */
export function FiltersBar({ filters, onChange }: FiltersBarProps) {
  const { t } = useTranslation('mail');
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const today = toLocalDay(new Date());

  const periodOptions = [
    ...DATE_PRESETS.map((p) => ({ value: p, label: t(`quarantine.periods.${p}`) })),
    { value: 'custom', label: t('quarantine.periods.custom') },
  ];
  const changed = (Object.keys(DEFAULT_FILTERS) as (keyof QuarantineFilters)[]).some(
    (k) => k !== 'pageSize' && k !== 'cursor' && filters[k] !== DEFAULT_FILTERS[k],
  );
  // On a phone only status and search show at first: the other filters would push the list a
  // screen down. The button says how many of them are set.
  const phone = usePhoneLayout();
  const [showMore, setShowMore] = useState(false);
  const moreActive = MORE_FILTERS.filter((k) => filters[k] !== DEFAULT_FILTERS[k]).length;

  return (
    <Flex
      wrap
      gap={12}
      align="flex-end"
      role="search"
      aria-label={t('quarantine.filters.label')}
      style={{ marginBottom: 16 }}
      data-testid="quarantine-filters"
    >
      <Field id={id('status')} label={t('quarantine.filters.status')} width={180}>
        <Select<QuarantineStatusFilter>
          id={id('status')}
          value={filters.status}
          onChange={(status) => onChange({ status })}
          options={STATUS_FILTERS.map((s) => ({ value: s, label: t(`status_filters.${s}`) }))}
          data-testid="quarantine-filter-status"
        />
      </Field>
      <TextFilter
        id={id('q')}
        label={t('quarantine.filters.search')}
        value={filters.q}
        onCommit={(q) => onChange({ q })}
        placeholder={t('quarantine.filters.search_placeholder')}
        prefix={<SearchOutlined aria-hidden />}
        width={280}
        testId="quarantine-filter-q"
      />
      {phone && !showMore ? null : (
        <>
          <TextFilter
            id={id('sender')}
            label={t('quarantine.filters.sender')}
            value={filters.sender}
            onCommit={(sender) => onChange({ sender })}
            testId="quarantine-filter-sender"
          />
          <TextFilter
            id={id('recipient')}
            label={t('quarantine.filters.recipient')}
            value={filters.recipient}
            onCommit={(recipient) => onChange({ recipient })}
            testId="quarantine-filter-recipient"
          />
          <Field id={id('action')} label={t('quarantine.filters.action')} width={190}>
            <Select<string>
              id={id('action')}
              value={filters.action || undefined}
              placeholder={t('quarantine.filters.any_action')}
              allowClear
              onChange={(action) => onChange({ action: action ?? '' })}
              options={EMAIL_ACTIONS.map((a) => ({ value: a, label: t(`actions.${a}`) }))}
              data-testid="quarantine-filter-action"
            />
          </Field>
          <ScoreFilter
            id={id('score-min')}
            label={t('quarantine.filters.score_min')}
            value={filters.scoreMin}
            onCommit={(scoreMin) => onChange({ scoreMin })}
            testId="quarantine-filter-score-min"
          />
          <ScoreFilter
            id={id('score-max')}
            label={t('quarantine.filters.score_max')}
            value={filters.scoreMax}
            onCommit={(scoreMax) => onChange({ scoreMax })}
            testId="quarantine-filter-score-max"
          />
          <Field id={id('period')} label={t('quarantine.filters.period')} width={200}>
            <Select<DatePeriod>
              id={id('period')}
              value={filters.period || undefined}
              placeholder={t('quarantine.filters.any_date')}
              allowClear
              onChange={(period) =>
                onChange(period === 'custom' ? { period, from: today, to: today } : { period: period ?? '' })
              }
              options={periodOptions}
              data-testid="quarantine-filter-period"
            />
          </Field>
          {filters.period === 'custom' ? (
            <Field id={id('range')} label={t('quarantine.filters.range')} width={260}>
              <Suspense fallback={<Input disabled style={{ width: '100%' }} />}>
                <CustomRangePicker
                  id={id('range')}
                  from={filters.from}
                  to={filters.to}
                  onChange={(from, to) => onChange({ period: 'custom', from, to })}
                />
              </Suspense>
            </Field>
          ) : null}
        </>
      )}
      {phone ? (
        <Button
          icon={<FilterOutlined aria-hidden />}
          aria-expanded={showMore}
          onClick={() => setShowMore(!showMore)}
          data-testid="quarantine-filters-more"
        >
          {showMore ? t('quarantine.filters.fewer') : t('quarantine.filters.more', { count: moreActive })}
        </Button>
      ) : null}
      {changed ? (
        <Button
          icon={<UndoOutlined aria-hidden />}
          onClick={() => onChange({ ...DEFAULT_FILTERS, pageSize: filters.pageSize })}
          data-testid="quarantine-filters-reset"
        >
          {t('quarantine.filters.reset')}
        </Button>
      ) : null}
    </Flex>
  );
}
