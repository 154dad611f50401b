import Select from 'antd/es/select';
import { DATE_PRESETS, Field, toLocalDay, type DatePeriod } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { DatesField } from './DatesField';
import type { PeriodFilter } from './period';

/**
 * The date filter of a list: the spec's presets and "Custom…", which shows the two dates (today to
 * today at first). `testId` names the select; the dates are `${testId}-range`.
 */
export function PeriodField({
  id,
  label,
  value,
  onChange,
  testId,
}: {
  id: string;
  label: string;
  value: PeriodFilter;
  onChange: (next: PeriodFilter) => void;
  testId: string;
}) {
  const { t } = useTranslation('mail');
  const options = [
    ...DATE_PRESETS.map((p) => ({ value: p, label: t(`quarantine.periods.${p}`) })),
    { value: 'custom', label: t('quarantine.periods.custom') },
  ];
  const pick = (period: DatePeriod | undefined) => {
    if (period === 'custom') {
      const today = toLocalDay(new Date());
      onChange({ period, from: today, to: today });
    } else onChange({ period: period ?? '', from: '', to: '' });
  };
  return (
    <>
      <Field id={id} label={label} width={200}>
        <Select<DatePeriod>
          id={id}
          value={value.period || undefined}
          placeholder={t('quarantine.filters.any_date')}
          allowClear
          onChange={pick}
          options={options}
          labelRender={({ value: v, label: l }) => (v === 'custom' ? t('quarantine.periods.custom_chosen') : l)}
          data-testid={testId}
        />
      </Field>
      {value.period === 'custom' ? (
        <DatesField
          id={`${id}-range`}
          label={t('quarantine.filters.range')}
          from={value.from}
          to={value.to}
          onChange={(from, to) => onChange({ period: 'custom', from, to })}
          testId={`${testId}-range`}
        />
      ) : null}
    </>
  );
}
