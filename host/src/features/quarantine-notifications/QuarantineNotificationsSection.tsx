import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Descriptions from 'antd/es/descriptions';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Switch from 'antd/es/switch';
import { errorMessageKey, isHTTPError, readApiError, type NotificationSettingsBody } from '@qc/api-client';
import { useSession } from '@qc/auth';
import { DIGEST_LANGUAGES, type DigestLanguage, type NotificationSettings } from '@qc/contracts';
import type { TFunction } from 'i18next';
import { formatDateTime, PageError, PageLoading } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { NotificationDefaultsPanel } from './NotificationDefaultsPanel';
import { useNotificationSettings, useSaveNotificationSettings, useSendTestDigest } from './notifications.queries';
import { PrefsFields, showFieldErrors, type PrefsValues } from './PrefsFields';
import { browserTimeZone, timeZoneOptions } from './time-zones';

type OwnValues = PrefsValues & { domain_digest: boolean };

/**
 * The form's values: the saved ones; while they are still the console's defaults, the browser's
 * time zone and the interface's language are proposed instead (saved only when the user saves).
 */
function valuesOf(s: NotificationSettings, uiLanguage: string): { values: OwnValues; proposedZone: boolean } {
  const browser = browserTimeZone();
  const language =
    s.is_default && (DIGEST_LANGUAGES as readonly string[]).includes(uiLanguage) ? uiLanguage : s.language;
  const propose = s.is_default && !!browser && browser !== s.time_zone && timeZoneOptions([]).includes(browser);
  return {
    values: {
      enabled: s.enabled,
      frequency: s.frequency,
      send_time: s.send_time,
      time_zone: propose ? browser : s.time_zone,
      language: language as DigestLanguage,
      domain_digest: s.domain_digest,
    },
    proposedZone: propose,
  };
}

/** What the test digest's failure means, in words (429 with its wait; the relay's 502/503). */
function testFailure(error: unknown, t: TFunction<'host'>): string {
  const { status, code } = readApiError(error);
  if (status === 429) {
    const after = isHTTPError(error) ? Number(error.response.headers.get('retry-after') ?? NaN) : NaN;
    return Number.isFinite(after) && after > 0
      ? t('quarantine_notifications.test.rate_limited_after', { seconds: Math.ceil(after) })
      : t('quarantine_notifications.test.rate_limited');
  }
  if (code === 'relay_refused' || code === 'relay_unreachable' || code === 'relay_not_configured') {
    // A 502 carries the relay's answer (`relay_response`): shown as it came.
    const data = isHTTPError(error) ? (error.data as { relay_response?: unknown } | undefined) : undefined;
    const answer = typeof data?.relay_response === 'string' ? data.relay_response : null;
    const text = t(`quarantine_notifications.test.${code}`);
    return answer ? `${text} ${t('quarantine_notifications.relay_answer', { answer })}` : text;
  }
  if (status === 502) return t('quarantine_notifications.test.relay_unreachable');
  return t(`common:${errorMessageKey(error)}`);
}

function OwnSettingsForm({ settings, isDomainAdmin }: { settings: NotificationSettings; isDomainAdmin: boolean }) {
  const { t, i18n } = useTranslation('host');
  const [form] = Form.useForm<OwnValues>();
  const save = useSaveNotificationSettings();
  const test = useSendTestDigest();
  const [{ values: initial, proposedZone }] = useState(() => valuesOf(settings, i18n.language));
  const [zoneHint, setZoneHint] = useState(proposedZone);
  const k = (key: string, o: Record<string, unknown> = {}) => t(`quarantine_notifications.${key}`, o);

  // Saved elsewhere (another tab, the defaults changed by an admin): follow unless being edited.
  useEffect(() => {
    if (!form.isFieldsTouched()) form.setFieldsValue(valuesOf(settings, i18n.language).values);
  }, [settings, form, i18n.language]);

  const onFinish = async (values: OwnValues) => {
    const body: NotificationSettingsBody = {
      enabled: values.enabled,
      frequency: values.frequency,
      send_time: values.send_time.trim(),
      time_zone: values.time_zone,
      language: values.language,
      // Only a domain_admin may have it (refused for the other roles).
      ...(isDomainAdmin ? { domain_digest: values.domain_digest } : {}),
    };
    try {
      const saved = await save.mutateAsync(body);
      form.resetFields();
      form.setFieldsValue(valuesOf(saved, i18n.language).values);
      setZoneHint(false);
      notify({ type: 'success', title: k('success') });
    } catch (error) {
      const { status, errors = {} } = readApiError(error);
      const marked = showFieldErrors(form, errors, t, [
        'enabled',
        'frequency',
        'send_time',
        'time_zone',
        'language',
        'domain_digest',
      ]);
      const described = !marked || status === 0 || status >= 500;
      notify({
        type: 'error',
        title: k('error'),
        ...(described ? { description: t(`common:${errorMessageKey(error)}`) } : {}),
      });
    }
  };

  const onTest = async () => {
    try {
      const res = await test.mutateAsync();
      if (res.sent) notify({ type: 'success', title: k('test.sent', { count: res.count }) });
      else if (!res.relay_response) notify({ type: 'info', title: k('test.empty') });
      else
        notify({
          type: 'error',
          title: k('test.error'),
          description: k('relay_answer', { answer: res.relay_response }),
        });
    } catch (error) {
      notify({ type: 'error', title: k('test.error'), description: testFailure(error, t) });
    }
  };

  return (
    <Form<OwnValues>
      form={form}
      name="quarantine-notifications"
      layout="vertical"
      initialValues={initial}
      onFinish={onFinish}
      onValuesChange={(changed: Partial<OwnValues>) => {
        if ('time_zone' in changed) setZoneHint(false);
      }}
      data-testid="notifications-form"
    >
      {settings.last_attempt_failed ? (
        <Alert
          type="warning"
          showIcon
          role="alert"
          title={k('last_failed_title')}
          description={
            <>
              {settings.last_error ? <div>{k('relay_answer', { answer: settings.last_error })}</div> : null}
              <div>{k('last_failed_body')}</div>
            </>
          }
          style={{ marginBottom: 16 }}
          data-testid="notifications-last-failed"
        />
      ) : null}
      <PrefsFields form={form} idPrefix="notifications" timeZoneHint={zoneHint ? k('time_zone_browser') : null} />
      {isDomainAdmin ? (
        <Form.Item
          name="domain_digest"
          label={k('domain_digest')}
          valuePropName="checked"
          extra={k('domain_digest_help')}
        >
          <Switch data-testid="notifications-domain-digest" />
        </Form.Item>
      ) : null}
      <Descriptions
        size="small"
        column={1}
        style={{ marginBottom: 16 }}
        items={[
          {
            key: 'last_sent',
            label: k('last_sent'),
            children: (
              <span data-testid="notifications-last-sent">
                {settings.last_sent ? formatDateTime(settings.last_sent, i18n.language) : k('never_sent')}
              </span>
            ),
          },
        ]}
      />
      <Form.Item style={{ marginBottom: 0 }}>
        <Flex gap={12} wrap>
          <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="notifications-save">
            {k('save')}
          </Button>
          <Button onClick={() => void onTest()} loading={test.isPending} data-testid="notifications-test">
            {k('test.button')}
          </Button>
        </Flex>
      </Form.Item>
    </Form>
  );
}

/**
 * Settings §quarantine notifications (spec §3, issue 20): one's own digest settings for every role,
 * plus, for an admin, the defaults every user without their own settings gets.
 */
export function QuarantineNotificationsSection() {
  const { t } = useTranslation('host');
  const role = useSession((s) => s.user?.role);
  const settings = useNotificationSettings();

  let own;
  if (settings.data) own = <OwnSettingsForm settings={settings.data} isDomainAdmin={role === 'domain_admin'} />;
  else if (settings.isError)
    own = (
      <PageError
        title={t('quarantine_notifications.load_error')}
        description={t(`common:${errorMessageKey(settings.error)}`)}
        onRetry={() => void settings.refetch()}
      />
    );
  else own = <PageLoading />;

  return (
    <Flex vertical gap={24} data-testid="notifications-section">
      {own}
      {role === 'admin' ? <NotificationDefaultsPanel /> : null}
    </Flex>
  );
}
