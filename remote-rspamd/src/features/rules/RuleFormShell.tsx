import { ArrowLeftOutlined, DeleteOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Form, { type FormInstance } from 'antd/es/form';
import Radio from 'antd/es/radio';
import Typography from 'antd/es/typography';
import { FormError, PageHeader, useDocumentTitle } from '@qc/ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { useConfirmDelete } from './DeleteRule';
import type { RuleEndpoint } from './rules.api';
import type { RuleAction } from './rules.types';
import type { RuleKind } from './RuleTable';

/**
 * The page of a rule's form, create or edit: title and way back, what the kind matches, the api's
 * refusal above the form, the fields (`children`), then Save / Cancel and, when editing, Delete.
 */
export function RuleFormShell<V>({
  kind,
  ep,
  form,
  title,
  intro,
  testId,
  backTo,
  editing,
  initialValues,
  onValuesChange,
  onFinish,
  saving,
  refusal,
  children,
}: {
  kind: RuleKind;
  ep: RuleEndpoint;
  form: FormInstance<V>;
  title: string;
  /** What this kind of rule matches and how (shown above the form). */
  intro: ReactNode;
  testId: string;
  /** The list to go back to (after saving, cancelling or deleting). */
  backTo: string;
  /** The rule edited (its id and name), or null for a new one. */
  editing: { id: string; name: string } | null;
  initialValues: Partial<V>;
  onValuesChange: () => void;
  onFinish: (values: V) => void;
  saving: boolean;
  refusal: string | null;
  children: ReactNode;
}) {
  const { t } = useTranslation('rspamd');
  const navigate = useNavigate();
  const back = () => navigate(backTo);
  const { confirmDelete, contextHolder, isPending: deleting } = useConfirmDelete(kind, ep, back);
  useDocumentTitle(title);
  return (
    <section aria-labelledby={`${testId}-title`} data-testid={testId} style={{ maxWidth: 760 }}>
      {contextHolder}
      <PageHeader
        title={<span id={`${testId}-title`}>{title}</span>}
        description={intro}
        extra={
          <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={back} data-testid="rule-form-back">
            {t('form.back')}
          </Button>
        }
      />
      <FormError message={refusal} />
      <Form<V>
        form={form}
        // Prefixes the fields' ids (`filter-form-page_value`): no clash with ids elsewhere on the page.
        name={testId}
        layout="vertical"
        // Values are kept in a form store: the initial ones are read once, at mount.
        initialValues={initialValues}
        onValuesChange={onValuesChange}
        onFinish={onFinish}
        scrollToFirstError={{ focus: true }}
        data-testid="rule-form"
      >
        {children}
        <Flex gap={8} wrap justify="space-between">
          <Flex gap={8} wrap>
            <Button type="primary" htmlType="submit" loading={saving} data-testid="rule-form-submit">
              {editing ? t('form.save') : t('form.create')}
            </Button>
            <Button onClick={back}>{t('form.cancel')}</Button>
          </Flex>
          {editing ? (
            <Button
              danger
              icon={<DeleteOutlined aria-hidden />}
              loading={deleting}
              onClick={() => confirmDelete(editing.id, editing.name)}
              data-testid="rule-form-delete"
            >
              {t('list.delete')}
            </Button>
          ) : null}
        </Flex>
      </Form>
    </section>
  );
}

/** The action of a rule: one radio per action, each saying what happens to the mail. */
export function ActionField({ actions, testId }: { actions: readonly RuleAction[]; testId: string }) {
  const { t } = useTranslation('rspamd');
  return (
    <Form.Item
      name="action"
      label={t('form.action')}
      rules={[{ required: true, message: t('errors.action_required') }]}
    >
      <Radio.Group data-testid={testId} style={{ display: 'flex', flexDirection: 'column', gap: 6 }}>
        {actions.map((a) => (
          <Radio key={a} value={a} data-testid={`${testId}-${a}`}>
            <Typography.Text strong>{t(`actions.${a}.label`)}</Typography.Text>
            <Typography.Text type="secondary"> — {t(`actions.${a}.help`)}</Typography.Text>
          </Radio>
        ))}
      </Radio.Group>
    </Form.Item>
  );
}

/** Whether the api's normalised form of a value says something the typed one does not. */
export const storedDiffers = (typed: string, stored: string | null, suffix?: string) =>
  stored !== null && (stored !== typed.trim() || Boolean(suffix));

/** "Saved as …": the api's normalised form of a value, when it differs from what was typed. */
export function StoredHint({ typed, stored, suffix }: { typed: string; stored: string | null; suffix?: string }) {
  const { t } = useTranslation('rspamd');
  if (!storedDiffers(typed, stored, suffix)) return null;
  return (
    <Typography.Text type="secondary" data-testid="rule-stored-hint">
      {t('form.stored_as', { value: stored })}
      {suffix ? ` (${suffix})` : ''}
    </Typography.Text>
  );
}
