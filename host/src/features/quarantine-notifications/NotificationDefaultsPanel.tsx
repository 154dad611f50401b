import Button from 'antd/es/button';
import Form from 'antd/es/form';
import Typography from 'antd/es/typography';
import { errorMessageKey, readApiError } from '@qc/api-client';
import type { NotificationDefaults } from '@qc/contracts';
import { PageError, PageLoading, useThemeToken } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { useEffect, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNotificationDefaults, useSaveNotificationDefaults } from './notifications.queries';
import { PrefsFields, showFieldErrors } from './PrefsFields';

function DefaultsForm({ defaults }: { defaults: NotificationDefaults }) {
  const { t } = useTranslation('host');
  const [form] = Form.useForm<NotificationDefaults>();
  const save = useSaveNotificationDefaults();
  const k = (key: string) => t(`quarantine_notifications.defaults.${key}`);

  useEffect(() => {
    if (!form.isFieldsTouched()) form.setFieldsValue(defaults);
  }, [defaults, form]);

  const onFinish = async (values: NotificationDefaults) => {
    try {
      const saved = await save.mutateAsync({ ...values, send_time: values.send_time.trim() });
      form.resetFields();
      form.setFieldsValue(saved);
      notify({ type: 'success', title: k('success') });
    } catch (error) {
      const { status, errors = {} } = readApiError(error);
      const marked = showFieldErrors(form, errors, t);
      const described = !marked || status === 0 || status >= 500;
      notify({
        type: 'error',
        title: k('error'),
        ...(described ? { description: t(`common:${errorMessageKey(error)}`) } : {}),
      });
    }
  };

  return (
    <Form<NotificationDefaults>
      form={form}
      name="notification-defaults"
      layout="vertical"
      initialValues={defaults}
      onFinish={onFinish}
      data-testid="notification-defaults-form"
    >
      <PrefsFields form={form} idPrefix="notification-defaults" />
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="notification-defaults-save">
          {k('save')}
        </Button>
      </Form.Item>
    </Form>
  );
}

/** Admin only: GET/PUT /api/notifications/defaults/, what every user who never saved their own gets. */
export function NotificationDefaultsPanel() {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  const titleId = useId();
  const defaults = useNotificationDefaults(true);
  const k = (key: string) => t(`quarantine_notifications.defaults.${key}`);

  let body;
  if (defaults.data) body = <DefaultsForm defaults={defaults.data} />;
  else if (defaults.isError)
    body = (
      <PageError
        title={k('load_error')}
        description={t(`common:${errorMessageKey(defaults.error)}`)}
        onRetry={() => void defaults.refetch()}
      />
    );
  else body = <PageLoading />;

  return (
    <section
      aria-labelledby={titleId}
      data-testid="notification-defaults"
      style={{ borderTop: `1px solid ${token.colorBorderSecondary}`, paddingTop: 16 }}
    >
      <h3 id={titleId} style={{ margin: '0 0 8px', fontSize: 15, fontWeight: 600 }}>
        {k('title')}
      </h3>
      <Typography.Paragraph type="secondary">{k('description')}</Typography.Paragraph>
      {body}
    </section>
  );
}
