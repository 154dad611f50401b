import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useSession } from '@qc/auth';
import { notify } from '@qc/ui-state';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loginErrorMessage } from './login-errors';
import { PasswordInput } from './PasswordInput';

interface LoginValues {
  email: string;
  password: string;
}

export interface LoginFormProps {
  /** Called when the submit starts (the host prefetches the shell chunk meanwhile). */
  onSubmitStart?: () => void;
}

/** E-mail + password step (spec §2, §4, §5, §8). */
export function LoginForm({ onSubmitStart }: LoginFormProps) {
  const { t } = useTranslation('host');
  const login = useSession((s) => s.login);
  const [submitting, setSubmitting] = useState(false);

  const onFinish = async ({ email, password }: LoginValues) => {
    onSubmitStart?.();
    setSubmitting(true);
    try {
      const outcome = await login(email.trim(), password);
      if (outcome === 'authenticated') notify({ type: 'success', title: t('login.success') });
    } catch (error) {
      notify({ type: 'error', title: loginErrorMessage(error, 'password', t) });
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form<LoginValues>
      name="login"
      layout="vertical"
      requiredMark={false}
      onFinish={onFinish}
      validateTrigger="onSubmit"
      noValidate
    >
      <Form.Item
        name="email"
        label={t('login.email')}
        validateFirst
        rules={[
          { required: true, whitespace: true, message: t('login.email_required') },
          { type: 'email', message: t('login.email_invalid') },
        ]}
      >
        <Input type="email" autoComplete="username" placeholder={t('login.email_placeholder')} autoFocus />
      </Form.Item>
      <Form.Item
        name="password"
        label={t('login.password')}
        rules={[{ required: true, message: t('login.password_required') }]}
      >
        <PasswordInput autoComplete="current-password" />
      </Form.Item>
      <Form.Item style={{ marginBottom: 0 }}>
        {/* An explicit name: antd can leave its hidden "loading" icon label behind after a fast answer. */}
        <Button type="primary" htmlType="submit" block loading={submitting} aria-label={t('login.submit')}>
          {t('login.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
