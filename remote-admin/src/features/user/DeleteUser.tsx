import { DeleteOutlined } from '@ant-design/icons';
import Button, { type ButtonProps } from 'antd/es/button';
import Card from 'antd/es/card';
import Flex from 'antd/es/flex';
import Modal from 'antd/es/modal';
import Tooltip from 'antd/es/tooltip';
import Typography from 'antd/es/typography';
import { notify } from '@qc/ui-state';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { adminErrorText } from '../users/user-form';
import { useDeleteUser } from '../users/users.queries';
import type { AdminUser } from '../users/users.types';

/** Delete behind a confirmation; then spec §8 "User successfully deleted" and back to the list. */
export function DeleteUser({ user, isSelf }: { user: AdminUser; isSelf: boolean }) {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const [modal, contextHolder] = Modal.useModal();
  const remove = useDeleteUser(user.id);
  const reasonId = useId();
  const selfReason = isSelf ? t('user.self_delete') : null;

  const confirmDelete = () =>
    modal.confirm({
      title: t('user.delete.confirm_title', { email: user.email }),
      content: t('user.delete.confirm_body'),
      okText: t('user.delete.ok'),
      okButtonProps: { danger: true, ...({ 'data-testid': 'user-delete-confirm' } as ButtonProps) },
      cancelText: t('user.cancel'),
      autoFocusButton: 'cancel',
      onOk: async () => {
        try {
          await remove.mutateAsync();
          notify({ type: 'success', title: t('user.delete.done') });
          navigate('..');
        } catch (error) {
          notify({ type: 'error', title: t('user.delete.error'), description: adminErrorText(error, t) });
        }
      },
    });

  const button = (
    <Button
      danger
      icon={<DeleteOutlined aria-hidden />}
      disabled={Boolean(selfReason)}
      loading={remove.isPending}
      onClick={confirmDelete}
      aria-describedby={selfReason ? reasonId : undefined}
      data-testid="user-delete"
    >
      {t('user.delete.button')}
    </Button>
  );

  return (
    <Card
      title={<h2 style={{ fontSize: 16, margin: 0 }}>{t('user.delete.title')}</h2>}
      data-testid="user-delete-section"
    >
      {contextHolder}
      <Flex vertical gap={12} align="flex-start">
        <Typography.Text type="secondary">{t('user.delete.help')}</Typography.Text>
        {selfReason ? (
          <>
            <Tooltip title={selfReason}>
              <span style={{ display: 'inline-block' }}>{button}</span>
            </Tooltip>
            <Typography.Text type="secondary" id={reasonId} data-testid="user-delete-self">
              {selfReason}
            </Typography.Text>
          </>
        ) : (
          button
        )}
      </Flex>
    </Card>
  );
}
