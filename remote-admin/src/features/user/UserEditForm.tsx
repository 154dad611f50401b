import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Card from 'antd/es/card';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Select from 'antd/es/select';
import Switch from 'antd/es/switch';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import { notify } from '@qc/ui-state';
import { useEffect, useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FormError, useFormRefusal } from '../forms/FormError';
import { confirmRules, passwordRules, roleOptions, USER_FORM_FIELDS, usernameRules } from '../users/user-form';
import { useUpdateUser } from '../users/users.queries';
import { isManagedElsewhere, type AdminUser, type Role, type UserUpdate } from '../users/users.types';
import { DomainField, NameFields } from '../users/UserFields';

interface EditValues {
  email: string;
  username: string;
  first_name: string;
  last_name: string;
  role: Role;
  domain_id: string | null;
  is_external: boolean;
  is_active: boolean;
  mfa_required: boolean;
  password?: string;
  password_confirm?: string;
}

const FORM_FIELDS = [
  ...USER_FORM_FIELDS,
  'is_active',
  'is_external',
  'mfa_required',
] as const satisfies readonly (keyof EditValues)[];

export function valuesOf(user: AdminUser): EditValues {
  return {
    email: user.email,
    username: user.username,
    first_name: user.first_name,
    last_name: user.last_name,
    role: user.role,
    domain_id: user.domain?.id ?? null,
    is_external: user.is_external,
    is_active: user.is_active,
    mfa_required: user.mfa_required,
    password: '',
    password_confirm: '',
  };
}

/** PATCH body: only the fields that differ from the user as loaded (and a new password if typed). */
export function changesOf(
  values: Partial<EditValues>,
  user: AdminUser,
  editable: ReadonlySet<keyof UserUpdate>,
): UserUpdate {
  const before = valuesOf(user);
  const changes: UserUpdate = {};
  const put = <K extends keyof UserUpdate>(key: K, value: UserUpdate[K]) => {
    if (editable.has(key)) changes[key] = value;
  };
  for (const key of ['email', 'username', 'first_name', 'last_name'] as const) {
    const v = values[key];
    if (typeof v === 'string' && v.trim() !== before[key]) put(key, v.trim());
  }
  if (values.role !== undefined && values.role !== before.role) put('role', values.role);
  if (values.domain_id !== undefined && (values.domain_id ?? null) !== before.domain_id)
    put('domain_id', values.domain_id ?? null);
  for (const key of ['is_external', 'is_active', 'mfa_required'] as const) {
    const v = values[key];
    if (typeof v === 'boolean' && v !== before[key]) put(key, v);
  }
  if (values.password) put('password', values.password);
  return changes;
}

/** A control the user may not use on their own account: disabled, with the reason shown and in a tooltip. */
function SelfGuard({ reason, children }: { reason: string | null; children: ReactNode }) {
  if (!reason) return <>{children}</>;
  return (
    <Tooltip title={reason}>
      <span style={{ display: 'inline-block' }}>{children}</span>
    </Tooltip>
  );
}

/**
 * The user's fields (spec §3), editable per spec §6 and DESIGN §4.1: external users keep their
 * username and e-mail; role and domain are the admin's; nobody deactivates or demotes themselves.
 */
export function UserEditForm({
  user,
  canManage,
  isAdmin,
  isSelf,
}: {
  user: AdminUser;
  canManage: boolean;
  isAdmin: boolean;
  isSelf: boolean;
}) {
  const { t } = useTranslation('admin');
  const [form] = Form.useForm<EditValues>();
  const update = useUpdateUser(user.id);
  const refusal = useFormRefusal(form, FORM_FIELDS);
  const base = useId();
  const values = Form.useWatch([], form) as Partial<EditValues> | undefined;

  // A directory or SSO account: its identity, role, domain and password are set there (issue 31).
  const managed = isManagedElsewhere(user);
  const managedHelp = managed ? t(`user.managed.field_${user.source}`) : null;
  const identityLocked = user.is_external || !canManage || managed;
  // The e-mail is the primary address: a local account's is chosen in the addresses editor.
  const editable = new Set<keyof UserUpdate>(
    !canManage
      ? []
      : [
          ...(identityLocked ? [] : (['username'] as const)),
          'first_name',
          'last_name',
          'is_external',
          'mfa_required',
          ...(managed ? [] : (['password'] as const)),
          ...(isSelf ? [] : (['is_active'] as const)),
          ...(isAdmin && !isSelf && !managed ? (['role'] as const) : []),
          ...(isAdmin && !managed ? (['domain_id'] as const) : []),
        ],
  );
  const emailHelp = managedHelp ?? (canManage && !user.is_external ? t('form.email_primary_help') : null);
  // A new primary address chosen in the addresses editor is the e-mail shown here.
  useEffect(() => form.setFieldsValue({ email: user.email }), [form, user.email]);
  const changes = values ? changesOf(values, user, editable) : {};
  const dirty = Object.keys(changes).length > 0;

  const save = async (all: EditValues) => {
    refusal.clear();
    const body = changesOf(all, user, editable);
    if (!Object.keys(body).length) return;
    try {
      const saved = await update.mutateAsync(body);
      form.setFieldsValue(valuesOf(saved));
      notify({ type: 'success', title: t('user.saved') });
    } catch (error) {
      const message = refusal.refuse(error);
      notify({ type: 'error', title: t('user.save_error'), description: message ?? undefined });
    }
  };

  const selfRole = isSelf && isAdmin ? t('user.self_role') : null;
  const selfActive = isSelf ? t('user.self_deactivate') : null;

  return (
    <Card title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('user.details')}</h2>} style={{ marginBottom: 24 }}>
      {managed ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t(`user.managed.${user.source}`)}
          data-testid="user-managed-notice"
        />
      ) : null}
      {user.is_external ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('user.external_notice')}
          data-testid="user-external-notice"
        />
      ) : null}
      {!canManage ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('user.read_only_notice')}
          data-testid="user-read-only"
        />
      ) : null}
      <FormError message={refusal.message} />
      <Form<EditValues>
        form={form}
        name={`user-${user.id}`}
        layout="vertical"
        initialValues={valuesOf(user)}
        disabled={!canManage}
        onFinish={(v) => void save(v)}
        scrollToFirstError={{ focus: true }}
        data-testid="user-form"
      >
        <Flex gap={16} wrap>
          <Form.Item name="email" label={t('form.email')} extra={emailHelp} style={{ flex: '1 1 280px' }}>
            <Input type="email" readOnly autoComplete="off" data-testid="user-email" />
          </Form.Item>
          <Form.Item
            name="username"
            label={t('form.username')}
            extra={managedHelp}
            rules={identityLocked ? [] : usernameRules(t, true)}
            style={{ flex: '1 1 280px' }}
          >
            <Input readOnly={identityLocked} autoComplete="off" data-testid="user-username" />
          </Form.Item>
        </Flex>
        <NameFields basis={280} testPrefix="user" />
        {isAdmin ? (
          <Flex gap={16} wrap>
            <Form.Item name="role" label={t('form.role')} style={{ flex: '1 1 280px' }} extra={managedHelp ?? selfRole}>
              <Select<Role>
                disabled={Boolean(selfRole) || managed}
                options={roleOptions(t)}
                data-testid="user-role-select"
              />
            </Form.Item>
            <DomainField
              basis={280}
              placeholder={t('form.no_domain')}
              testId="user-domain-select"
              disabled={managed}
              extra={managedHelp}
            />
          </Flex>
        ) : (
          <Typography.Paragraph type="secondary" data-testid="user-domain">
            {t('form.domain_value', { domain: user.domain?.name ?? t('none') })}
          </Typography.Paragraph>
        )}
        <Form.Item
          name="is_active"
          label={t('user.active')}
          valuePropName="checked"
          extra={selfActive ?? t('user.active_help')}
        >
          <SelfGuardedSwitch reason={selfActive} testId="user-active" />
        </Form.Item>
        <Form.Item
          name="mfa_required"
          label={t('form.mfa_required')}
          valuePropName="checked"
          extra={t('form.mfa_required_help')}
        >
          <Switch data-testid="user-mfa-required" />
        </Form.Item>
        <Form.Item
          name="is_external"
          valuePropName="checked"
          label={t('form.external')}
          extra={t('form.external_help')}
        >
          <Switch data-testid="user-external" />
        </Form.Item>
        {canManage && !managed ? (
          <Flex gap={16} wrap>
            <Form.Item
              name="password"
              label={t('form.new_password')}
              extra={t('form.new_password_help')}
              rules={passwordRules(t, false)}
              style={{ flex: '1 1 280px' }}
            >
              <Input.Password autoComplete="new-password" id={`${base}-password`} data-testid="user-password" />
            </Form.Item>
            <Form.Item
              name="password_confirm"
              label={t('form.password_confirm')}
              dependencies={['password']}
              rules={confirmRules(t, 'password')}
              style={{ flex: '1 1 280px' }}
            >
              <Input.Password autoComplete="new-password" data-testid="user-password-confirm" />
            </Form.Item>
          </Flex>
        ) : null}
        {canManage ? (
          <Button type="primary" htmlType="submit" disabled={!dirty} loading={update.isPending} data-testid="user-save">
            {t('user.save')}
          </Button>
        ) : null}
      </Form>
    </Card>
  );
}

/** The active switch, disabled with its reason when it is the caller's own account. */
function SelfGuardedSwitch({
  reason,
  testId,
  checked,
  onChange,
  id,
}: {
  reason: string | null;
  testId: string;
  checked?: boolean;
  onChange?: (v: boolean) => void;
  id?: string;
}) {
  return (
    <SelfGuard reason={reason}>
      <Switch
        id={id}
        checked={checked}
        onChange={onChange}
        disabled={Boolean(reason) || undefined}
        data-testid={testId}
      />
    </SelfGuard>
  );
}
