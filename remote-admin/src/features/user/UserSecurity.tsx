import { MailOutlined, SafetyOutlined } from '@ant-design/icons';
import Button, { type ButtonProps } from 'antd/es/button';
import Card from 'antd/es/card';
import Flex from 'antd/es/flex';
import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import { notify } from '@qc/ui-state';
import { useTranslation } from 'react-i18next';
import { adminErrorText } from '../users/user-form';
import { useResendInvitation, useResetUserMfa } from '../users/users.queries';
import { mfaState, type AdminUser } from '../users/users.types';

/**
 * Two-factor state and "reset two-factor" (spec §4: an admin can disable MFA for another user), behind
 * a confirmation. "Require two-factor" is the form's switch. The dialog comes from Modal.useModal():
 * rendered in this tree, so themed by the remote's own ConfigProvider.
 */
export function UserSecurity({ user, canManage }: { user: AdminUser; canManage: boolean }) {
  const { t } = useTranslation('admin');
  const [modal, contextHolder] = Modal.useModal();
  const reset = useResetUserMfa(user.id);
  const state = mfaState(user);

  const confirmReset = () =>
    modal.confirm({
      title: t('user.mfa.reset_title', { email: user.email }),
      content: t('user.mfa.reset_body'),
      okText: t('user.mfa.reset_ok'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'user-mfa-reset-confirm' } as ButtonProps) },
      cancelText: t('user.cancel'),
      autoFocusButton: 'cancel',
      onOk: async () => {
        try {
          await reset.mutateAsync();
          notify({ type: 'success', title: t('user.mfa.reset_done') });
        } catch (error) {
          notify({ type: 'error', title: t('user.mfa.reset_error'), description: adminErrorText(error, t) });
        }
      },
    });

  return (
    <Card
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('user.mfa.title')}</h2>}
      style={{ marginBottom: 24 }}
      data-testid="user-security"
    >
      {contextHolder}
      <Flex vertical gap={12} align="flex-start">
        {/* A sentence, not the header's tag again. */}
        <Typography.Text data-testid="user-mfa-state">
          {state === 'enabled'
            ? t('user.mfa.enabled')
            : state === 'required'
              ? t('user.mfa.pending_setup')
              : t('user.mfa.disabled')}
        </Typography.Text>
        {canManage ? (
          <>
            <Button
              icon={<SafetyOutlined aria-hidden />}
              danger
              disabled={!user.mfa_enabled}
              loading={reset.isPending}
              onClick={confirmReset}
              // Its long label wraps on a phone rather than running past the card.
              style={{ maxWidth: '100%', height: 'auto', whiteSpace: 'normal', textAlign: 'start' }}
              data-testid="user-mfa-reset"
            >
              {t('user.mfa.reset')}
            </Button>
            <Typography.Text type="secondary">{t('user.mfa.reset_help')}</Typography.Text>
          </>
        ) : null}
      </Flex>
    </Card>
  );
}

/** While an invited user has not chosen a password: say so, and send a new link (the old ones stop working). */
export function PendingInvitation({ user }: { user: AdminUser }) {
  const { t } = useTranslation('admin');
  const resend = useResendInvitation(user.id);
  const send = async () => {
    try {
      await resend.mutateAsync();
      notify({ type: 'success', title: t('user.invitation.sent', { email: user.email }) });
    } catch (error) {
      notify({ type: 'error', title: t('user.invitation.error'), description: adminErrorText(error, t) });
    }
  };
  return (
    <Card
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('user.invitation.title')}</h2>}
      style={{ marginBottom: 24 }}
      data-testid="user-pending-invitation"
    >
      <Flex vertical gap={12} align="flex-start">
        <Typography.Text>{t('user.invitation.pending')}</Typography.Text>
        <Button
          icon={<MailOutlined aria-hidden />}
          loading={resend.isPending}
          onClick={() => void send()}
          data-testid="user-invitation-resend"
        >
          {t('user.invitation.resend')}
        </Button>
      </Flex>
    </Card>
  );
}
