import Modal from 'antd/es/modal';
import { errorMessageKey, readApiError } from '@qc/api-client';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MfaSetupSteps, type MfaSetupStep } from '../mfa-setup/MfaSetupSteps';
import { useEnableMfa, useMfaSetup } from './profile.queries';

/**
 * Turning MFA on from the profile (spec §4): the shared set-up steps in a dialog, through the
 * session's API client. Mounted when opened; the set-up starts then. While the backup codes are
 * shown the dialog cannot be dismissed (they are shown once).
 */
export function MfaEnableModal({ account, onClose }: { account: string; onClose: () => void }) {
  const { t } = useTranslation('host');
  const setup = useMfaSetup();
  const enable = useEnableMfa();
  const [step, setStep] = useState<MfaSetupStep>('scan');
  const startMutation = setup.mutateAsync;
  const enableMutation = enable.mutateAsync;
  const startSetup = useCallback(() => startMutation(), [startMutation]);
  const enableWith = useCallback(async (code: string) => (await enableMutation(code)).backup_codes, [enableMutation]);
  const describeError = useCallback(
    (error: unknown) => ({ code: readApiError(error).code, message: t(`common:${errorMessageKey(error)}`) }),
    [t],
  );
  const done = step === 'codes';
  return (
    <Modal
      open
      title={t('mfa.enable_title')}
      onCancel={done ? undefined : onClose}
      closable={!done}
      keyboard={!done}
      mask={{ closable: false }}
      footer={null}
      width={560}
      destroyOnHidden
    >
      <div data-testid="mfa-enable-modal" data-step={step}>
        <MfaSetupSteps
          account={account}
          startSetup={startSetup}
          enable={enableWith}
          describeError={describeError}
          onCancel={onClose}
          cancelLabel={t('mfa.cancel')}
          onDone={onClose}
          onStepChange={setStep}
        />
      </div>
    </Modal>
  );
}
