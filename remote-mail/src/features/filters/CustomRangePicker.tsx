import DatePicker from 'antd/es/date-picker';
import dayjs, { type Dayjs } from 'dayjs';
import 'dayjs/locale/fr';
import { useState } from 'react';
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
  // The end being edited: the other one bounds it when no day was picked yet in this opening.
  const [editing, setEditing] = useState<'start' | 'end' | null>(null);
  const tooLong = (a: Dayjs, b: Dayjs) => Math.abs(a.startOf('day').diff(b.startOf('day'), 'day')) >= maxDays!;
  return (
    <DatePicker.RangePicker
      id={{ start: id, end: `${id}-end` }}
      value={[dayjs(from).locale(lang), dayjs(to).locale(lang)]}
      format={lang === 'fr' ? 'DD/MM/YYYY' : 'YYYY-MM-DD'}
      placeholder={[t('quarantine.filters.range_start'), t('quarantine.filters.range_end')]}
      allowClear={false}
      // Days that would make the range longer than the api answers cannot be picked: from the day
      // just picked, else from the end not being edited.
      onFocus={(_, info) => setEditing(info.range ?? null)}
      disabledDate={
        maxDays
          ? (day, { from: picked }) => {
              const anchor = picked ?? (editing === 'start' ? dayjs(to) : editing === 'end' ? dayjs(from) : null);
              return anchor !== null && tooLong(day, anchor);
            }
          : undefined
      }
      onChange={(dates) => {
        const [start, end] = dates ?? [];
        if (!start || !end || (maxDays && tooLong(start, end))) return;
        onChange(start.format('YYYY-MM-DD'), end.format('YYYY-MM-DD'));
      }}
      data-testid={testId}
    />
  );
}
