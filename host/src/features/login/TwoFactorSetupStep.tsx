import { isAuthError, useSession } from '@qc/auth';
import { useThemeToken } from '@qc/ui';
import { notify } from '@qc/ui-state';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { registerMfaStrings } from '../../i18n/mfa';
import { MfaSetupSteps, type MfaSetupErrorInfo } from '../mfa-setup/MfaSetupSteps';
import { loginErrorMessage } from './login-errors';

// This chunk brings its own texts (the two-factor ones only, not every protected page's).
registerMfaStrings();

/**
 * The two-factor set-up a sign-in may require (issue 16: the account's `mfa_required`, or its role in
 * QC_MFA_REQUIRED_ROLES), in place of the password form: the profile's set-up steps, called with the
 * set-up token by the session store (never through the refresh-on-401 client). Once the backup codes
 * were shown and saved, the session the set-up gave signs in, as any sign-in (then /dashboard).
 * A refused set-up token (expired, account changed) ends the step: back to the password form.
 * A lazy chunk: /login does not download the QR code library.
 */
export default function TwoFactorSetupStep({ onSubmitStart }: { onSubmitStart?: () => void }) {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  const setupTwoFactor = useSession((s) => s.setupTwoFactor);
  const enableTwoFactor = useSession((s) => s.enableTwoFactor);
  const finish = useSession((s) => s.finishTwoFactorSetup);
  const cancel = useSession((s) => s.cancelTwoFactor);
  const [finishing, setFinishing] = useState(false);

  const describeError = useCallback(
    (error: unknown): MfaSetupErrorInfo | null => {
      if (isAuthError(error) && (error.status === 401 || error.code === 'no_partial_token')) {
        // The store has left the step already: the password form is back.
        notify({ type: 'error', title: t('login.totp_expired'), description: t('login.totp_restart') });
        return null;
      }
      return { code: isAuthError(error) ? error.code : null, message: loginErrorMessage(error, 'totp', t) };
    },
    [t],
  );

  const onDone = async () => {
    onSubmitStart?.();
    setFinishing(true);
    try {
      await finish();
      notify({ type: 'success', title: t('login.success') });
    } catch (error) {
      // The session could not be opened (network…): two-factor is on, the next sign-in asks for a code.
      notify({ type: 'error', title: loginErrorMessage(error, 'password', t), description: t('login.totp_restart') });
      setFinishing(false);
    }
  };

  return (
    <div data-testid="two-factor-setup-step">
      <p style={{ marginTop: 0, color: token.colorTextSecondary }}>{t('mfa.required_help')}</p>
      <MfaSetupSteps
        startSetup={setupTwoFactor}
        enable={enableTwoFactor}
        describeError={describeError}
        onCancel={cancel}
        cancelLabel={t('login.totp_back')}
        onDone={() => void onDone()}
        doneLabel={t('mfa.continue')}
        finishing={finishing}
      />
    </div>
  );
}
