import DatePicker from 'antd/es/date-picker';
import dayjs from 'dayjs';
import 'dayjs/locale/fr';
import { useTranslation } from 'react-i18next';

export interface CustomRangePickerProps {
  id: string;
  /** 'YYYY-MM-DD' local days. */
  from: string;
  to: string;
  onChange: (from: string, to: string) => void;
  /** The longest range that can be picked, in days (both ends counted). */
  maxDays?: number;
  testId: string;
}

/** A custom period's two dates (a chunk of its own: the picker and dayjs load only when used). */
export default function CustomRangePicker({ id, from, to, onChange, maxDays, testId }: CustomRangePickerProps) {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage === 'en' ? 'en' : 'fr';
  return (
    <DatePicker.RangePicker
      id={{ start: id, end: `${id}-end` }}
      value={[dayjs(from).locale(lang), dayjs(to).locale(lang)]}
      format={lang === 'fr' ? 'DD/MM/YYYY' : 'YYYY-MM-DD'}
      placeholder={[t('quarantine.filters.range_start'), t('quarantine.filters.range_end')]}
      allowClear={false}
      // Once one end is picked, days that would make the range too long cannot be (the api refuses it).
      disabledDate={
        maxDays ? (day, { from: start }) => !!start && Math.abs(day.diff(start, 'day')) >= maxDays : undefined
      }
      onChange={(dates) => {
        const [start, end] = dates ?? [];
        if (start && end) onChange(start.format('YYYY-MM-DD'), end.format('YYYY-MM-DD'));
      }}
      data-testid={testId}
    />
  );
}
