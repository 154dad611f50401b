import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Form from 'antd/es/form';
import Modal from 'antd/es/modal';
import Typography from 'antd/es/typography';
import { errorMessageKey, readApiError } from '@qc/api-client';
import type { PasswordRequest, UserSource } from '@qc/contracts';
import { notify } from '@qc/ui-state';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PasswordInput } from '../login/PasswordInput';
import { BackupCodes } from '../mfa-setup/BackupCodes';
import { TotpCodeField } from '../mfa-setup/TotpCodeField';
import { useDisableMfa, useRegenerateBackupCodes } from './profile.queries';

export type MfaPasswordAction = 'disable' | 'regenerate';

/**
 * What an account proves itself with before turning MFA off or getting new backup codes: its
 * console password (local), its directory's password (ldap), or, for a single sign-on account,
 * which has no console password, a current code of its authenticator app (oidc).
 */
export type MfaProof = 'password' | 'directory_password' | 'totp_code';

/** The one place the proof is chosen from the account's source. */
export function mfaProofOf(source: UserSource): MfaProof {
  if (source === 'oidc') return 'totp_code';
  if (source === 'ldap') return 'directory_password';
  return 'password';
}

// Like the sign-in second-factor step: exactly 6 digits, anything else dropped as it is typed.

interface ProofValues {
  password?: string;
  totp_code?: string;
}

/**
 * Turning MFA off, or new backup codes (spec §4): both confirmed with the account's proof (see
 * MfaProof; a wrong one is a 400 errors.password or errors.totp_code, shown on the field). New codes
 * are then shown once. A directory user (issue 31) types the directory's password, as the field's
 * help says; a single sign-on user types a code of the authenticator app instead.
 */
export function MfaPasswordModal({
  action,
  account,
  source,
  onClose,
}: {
  action: MfaPasswordAction;
  account: string;
  /** Where the account signs in (CurrentUser.source): decides the proof asked (mfaProofOf). */
  source: UserSource;
  onClose: () => void;
}) {
  const { t } = useTranslation('host');
  const [form] = Form.useForm<ProofValues>();
  const disable = useDisableMfa();
  const regenerate = useRegenerateBackupCodes();
  const [codes, setCodes] = useState<string[] | null>(null);
  const pending = disable.isPending || regenerate.isPending;
  const proof = mfaProofOf(source);
  const byCode = proof === 'totp_code';

  const onFinish = async ({ password, totp_code }: ProofValues) => {
    const body: PasswordRequest = byCode ? { totp_code: totp_code ?? '' } : { password: password ?? '' };
    try {
      if (action === 'disable') {
        await disable.mutateAsync(body);
        notify({ type: 'success', title: t('mfa.disabled') });
        onClose();
      } else {
        const res = await regenerate.mutateAsync(body);
        setCodes(res.backup_codes);
        notify({ type: 'success', title: t('mfa.regenerated') });
      }
    } catch (error) {
      const { errors, code } = readApiError(error);
      // One error, by the field (not a notice as well).
      if (!byCode && errors?.password) {
        form.setFields([{ name: 'password', errors: [t('mfa.password_wrong')] }]);
      } else if (byCode && errors?.totp_code) {
        const message = code === 'invalid_code' ? t('mfa.app_code_wrong') : t('mfa.code_invalid');
        form.setFields([{ name: 'totp_code', errors: [message] }]);
      } else if (code === 'mfa_required') {
        // An administrator, or the account's role, requires it: it stays on.
        notify({ type: 'error', title: t('mfa.error'), description: t('mfa.mandatory') });
        onClose();
      } else {
        notify({ type: 'error', title: t('mfa.error'), description: t(`common:${errorMessageKey(error)}`) });
      }
    }
  };

  let help: string;
  if (action === 'disable') help = byCode ? t('mfa.disable_help_code') : t('mfa.disable_help');
  else help = byCode ? t('mfa.regenerate_help_code') : t('mfa.regenerate_help');

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
      <div data-testid={`mfa-${action}-modal`} data-proof={proof}>
        {showingCodes ? (
          <BackupCodes codes={codes} account={account} onDone={onClose} />
        ) : (
          <Form form={form} name={`mfa-${action}`} layout="vertical" onFinish={onFinish}>
            <Typography.Paragraph style={{ marginTop: 0 }}>{help}</Typography.Paragraph>
            {byCode ? (
              <TotpCodeField label={t('mfa.app_code')} extra={t('mfa.app_code_help_sso')} testId="mfa-app-code" />
            ) : (
              <Form.Item
                name="password"
                label={t('mfa.password')}
                extra={proof === 'directory_password' ? t('mfa.password_help_directory') : undefined}
                rules={[{ required: true, message: t('mfa.password_required') }]}
              >
                <PasswordInput autoComplete="current-password" autoFocus data-testid="mfa-password" />
              </Form.Item>
            )}
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
