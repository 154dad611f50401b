import Select from 'antd/es/select';
import { Field } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { STATS_PERIODS, type StatsPeriod } from '../logs/logs.types';

/** The chart periods of spec §9 (2, 7, 30, 90, 180, 365 days). */
export function PeriodSelect({
  id,
  value,
  onChange,
}: {
  id: string;
  value: StatsPeriod;
  onChange: (d: StatsPeriod) => void;
}) {
  const { t } = useTranslation('haraka');
  return (
    <Field id={id} label={t('stats.period')} width={200}>
      <Select<StatsPeriod>
        id={id}
        value={value}
        onChange={onChange}
        options={STATS_PERIODS.map((d) => ({ value: d, label: t(`stats.periods.${d}`) }))}
        data-testid="stats-period"
      />
    </Field>
  );
}
