import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { isAuthError, useSession, type SecondFactorMethod } from '@qc/auth';
import { LIMITS } from '@qc/contracts';
import { notify } from '@qc/ui-state';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loginErrorKey } from './login-errors';

interface CodeValues {
  code: string;
}

/** Spec §9: two-factor code length. */
export const TOTP_LENGTH = LIMITS.totpLength;
/** Longest backup code the API accepts (VerifyTotpRequest). */
export const BACKUP_CODE_MAX = 64;

const TOTP_PATTERN = new RegExp(`^\\d{${TOTP_LENGTH}}$`);
const digitsOnly = (v: string) => v.replace(/\D/g, '').slice(0, TOTP_LENGTH);

/**
 * Second factor (lazy chunk; spec §2, §4, §5, DESIGN §7): a numeric code of 6 digits, or, through
 * "use a backup code", one of the single-use backup codes. Success stores the tokens and signs in
 * (the host then leaves /login for the remembered origin or /dashboard). A rate limit or an expired
 * challenge ends the step: the session store clears the partial token, the password form is back.
 */
export default function TwoFactorStep({ onSubmitStart }: { onSubmitStart?: () => void }) {
  const { t } = useTranslation('host');
  const verifyTotp = useSession((s) => s.verifyTotp);
  const cancel = useSession((s) => s.cancelTwoFactor);
  const [method, setMethod] = useState<SecondFactorMethod>('totp');
  const [submitting, setSubmitting] = useState(false);
  const [form] = Form.useForm<CodeValues>();
  const backup = method === 'backup';

  const onFinish = async ({ code }: CodeValues) => {
    onSubmitStart?.();
    setSubmitting(true);
    try {
      await verifyTotp(backup ? code.trim() : code, method);
      notify({ type: 'success', title: t('login.success') });
    } catch (error) {
      if (isAuthError(error) && error.status === 429) {
        notify({ type: 'error', title: t('login.rate_limited'), description: t('login.totp_restart') });
      } else if (isAuthError(error) && (error.code === 'token_invalid' || error.code === 'token_expired')) {
        notify({ type: 'error', title: t('login.totp_expired') });
      } else if (isAuthError(error) && error.code === 'no_partial_token') {
        // The spec's title, and what to do: the sign-in has to start again.
        notify({ type: 'error', title: t('login.partial_token_missing'), description: t('login.totp_restart') });
      } else {
        notify({ type: 'error', title: t(loginErrorKey(error, 'totp')) });
      }
    } finally {
      setSubmitting(false);
    }
  };

  const switchMethod = () => {
    setMethod(backup ? 'totp' : 'backup');
    form.resetFields();
  };

  return (
    <Form<CodeValues>
      form={form}
      name="totp"
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      validateTrigger="onSubmit"
      noValidate
      data-testid="two-factor-step"
      data-method={method}
    >
      <p style={{ marginTop: 0 }}>{backup ? t('login.backup_description') : t('login.totp_description')}</p>
      {backup ? (
        <Form.Item
          key="backup"
          name="code"
          label={t('login.backup_code')}
          rules={[{ required: true, whitespace: true, message: t('login.backup_required') }]}
        >
          <Input
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={BACKUP_CODE_MAX}
            autoFocus
            data-testid="backup-code-input"
            style={{ fontFamily: 'monospace', letterSpacing: '0.1em' }}
          />
        </Form.Item>
      ) : (
        <Form.Item
          key="totp"
          name="code"
          label={t('login.totp_code')}
          getValueFromEvent={(e: { target: { value: string } }) => digitsOnly(e.target.value)}
          rules={[
            {
              // Spec §5: non-empty and exactly 6 characters, else login.totp_invalid.
              validator: (_rule, value: unknown) =>
                typeof value === 'string' && TOTP_PATTERN.test(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('login.totp_invalid'))),
            },
          ]}
        >
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={TOTP_LENGTH}
            pattern="[0-9]*"
            autoFocus
            data-testid="totp-input"
            style={{ letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' }}
          />
        </Form.Item>
      )}
      <Form.Item style={{ marginBottom: 8 }}>
        <Button type="primary" htmlType="submit" block loading={submitting} data-testid="totp-submit">
          {t('login.totp_submit')}
        </Button>
      </Form.Item>
      <Button type="link" block onClick={switchMethod} data-testid="backup-code-switch">
        {backup ? t('login.totp_use_app') : t('login.totp_use_backup')}
      </Button>
      <Button type="link" block onClick={cancel} data-testid="totp-back">
        {t('login.totp_back')}
      </Button>
    </Form>
  );
}
