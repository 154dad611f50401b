import Input from 'antd/es/input';
import { Field, retryableLazy } from '@qc/ui';
import { Suspense } from 'react';
import type { CustomRangePickerProps } from './CustomRangePicker';

// A chunk of its own: the picker and dayjs load only when a custom range is shown.
// Retryable: a failed download is tried again on the next render, not kept until a reload.
const CustomRangePicker = retryableLazy(() => import('./CustomRangePicker'));

/** A custom range's two dates, labelled; a disabled input stands in while the picker loads. */
export function DatesField({ label, ...picker }: CustomRangePickerProps & { label: string }) {
  return (
    <Field id={picker.id} label={label} width={260}>
      <Suspense fallback={<Input disabled style={{ width: '100%' }} />}>
        <CustomRangePicker {...picker} />
      </Suspense>
    </Field>
  );
}
