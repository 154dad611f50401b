import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Col from 'antd/es/col';
import Form from 'antd/es/form';
import Input from 'antd/es/input';
import Row from 'antd/es/row';
import { errorMessageKey, readApiError } from '@qc/api-client';
import type { CurrentUser, ProfileUpdate } from '@qc/contracts';
import { notify } from '@qc/ui-state';
import { useEffect } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { PasswordInput } from '../login/PasswordInput';
import { useUpdateProfile } from './profile.queries';

interface ProfileValues {
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  /** Asked for only while the e-mail differs from the current one (the API requires it then). */
  current_password?: string;
}

/** The API's username rule (Django's): letters, digits and @ . + - _ (kept here: no zod in the page). */
export const USERNAME_PATTERN = /^[\p{L}\p{N}@.+\-_]+$/u;
export const USERNAME_MAX = 150;
export const NAME_MAX = 150;
const EMAIL_MAX = 254;

const valuesOf = (u: CurrentUser): ProfileValues => ({
  username: u.username,
  email: u.email,
  first_name: u.first_name,
  last_name: u.last_name,
});

/**
 * The translated message of a field the API refused (400 `errors`): chosen from the field and the
 * value sent, never the API's English words (its rules are the form's own, see ProfileUpdate).
 */
export function profileFieldError(
  t: TFunction<'host'>,
  name: keyof ProfileValues,
  value: string | undefined,
  user: CurrentUser,
): string {
  const v = (value ?? '').trim();
  if (identityLocked(user) && (name === 'username' || name === 'email')) return lockedNotice(t, user);
  if (name === 'username') {
    if (!v) return t('profile.info.username_required');
    if (v.length > USERNAME_MAX) return t('profile.info.too_long', { max: USERNAME_MAX });
    return t('profile.info.username_invalid');
  }
  if (name === 'email') return v ? t('profile.info.email_invalid') : t('profile.info.email_required');
  return t('profile.info.too_long', { max: NAME_MAX });
}

/**
 * Username and e-mail set elsewhere: an external user's (spec §6), or a directory or SSO account's
 * (issue 31: the API refuses them with directory_managed).
 */
export const identityLocked = (user: CurrentUser) => user.is_external || user.source !== 'local';

/**
 * Why username and e-mail cannot be changed: the directory or single sign-on the account signs in
 * with, else the external directory of an external user.
 */
export const lockedNotice = (t: TFunction<'host'>, user: CurrentUser): string =>
  user.source !== 'local' ? t(`profile.info.managed_${user.source}`) : t('profile.info.external_notice');

/** True when `email` (as typed) is another address than the user's: the current password is then needed. */
export function emailChanged(user: CurrentUser, email: unknown): boolean {
  if (identityLocked(user) || typeof email !== 'string') return false;
  const v = email.trim().toLowerCase();
  return v !== '' && v !== user.email.toLowerCase();
}

/**
 * Only what changed is sent; an external user sends only first and last name (spec §5, §6). A new
 * e-mail goes with the current password.
 */
export function profileChanges(user: CurrentUser, v: ProfileValues): ProfileUpdate {
  const changes: ProfileUpdate = {};
  const first = v.first_name.trim();
  const last = v.last_name.trim();
  if (first !== user.first_name) changes.first_name = first;
  if (last !== user.last_name) changes.last_name = last;
  if (!identityLocked(user)) {
    if (v.username !== user.username) changes.username = v.username;
    const email = v.email.trim();
    if (email.toLowerCase() !== user.email.toLowerCase()) {
      changes.email = email;
      changes.current_password = v.current_password ?? '';
    }
  }
  return changes;
}

/**
 * Username, e-mail, first and last name (spec §5: username and e-mail required and valid). A new
 * e-mail needs the current password (the field shows only while the e-mail differs) and takes effect
 * once the link sent to it is confirmed: the form then says where it was sent.
 * External users may change only their first and last name (the other fields are disabled).
 */
export function ProfileForm({ user }: { user: CurrentUser }) {
  const { t } = useTranslation('host');
  const [form] = Form.useForm<ProfileValues>();
  const update = useUpdateProfile();
  // The session's user holds it (GET /api/users/me/): it is still shown after a reload.
  const pendingEmail = user.pending_email;
  const external = identityLocked(user);
  const managed = user.source !== 'local';
  const noticeId = managed ? 'profile-managed-notice' : 'profile-external-notice';
  const emailValue: unknown = Form.useWatch('email', form);
  const askPassword = emailChanged(user, emailValue);

  // The user changed elsewhere (re-read, MFA…): follow it unless the form is being edited.
  useEffect(() => {
    if (!form.isFieldsTouched()) form.setFieldsValue(valuesOf(user));
  }, [user, form]);

  const onFinish = async (values: ProfileValues) => {
    const changes = profileChanges(user, values);
    if (Object.keys(changes).length === 0) {
      notify({ type: 'info', title: t('profile.info.no_changes') });
      return;
    }
    try {
      const res = await update.mutateAsync(changes);
      form.resetFields();
      form.setFieldsValue(valuesOf(res));
      notify({ type: 'success', title: t('profile.info.success') });
    } catch (error) {
      const { status, code, errors = {} } = readApiError(error);
      const fields: { name: keyof ProfileValues; errors: string[] }[] = [];
      if (code === 'username_taken') fields.push({ name: 'username', errors: [t('profile.info.username_taken')] });
      else {
        for (const name of ['username', 'email', 'first_name', 'last_name'] as const) {
          if (errors[name]) fields.push({ name, errors: [profileFieldError(t, name, values[name], user)] });
        }
        // Wrong (invalid_password) or missing: chosen by the code, never the API's words.
        if (errors.current_password) {
          const key = code === 'invalid_password' ? 'current_password_wrong' : 'current_password_required';
          fields.push({ name: 'current_password', errors: [t(`profile.info.${key}`)] });
        }
      }
      form.setFields(fields);
      let description: string | undefined;
      if (code === 'email_send_failed') description = t('profile.info.email_send_failed');
      else if (fields.length === 0 || status === 0 || status >= 500)
        description = t(`common:${errorMessageKey(error)}`);
      notify({ type: 'error', title: t('profile.info.error'), ...(description ? { description } : {}) });
    }
  };

  const maxRule = (max: number) => ({ max, message: t('profile.info.too_long', { max }) });

  return (
    <Form<ProfileValues>
      form={form}
      name="profile"
      layout="vertical"
      initialValues={valuesOf(user)}
      onFinish={onFinish}
      data-testid="profile-form"
    >
      {external ? (
        <Alert
          type="info"
          showIcon
          id={noticeId}
          title={lockedNotice(t, user)}
          style={{ marginBottom: 16 }}
          data-testid={noticeId}
        />
      ) : null}
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item
            name="username"
            label={t('profile.info.username')}
            validateFirst
            rules={
              external
                ? []
                : [
                    { required: true, whitespace: true, message: t('profile.info.username_required') },
                    maxRule(USERNAME_MAX),
                    { pattern: USERNAME_PATTERN, message: t('profile.info.username_invalid') },
                  ]
            }
          >
            <Input
              autoComplete="username"
              disabled={external}
              data-testid="profile-username"
              {...(external ? { 'aria-describedby': noticeId } : {})}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="email"
            label={t('profile.info.email')}
            validateFirst
            rules={
              external
                ? []
                : [
                    { required: true, whitespace: true, message: t('profile.info.email_required') },
                    { type: 'email', message: t('profile.info.email_invalid') },
                    maxRule(EMAIL_MAX),
                  ]
            }
          >
            <Input
              type="email"
              autoComplete="email"
              disabled={external}
              data-testid="profile-email"
              {...(external ? { 'aria-describedby': noticeId } : {})}
            />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="first_name" label={t('profile.info.first_name')} rules={[maxRule(NAME_MAX)]}>
            <Input autoComplete="given-name" data-testid="profile-first-name" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item name="last_name" label={t('profile.info.last_name')} rules={[maxRule(NAME_MAX)]}>
            <Input autoComplete="family-name" data-testid="profile-last-name" />
          </Form.Item>
        </Col>
        {askPassword ? (
          <Col xs={24} md={12}>
            <Form.Item
              name="current_password"
              label={t('profile.info.current_password')}
              extra={t('profile.info.current_password_help')}
              preserve={false}
              rules={[{ required: true, message: t('profile.info.current_password_required') }]}
            >
              <PasswordInput autoComplete="current-password" data-testid="profile-current-password" />
            </Form.Item>
          </Col>
        ) : null}
      </Row>
      {pendingEmail ? (
        <Alert
          type="info"
          showIcon
          role="status"
          title={t('profile.info.pending_email', { email: pendingEmail })}
          style={{ marginBottom: 16 }}
          data-testid="profile-pending-email"
        />
      ) : null}
      <Form.Item style={{ marginBottom: 0 }}>
        <Button type="primary" htmlType="submit" loading={update.isPending} data-testid="profile-save">
          {t('profile.info.save')}
        </Button>
      </Form.Item>
    </Form>
  );
}
