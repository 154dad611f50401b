import Col from 'antd/es/col';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Row from 'antd/es/row';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import Typography from 'antd/es/typography';
import { DIGEST_FREQUENCIES, DIGEST_LANGUAGES, type DigestFrequency, type NotificationPrefs } from '@qc/contracts';
import type { FormInstance } from 'antd/es/form';
import type { TFunction } from 'i18next';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { matchesTimeZone, timeZoneLabel, timeZoneOptions } from './time-zones';
import { useChoiceGroup } from '@qc/ui';

/** The four choices shared by one's own settings and the admin's defaults. */
export type PrefsValues = NotificationPrefs;

/** Same rule as the contract's SendTime (no zod in the page). */
export const SEND_TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;
const PREF_FIELDS = ['enabled', 'frequency', 'send_time', 'time_zone', 'language'] as const;

/**
 * The API's 400 `errors` on the fields they name, in the user's language (never the API's English
 * words). Answers whether any field was marked.
 */
export function showFieldErrors(
  form: FormInstance,
  errors: Record<string, string>,
  t: TFunction<'host'>,
  fields: readonly string[] = PREF_FIELDS,
): boolean {
  const marked = fields.filter((name) => errors[name]);
  form.setFields(marked.map((name) => ({ name, errors: [t(`quarantine_notifications.invalid.${name}`)] })));
  return marked.length > 0;
}

/**
 * Enabled, frequency, send time, time zone (a searchable list of the browser's zones), the
 * e-mail's language. `idPrefix`
 * keeps the ids apart when the admin's defaults form is on the same page.
 */
export function PrefsFields({
  form,
  idPrefix,
  timeZoneHint,
}: {
  form: FormInstance;
  idPrefix: string;
  timeZoneHint?: string | null;
}) {
  const { t } = useTranslation('host');
  const choiceGroup = useChoiceGroup();
  const enabled = Form.useWatch('enabled', form) as boolean | undefined;
  const frequency = Form.useWatch('frequency', form) as DigestFrequency | undefined;
  const current = Form.useWatch('time_zone', form) as string | undefined;
  const zones = useMemo(() => timeZoneOptions([current]), [current]);
  const options = useMemo(() => zones.map((tz) => ({ value: tz, label: timeZoneLabel(tz) })), [zones]);
  const k = (key: string) => t(`quarantine_notifications.${key}`);
  const help = enabled === false ? k('off') : frequency ? k(`frequency_help.${frequency}`) : undefined;

  return (
    <>
      <Form.Item name="enabled" label={k('enabled')} valuePropName="checked">
        <Switch data-testid={`${idPrefix}-enabled`} />
      </Form.Item>
      <Form.Item name="frequency" label={k('frequency')} extra={help}>
        <Radio.Group
          {...choiceGroup}
          aria-label={k('frequency')}
          data-testid={`${idPrefix}-frequency`}
          options={DIGEST_FREQUENCIES.map((f) => ({ value: f, label: k(`frequencies.${f}`) }))}
          style={{ display: 'flex', flexWrap: 'wrap', rowGap: 8 }}
        />
      </Form.Item>
      <Row gutter={16}>
        <Col xs={24} sm={8}>
          <Form.Item
            name="send_time"
            label={k('send_time')}
            validateFirst
            rules={[{ required: true, pattern: SEND_TIME_PATTERN, message: k('invalid.send_time') }]}
          >
            <Input
              inputMode="numeric"
              maxLength={5}
              placeholder={k('send_time_placeholder')}
              autoComplete="off"
              data-testid={`${idPrefix}-send-time`}
              style={{ maxWidth: 160 }}
            />
          </Form.Item>
        </Col>
        <Col xs={24} sm={16}>
          <Form.Item
            name="time_zone"
            label={k('time_zone')}
            rules={[{ required: true, message: k('invalid.required_time_zone') }]}
            extra={timeZoneHint ?? undefined}
          >
            <Select
              showSearch={{ filterOption: (input, option) => !!option && matchesTimeZone(input, String(option.value)) }}
              options={options}
              placeholder={k('time_zone_search')}
              notFoundContent={<Typography.Text type="secondary">{k('no_time_zone')}</Typography.Text>}
              data-testid={`${idPrefix}-time-zone`}
              style={{ width: '100%' }}
            />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="language" label={k('language')}>
        <Radio.Group
          {...choiceGroup}
          aria-label={k('language')}
          data-testid={`${idPrefix}-language`}
          options={DIGEST_LANGUAGES.map((l) => ({ value: l, label: t(`common:language.${l}`) }))}
        />
      </Form.Item>
    </>
  );
}
