import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import Form from 'antd/es/form';
import { LIMITS } from '@qc/contracts';
import { useDocumentTitle, useThemeToken } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { goToLogin, LOGIN_PATH } from '../../app/location';
import { registerInvitationStrings } from '../../i18n/invitation';
import { PasswordInput } from '../login/PasswordInput';
import { PublicPageLayout } from '../login/PublicPageLayout';
import { acceptInvitation, InvitationError } from './invitation.http';

// This chunk brings its own texts.
registerInvitationStrings();

interface InvitationValues {
  password: string;
  confirm: string;
}

type LinkProblem = 'invalid' | 'expired' | 'missing_token';

/** The link itself cannot be used: what the API said, as the page says it. */
function linkProblemOf(error: unknown): LinkProblem | null {
  if (!(error instanceof InvitationError)) return null;
  if (error.code === 'invitation_expired') return 'expired';
  if (error.code === 'invitation_invalid' || error.errors.token) return 'invalid';
  return null;
}

/** Any other failure, by status (the API's English `detail` is never shown). */
function failureKey(error: unknown): string {
  if (!(error instanceof InvitationError)) return 'common:errors.unknown';
  if (error.code === 'network_error') return 'common:errors.network';
  if (error.status === 429) return 'common:errors.rate_limited';
  if (error.status >= 502 && error.status <= 504) return 'common:errors.unavailable';
  if (error.status >= 500) return 'common:errors.server';
  return 'common:errors.unknown';
}

/**
 * /invitation?token=… : the page an invitation e-mail links to (DESIGN §4.1), shown without a
 * session like /login. Opening it changes nothing: the new password (spec §5: at least 8 characters,
 * confirmed) is sent by a POST, which spends the link; then /login, with a notice. A used, unknown or
 * expired link says so, and that the administrator can send a new invitation.
 */
export default function InvitationPage() {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  const [form] = Form.useForm<InvitationValues>();
  const [linkToken] = useState(() => new URLSearchParams(window.location.search).get('token')?.trim() ?? '');
  const [problem, setProblem] = useState<LinkProblem | null>(linkToken ? null : 'missing_token');
  const [submitting, setSubmitting] = useState(false);
  useDocumentTitle(t('invitation.title'));

  const onFinish = async ({ password }: InvitationValues) => {
    setSubmitting(true);
    try {
      await acceptInvitation(linkToken, password);
      notify({ type: 'success', title: t('invitation.success') });
      goToLogin();
    } catch (error) {
      const linkProblem = linkProblemOf(error);
      if (linkProblem) {
        setProblem(linkProblem);
      } else if (error instanceof InvitationError && error.errors.password) {
        // The API's rule is the form's own: its English words are not shown.
        const long = password.length > LIMITS.passwordMax;
        form.setFields([
          {
            name: 'password',
            errors: [
              long
                ? t('invitation.too_long', { max: LIMITS.passwordMax })
                : t('invitation.too_short', { min: LIMITS.passwordMin }),
            ],
          },
        ]);
        notify({ type: 'error', title: t('invitation.error') });
      } else {
        notify({ type: 'error', title: t('invitation.error'), description: t(failureKey(error)) });
      }
    } finally {
      setSubmitting(false);
    }
  };

  const toLogin = (
    <a
      href={LOGIN_PATH}
      style={{ color: token.colorLink }}
      onClick={(e) => {
        e.preventDefault();
        goToLogin();
      }}
    >
      {t('invitation.to_login')}
    </a>
  );

  return (
    <PublicPageLayout title={t('invitation.title')} testId="invitation-page">
      {problem ? (
        <div data-testid="invitation-problem" data-problem={problem}>
          <Alert
            type={problem === 'expired' ? 'warning' : 'error'}
            showIcon
            title={t('invitation.link_title')}
            description={t(`invitation.${problem}`)}
            style={{ marginBottom: 16 }}
          />
          <p style={{ margin: 0, textAlign: 'center' }}>{toLogin}</p>
        </div>
      ) : (
        <>
          <p style={{ margin: '0 0 24px', color: token.colorTextSecondary }}>{t('invitation.description')}</p>
          <Form<InvitationValues>
            form={form}
            name="invitation"
            layout="vertical"
            requiredMark={false}
            onFinish={onFinish}
            validateTrigger="onSubmit"
            noValidate
          >
            <Form.Item
              name="password"
              label={t('invitation.password')}
              validateFirst
              rules={[
                { required: true, message: t('invitation.password_required') },
                { min: LIMITS.passwordMin, message: t('invitation.too_short', { min: LIMITS.passwordMin }) },
                { max: LIMITS.passwordMax, message: t('invitation.too_long', { max: LIMITS.passwordMax }) },
              ]}
            >
              <PasswordInput autoComplete="new-password" autoFocus data-testid="invitation-password" />
            </Form.Item>
            <Form.Item
              name="confirm"
              label={t('invitation.confirm')}
              dependencies={['password']}
              validateFirst
              rules={[
                { required: true, message: t('invitation.confirm_required') },
                ({ getFieldValue }) => ({
                  validator: (_rule, value: unknown) =>
                    value === getFieldValue('password')
                      ? Promise.resolve()
                      : Promise.reject(new Error(t('invitation.mismatch'))),
                }),
              ]}
            >
              <PasswordInput autoComplete="new-password" data-testid="invitation-confirm" />
            </Form.Item>
            <Form.Item style={{ marginBottom: 16 }}>
              <Button type="primary" htmlType="submit" block loading={submitting} aria-label={t('invitation.submit')}>
                {t('invitation.submit')}
              </Button>
            </Form.Item>
          </Form>
          <p style={{ margin: 0, textAlign: 'center' }}>{toLogin}</p>
        </>
      )}
    </PublicPageLayout>
  );
}
