import { SearchOutlined } from '@ant-design/icons';
import InputNumber from 'antd/es/input-number';
import Select from 'antd/es/select';
import Typography from 'antd/es/typography';
import { Field, FilterBar, TextFilter, useDraft } from '@qc/ui';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PeriodField } from '../filters/PeriodField';
import { DEFAULT_FILTERS, scoreRangeReversed, type QuarantineFilters } from './quarantine.filters';
import { decimalSeparator } from './quarantine.format';
import { EMAIL_ACTIONS, STATUS_FILTERS, type QuarantineStatusFilter } from './quarantine.types';

const SCORE_LIMIT = 1000;

function ScoreFilter({
  id,
  label,
  value,
  onCommit,
  testId,
  error,
  errorId,
}: {
  id: string;
  label: string;
  value: string;
  onCommit: (v: string) => void;
  testId: string;
  /** The range is reversed: the field is marked invalid, described by the message at `errorId`. */
  error: boolean;
  errorId: string;
}) {
  const { i18n } = useTranslation();
  const [draft, setDraft, flush] = useDraft(value, onCommit);
  return (
    <Field id={id} label={label} width={110}>
      <InputNumber
        id={id}
        value={draft === '' ? null : Number(draft)}
        onChange={(v) => setDraft(v === null || v === undefined ? '' : String(v))}
        onPressEnter={flush}
        step={0.5}
        // No spin buttons (antd names them "Increase Value" in English whatever the language): the
        // arrow keys still step by 0.5.
        controls={false}
        decimalSeparator={decimalSeparator(i18n.resolvedLanguage ?? 'fr')}
        // Not bounded by the other field: antd would silently bring a reversed value back on blur
        // ("15,0 / 15,0"); a reversed range is shown as an error instead.
        min={-SCORE_LIMIT}
        max={SCORE_LIMIT}
        status={error ? 'error' : undefined}
        aria-invalid={error || undefined}
        aria-describedby={error ? errorId : undefined}
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
  // Page size, page and sort are not filters: "Reset" neither shows for them nor resets them.
  const kept = ['pageSize', 'cursor', 'sort', 'order'];
  const changed = (Object.keys(DEFAULT_FILTERS) as (keyof QuarantineFilters)[]).some(
    (k) => !kept.includes(k) && filters[k] !== DEFAULT_FILTERS[k],
  );
  const reversed = scoreRangeReversed(filters);
  // On a phone only status and search show at first (FilterBar's `more`): the button says how
  // many of the others are set.
  const moreActive = MORE_FILTERS.filter((k) => filters[k] !== DEFAULT_FILTERS[k]).length;

  const moreFilters = (
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
        error={reversed}
        errorId={id('score-error')}
      />
      <ScoreFilter
        id={id('score-max')}
        label={t('quarantine.filters.score_max')}
        value={filters.scoreMax}
        onCommit={(scoreMax) => onChange({ scoreMax })}
        testId="quarantine-filter-score-max"
        error={reversed}
        errorId={id('score-error')}
      />
      {reversed ? (
        <Typography.Text
          type="danger"
          id={id('score-error')}
          role="alert"
          style={{ alignSelf: 'flex-end', maxWidth: 240, fontSize: 12 }}
          data-testid="quarantine-score-error"
        >
          {t('quarantine.filters.score_reversed')}
        </Typography.Text>
      ) : null}
      <PeriodField
        id={id('period')}
        label={t('quarantine.filters.period')}
        value={filters}
        onChange={onChange}
        testId="quarantine-filter-period"
      />
    </>
  );

  return (
    <FilterBar
      label={t('quarantine.filters.label')}
      testPrefix="quarantine"
      more={{ filters: moreFilters, active: moreActive }}
      reset={{
        shown: changed,
        onReset: () =>
          onChange({ ...DEFAULT_FILTERS, pageSize: filters.pageSize, sort: filters.sort, order: filters.order }),
      }}
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
    </FilterBar>
  );
}
