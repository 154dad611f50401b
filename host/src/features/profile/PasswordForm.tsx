import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Typography from 'antd/es/typography';
import { errorMessageKey, readApiError } from '@qc/api-client';
import { LIMITS } from '@qc/contracts';
import { notify } from '@qc/ui-state';
import { useTranslation } from 'react-i18next';
import { PasswordInput } from '../login/PasswordInput';
import { useChangePassword } from './profile.queries';

/** The API's maximum (PasswordChangeRequest in @qc/contracts; kept here: no zod in the page). */

interface PasswordValues {
  current_password: string;
  new_password: string;
  confirm_password: string;
}

/**
 * Password change (spec §5): current required; new required, ≥ 8 and ≤ 1024 characters; confirmation
 * required and equal. A wrong current password is a 400 from the API: shown on its field, and the
 * session goes on (only a 401 makes the api client refresh, and never signs out on a 400).
 */
export function PasswordForm() {
  const { t } = useTranslation('host');
  const [form] = Form.useForm<PasswordValues>();
  const change = useChangePassword();

  const onFinish = async ({ current_password, new_password }: PasswordValues) => {
    try {
      await change.mutateAsync({ current_password, new_password });
      form.resetFields();
      notify({ type: 'success', title: t('profile.password.success') });
    } catch (error) {
      const { status, errors = {} } = readApiError(error);
      const fields: { name: keyof PasswordValues; errors: string[] }[] = [];
      if (errors.current_password)
        fields.push({ name: 'current_password', errors: [t('profile.password.wrong_current')] });
      if (errors.new_password) {
        // The API's rule is the form's own (8 to 1024 characters): its English words are not shown.
        const long = new_password.length > LIMITS.passwordMax;
        fields.push({
          name: 'new_password',
          errors: [
            long
              ? t('profile.password.too_long', { max: LIMITS.passwordMax })
              : t('profile.password.too_short', { min: LIMITS.passwordMin }),
          ],
        });
      }
      form.setFields(fields);
      const description = fields.length === 0 || status === 429 ? t(`common:${errorMessageKey(error)}`) : undefined;
      notify({ type: 'error', title: t('profile.password.error'), ...(description ? { description } : {}) });
    }
  };

  return (
    <Form<PasswordValues>
      form={form}
      name="password"
      layout="vertical"
      onFinish={onFinish}
      data-testid="password-form"
      style={{ maxWidth: 420 }}
    >
      <Typography.Paragraph type="secondary" style={{ marginTop: 0 }}>
        {t('profile.password.description')}
      </Typography.Paragraph>
      <Form.Item
        name="current_password"
        label={t('profile.password.current')}
        rules={[{ required: true, message: t('profile.password.current_required') }]}
      >
        <PasswordInput autoComplete="current-password" data-testid="password-current" />
      </Form.Item>
      <Form.Item
        name="new_password"
        label={t('profile.password.new')}
        validateFirst
        rules={[
          { required: true, message: t('profile.password.new_required') },
          { min: LIMITS.passwordMin, message: t('profile.password.too_short', { min: LIMITS.passwordMin }) },
          { max: LIMITS.passwordMax, message: t('profile.password.too_long', { max: LIMITS.passwordMax }) },
        ]}
      >
        <PasswordInput autoComplete="new-password" data-testid="password-new" />
      </Form.Item>
      <Form.Item
        name="confirm_password"
        label={t('profile.password.confirm')}
        dependencies={['new_password']}
        validateFirst
        rules={[
          { required: true, message: t('profile.password.confirm_required') },
          ({ getFieldValue }) => ({
            validator: (_rule, value: unknown) =>
              value === getFieldValue('new_password')
                ? Promise.resolve()
                : Promise.reject(new Error(t('profile.password.mismatch'))),
          }),
        ]}
      >
        <PasswordInput autoComplete="new-password" data-testid="password-confirm" />
      </Form.Item>
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" loading={change.isPending} data-testid="password-submit">
          {t('profile.password.submit')}
        </Button>
      </Form.Item>
    </Form>
  );
}
