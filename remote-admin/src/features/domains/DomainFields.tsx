import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useTranslation } from 'react-i18next';
import { DOMAIN_DESCRIPTION_MAX, DOMAIN_NAME_MAX } from './domains.types';

export interface DomainValues {
  name: string;
  description: string;
}

export const DOMAIN_FORM_FIELDS = ['name', 'description'] as const satisfies readonly (keyof DomainValues)[];

/**
 * Name and description of a domain. The name is checked by the API (IDNA: "café.fr" is stored as
 * "xn--caf-dma.fr"): here only that it is there and not too long.
 */
export function DomainFields({ testPrefix }: { testPrefix: string }) {
  const { t } = useTranslation('admin');
  return (
    <>
      <Form.Item
        name="name"
        label={t('domain_form.name')}
        extra={t('domain_form.name_help')}
        rules={[
          { required: true, whitespace: true, message: t('form.errors.name_required') },
          { max: DOMAIN_NAME_MAX, message: t('form.errors.too_long', { max: DOMAIN_NAME_MAX }) },
        ]}
      >
        <Input autoComplete="off" spellCheck={false} data-testid={`${testPrefix}-name`} />
      </Form.Item>
      <Form.Item
        name="description"
        label={t('domain_form.description')}
        rules={[{ max: DOMAIN_DESCRIPTION_MAX, message: t('form.errors.too_long', { max: DOMAIN_DESCRIPTION_MAX }) }]}
      >
        <Input.TextArea
          autoSize={{ minRows: 2, maxRows: 6 }}
          maxLength={DOMAIN_DESCRIPTION_MAX}
          showCount
          data-testid={`${testPrefix}-description`}
        />
      </Form.Item>
    </>
  );
}
