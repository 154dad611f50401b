import Alert from 'antd/es/alert';
import type { FormInstance } from 'antd/es/form';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formErrorsOf } from '../users/user-form';

/** What the API refused of a form that its fields do not say themselves, above the form. */
export function FormError({ message }: { message: string | null }) {
  if (!message) return null;
  return (
    <Alert type="error" showIcon style={{ marginBottom: 16 }} title={message} role="alert" data-testid="form-error" />
  );
}

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
