import { ArrowLeftOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Checkbox from 'antd/es/checkbox';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Radio from 'antd/es/radio';
import Select from 'antd/es/select';
import { useSession } from '@qc/auth';
import { PageHeader, useDocumentTitle } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { FormError, useFormRefusal } from '../forms/FormError';
import {
  confirmRules,
  emailRules,
  passwordRules,
  roleOptions,
  USER_FORM_FIELDS,
  usernameRules,
} from '../users/user-form';
import { useCreateUser } from '../users/users.queries';
import type { Role, UserCreate } from '../users/users.types';
import { DomainField, NameFields } from '../users/UserFields';

interface NewUserValues {
  email: string;
  username?: string;
  first_name?: string;
  last_name?: string;
  role: Role;
  domain_id?: string | null;
  is_external: boolean;
  mfa_required: boolean;
  access: 'invitation' | 'password';
  password?: string;
  password_confirm?: string;
}

/** Fields the API may refuse by name, shown on the form. */
const FORM_FIELDS = USER_FORM_FIELDS satisfies readonly (keyof NewUserValues)[];

/** The body of POST /api/users/: only what was filled in; a domain_admin's user is theirs. */
export function toUserCreate(v: NewUserValues, isAdmin: boolean): UserCreate {
  const text = (s: string | undefined) => s?.trim() || undefined;
  const body: UserCreate = { email: v.email.trim(), role: isAdmin ? v.role : 'user' };
  const username = text(v.username);
  if (username) body.username = username;
  const first = text(v.first_name);
  if (first) body.first_name = first;
  const last = text(v.last_name);
  if (last) body.last_name = last;
  if (isAdmin && v.domain_id) body.domain_id = v.domain_id;
  if (v.is_external) body.is_external = true;
  if (v.mfa_required) body.mfa_required = true;
  if (v.access === 'password' && v.password) body.password = v.password;
  return body;
}

/**
 * Spec §2 `users/new`: a new account with a password, or an invitation e-mailed to it. A
 * domain_admin creates only `user`s of their own domain: no role or domain to choose.
 */
export default function NewUserPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const me = useSession((s) => s.user);
  const isAdmin = me?.role === 'admin';
  const [form] = Form.useForm<NewUserValues>();
  const access = Form.useWatch('access', form) ?? 'invitation';
  const create = useCreateUser();
  const refusal = useFormRefusal(form, FORM_FIELDS);
  useDocumentTitle(t('new_user.title'));

  const submit = async (values: NewUserValues) => {
    refusal.clear();
    try {
      const user = await create.mutateAsync(toUserCreate(values, isAdmin));
      notify({
        type: 'success',
        title: t('new_user.created'),
        ...(values.access === 'invitation' ? { description: t('new_user.invited', { email: user.email }) } : {}),
      });
      navigate(`../${encodeURIComponent(user.id)}`);
    } catch (error) {
      refusal.refuse(error);
    }
  };

  return (
    <section aria-labelledby="new-user-title" data-testid="new-user-page" style={{ maxWidth: 720 }}>
      <PageHeader
        title={<span id="new-user-title">{t('new_user.title')}</span>}
        description={
          isAdmin
            ? t('new_user.description')
            : t('new_user.description_domain_admin', { domain: me?.domain?.name ?? t('none') })
        }
        extra={
          <Button icon={<ArrowLeftOutlined aria-hidden />} onClick={() => navigate('..')}>
            {t('user.back')}
          </Button>
        }
      />
      <FormError message={refusal.message} />
      <Form<NewUserValues>
        form={form}
        name="new-user"
        layout="vertical"
        requiredMark
        initialValues={{ role: 'user', access: 'invitation', is_external: false, mfa_required: false, domain_id: null }}
        onFinish={(values) => void submit(values)}
        scrollToFirstError={{ focus: true }}
        data-testid="new-user-form"
      >
        <Form.Item name="email" label={t('form.email')} rules={emailRules(t)} required>
          <Input type="email" autoComplete="off" maxLength={254} data-testid="new-user-email" />
        </Form.Item>
        <Form.Item name="username" label={t('form.username')} extra={t('form.username_help')} rules={usernameRules(t)}>
          <Input autoComplete="off" data-testid="new-user-username" />
        </Form.Item>
        <NameFields basis={240} testPrefix="new-user" />
        {isAdmin ? (
          <Flex gap={16} wrap>
            <Form.Item name="role" label={t('form.role')} required style={{ flex: '1 1 240px' }}>
              <Select<Role> options={roleOptions(t)} data-testid="new-user-role" />
            </Form.Item>
            <DomainField basis={240} testId="new-user-domain" />
          </Flex>
        ) : null}
        <Form.Item name="is_external" valuePropName="checked" extra={t('form.external_help')}>
          <Checkbox data-testid="new-user-external">{t('form.external')}</Checkbox>
        </Form.Item>
        <Form.Item name="mfa_required" valuePropName="checked" extra={t('form.mfa_required_help')}>
          <Checkbox data-testid="new-user-mfa-required">{t('form.mfa_required')}</Checkbox>
        </Form.Item>
        <Form.Item
          name="access"
          label={t('form.access')}
          extra={access === 'invitation' ? t('form.access_invitation_help') : undefined}
        >
          <Radio.Group data-testid="new-user-access">
            <Radio value="invitation">{t('form.access_invitation')}</Radio>
            <Radio value="password">{t('form.access_password')}</Radio>
          </Radio.Group>
        </Form.Item>
        {access === 'password' ? (
          <Flex gap={16} wrap>
            <Form.Item
              name="password"
              label={t('form.password')}
              rules={passwordRules(t, true)}
              style={{ flex: '1 1 240px' }}
            >
              <Input.Password autoComplete="new-password" data-testid="new-user-password" />
            </Form.Item>
            <Form.Item
              name="password_confirm"
              label={t('form.password_confirm')}
              dependencies={['password']}
              rules={confirmRules(t, 'password')}
              required
              style={{ flex: '1 1 240px' }}
            >
              <Input.Password autoComplete="new-password" data-testid="new-user-password-confirm" />
            </Form.Item>
          </Flex>
        ) : null}
        <Flex gap={8} wrap>
          <Button type="primary" htmlType="submit" loading={create.isPending} data-testid="new-user-submit">
            {t('new_user.submit')}
          </Button>
          <Button onClick={() => navigate('..')}>{t('new_user.cancel')}</Button>
        </Flex>
      </Form>
    </section>
  );
}
