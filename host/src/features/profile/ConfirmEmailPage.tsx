import Button from 'antd/es/button';
import Result from 'antd/es/result';
import { errorMessageKey, readApiError } from '@qc/api-client';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router-dom';
import { useConfirmEmail } from './profile.queries';

/** The message for a refused confirmation, by the API's code. */
function failureKey(error: unknown): string {
  const { code } = readApiError(error);
  if (code === 'email_change_expired') return 'profile.confirm_email.expired';
  if (code === 'email_change_invalid') return 'profile.confirm_email.invalid';
  if (code === 'email_taken') return 'profile.info.email_taken';
  return `common:${errorMessageKey(error)}`;
}

/**
 * /profile/confirm-email?token=… : the page the link e-mailed to a new address opens (signed in;
 * otherwise /login first, then back here). Opening it changes nothing: the change happens on the
 * user's click, by a POST (DESIGN §7), and the page says the outcome.
 */
export default function ConfirmEmailPage() {
  const { t } = useTranslation('host');
  const [params] = useSearchParams();
  const token = params.get('token')?.trim() ?? '';
  const confirm = useConfirmEmail();
  const back = (
    <Link to="/profile" key="back">
      {t('profile.confirm_email.back')}
    </Link>
  );

  if (!token) {
    return (
      <Result
        status="warning"
        title={t('profile.confirm_email.error_title')}
        subTitle={t('profile.confirm_email.missing_token')}
        extra={back}
        data-testid="confirm-email-missing"
      />
    );
  }
  if (confirm.isSuccess) {
    return (
      <Result
        status="success"
        title={<h1 style={{ fontSize: 24, margin: 0 }}>{t('profile.confirm_email.success_title')}</h1>}
        subTitle={t('profile.confirm_email.success', { email: confirm.data.email })}
        extra={back}
        data-testid="confirm-email-success"
      />
    );
  }
  if (confirm.isError) {
    return (
      <Result
        status="error"
        title={<h1 style={{ fontSize: 24, margin: 0 }}>{t('profile.confirm_email.error_title')}</h1>}
        subTitle={t(failureKey(confirm.error))}
        extra={back}
        data-testid="confirm-email-error"
      />
    );
  }
  return (
    <Result
      status="info"
      title={<h1 style={{ fontSize: 24, margin: 0 }}>{t('profile.confirm_email.title')}</h1>}
      subTitle={t('profile.confirm_email.description')}
      data-testid="confirm-email"
      extra={[
        <Button
          type="primary"
          key="confirm"
          loading={confirm.isPending}
          onClick={() => confirm.mutate(token)}
          data-testid="confirm-email-submit"
        >
          {t('profile.confirm_email.submit')}
        </Button>,
        back,
      ]}
    />
  );
}
