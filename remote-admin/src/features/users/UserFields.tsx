import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import { useTranslation } from 'react-i18next';
import { DomainSelect } from '../domains/DomainSelect';
import { domainRules, nameRules } from './user-form';

// Fields the new-user form and the user page's form have alike (inside an antd Form whose values
// hold them); `basis` is each field's flex basis on a row of two.

/** First and last name, side by side; inputs `<testPrefix>-first-name` and `<testPrefix>-last-name`. */
export function NameFields({ basis, testPrefix }: { basis: number; testPrefix: string }) {
  const { t } = useTranslation('admin');
  return (
    <Flex gap={16} wrap>
      <Form.Item name="first_name" label={t('form.first_name')} rules={nameRules(t)} style={{ flex: `1 1 ${basis}px` }}>
        <Input autoComplete="off" data-testid={`${testPrefix}-first-name`} />
      </Form.Item>
      <Form.Item name="last_name" label={t('form.last_name')} rules={nameRules(t)} style={{ flex: `1 1 ${basis}px` }}>
        <Input autoComplete="off" data-testid={`${testPrefix}-last-name`} />
      </Form.Item>
    </Flex>
  );
}

/** The user's domain (`domain_id`), checked again whenever the form's `role` changes: a domain_admin needs one. */
export function DomainField({
  basis,
  placeholder,
  testId,
  disabled,
  extra,
}: {
  basis: number;
  placeholder?: string;
  testId: string;
  /** Set elsewhere (a directory user's domain): shown, not changed. */
  disabled?: boolean;
  extra?: string | null;
}) {
  const { t } = useTranslation('admin');
  return (
    <Form.Item
      name="domain_id"
      label={t('form.domain')}
      dependencies={['role']}
      rules={disabled ? [] : domainRules(t)}
      extra={extra}
      style={{ flex: `1 1 ${basis}px` }}
    >
      <DomainSelect allowClear={!disabled} disabled={disabled} placeholder={placeholder} data-testid={testId} />
    </Form.Item>
  );
}
