import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import { errorMessageKey, readApiError } from '@qc/api-client';
import { notify } from '@qc/ui-state';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordInput } from '../login/PasswordInput';
import { BackupCodes } from '../mfa-setup/BackupCodes';
import { useDisableMfa, useRegenerateBackupCodes } from './profile.queries';

export type MfaPasswordAction = 'disable' | 'regenerate';

/**
 * Turning MFA off, or new backup codes (spec §4): both confirmed with the account password (a wrong
 * one is a 400 errors.password, shown on the field). New codes are then shown once. A directory
 * user (issue 31) has no console password: theirs is the directory's, as the field's help says.
 */
export function MfaPasswordModal({
  action,
  account,
  directory = false,
  onClose,
}: {
  action: MfaPasswordAction;
  account: string;
  /** The account signs in with the directory's password (source `ldap`). */
  directory?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation('host');
  const [form] = Form.useForm<{ password: string }>();
  const disable = useDisableMfa();
  const regenerate = useRegenerateBackupCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  const pending = disable.isPending || regenerate.isPending;

  const onFinish = async ({ password }: { password: string }) => {
    try {
      if (action === 'disable') {
        await disable.mutateAsync(password);
        notify({ type: 'success', title: t('mfa.disabled') });
        onClose();
      } else {
        const res = await regenerate.mutateAsync(password);
        setCodes(res.backup_codes);
        notify({ type: 'success', title: t('mfa.regenerated') });
      }
    } catch (error) {
      const { errors, code } = readApiError(error);
      if (errors?.password) {
        // One error, by the field (not a notice as well).
        form.setFields([{ name: 'password', errors: [t('mfa.password_wrong')] }]);
      } else if (code === 'mfa_required') {
        // An administrator, or the account's role, requires it: it stays on.
        notify({ type: 'error', title: t('mfa.error'), description: t('mfa.mandatory') });
        onClose();
      } else {
        notify({ type: 'error', title: t('mfa.error'), description: t(`common:${errorMessageKey(error)}`) });
      }
    }
  };

  const showingCodes = codes !== null;
  return (
    <Modal
      open
      title={action === 'disable' ? t('mfa.disable_title') : t('mfa.regenerate_title')}
      onCancel={showingCodes ? undefined : onClose}
      closable={!showingCodes}
      keyboard={!showingCodes}
      mask={{ closable: false }}
      footer={null}
      width={520}
      destroyOnHidden
    >
      <div data-testid={`mfa-${action}-modal`}>
        {showingCodes ? (
          <BackupCodes codes={codes} account={account} onDone={onClose} />
        ) : (
          <Form form={form} name={`mfa-${action}`} layout="vertical" onFinish={onFinish}>
            <Typography.Paragraph style={{ marginTop: 0 }}>
              {action === 'disable' ? t('mfa.disable_help') : t('mfa.regenerate_help')}
            </Typography.Paragraph>
            <Form.Item
              name="password"
              label={t('mfa.password')}
              extra={directory ? t('mfa.password_help_directory') : undefined}
              rules={[{ required: true, message: t('mfa.password_required') }]}
            >
              <PasswordInput autoComplete="current-password" autoFocus data-testid="mfa-password" />
            </Form.Item>
            <Flex justify="flex-end" gap={8}>
              <Button onClick={onClose}>{t('mfa.cancel')}</Button>
              <Button
                type="primary"
                danger={action === 'disable'}
                htmlType="submit"
                loading={pending}
                data-testid="mfa-password-submit"
              >
                {action === 'disable' ? t('mfa.disable_submit') : t('mfa.regenerate_submit')}
              </Button>
            </Flex>
          </Form>
        )}
      </div>
    </Modal>
  );
}
