import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { LIMITS } from '@qc/contracts';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const CODE_PATTERN = new RegExp(`^\\d{${LIMITS.totpLength}}$`);
const digitsOnly = (v: string) => v.replace(/\D/g, '').slice(0, LIMITS.totpLength);

export interface TotpCodeFieldProps {
  label: ReactNode;
  extra?: ReactNode;
  testId: string;
}

/**
 * The form field `totp_code` of an authenticator app's code (set-up, and an SSO account's proof):
 * digits only as one types, exactly LIMITS.totpLength of them, the phone's one-time-code keyboard.
 */
export function TotpCodeField({ label, extra, testId }: TotpCodeFieldProps) {
  const { t } = useTranslation('host');
  return (
    <Form.Item
      name="totp_code"
      label={label}
      {...(extra ? { extra } : {})}
      getValueFromEvent={(e: { target: { value: string } }) => digitsOnly(e.target.value)}
      rules={[
        {
          validator: (_rule, value: unknown) =>
            typeof value === 'string' && CODE_PATTERN.test(value)
              ? Promise.resolve()
              : Promise.reject(new Error(t('mfa.code_invalid'))),
        },
      ]}
    >
      <Input
        inputMode="numeric"
        autoComplete="one-time-code"
        maxLength={LIMITS.totpLength}
        pattern="[0-9]*"
        autoFocus
        data-testid={testId}
        style={{ maxWidth: 200, letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' }}
      />
    </Form.Item>
  );
}
