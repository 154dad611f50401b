import type { FormInstance } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formErrorsOf } from '../users/user-form';

/** FormError (the refusal above a form) is every app's: @qc/ui. */
export { FormError } from '@qc/ui';

/**
 * A form's refusals by the API: `refuse(error)` puts each on the field it names (among `fields`)
 * and the rest in `message`, for FormError, and returns that text; `clear()` before a new try.
 */
export function useFormRefusal<F extends string>(form: Pick<FormInstance, 'setFields'>, fields: readonly F[]) {
  const { t } = useTranslation('admin');
  const [message, setMessage] = useState<string | null>(null);
  const refuse = (error: unknown) => {
    const outcome = formErrorsOf(error, t, fields);
    form.setFields(outcome.fields);
    setMessage(outcome.message);
    return outcome.message;
  };
  return { message, refuse, clear: () => setMessage(null) };
}
