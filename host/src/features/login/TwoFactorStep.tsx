import { isAuthError, useSession, type SecondFactorMethod } from '@qc/auth';
import { LIMITS } from '@qc/contracts';
import { notify } from '@qc/ui-state';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { loginErrorKey } from './login-errors';

/** Spec §9: two-factor code length. */
export const TOTP_LENGTH = LIMITS.totpLength;
/** Longest backup code the API accepts (VerifyTotpRequest). */
export const BACKUP_CODE_MAX = 64;

const TOTP_PATTERN = new RegExp(`^\\d{${TOTP_LENGTH}}$`);
const digitsOnly = (v: string) => v.replace(/\D/g, '').slice(0, TOTP_LENGTH);

/**
 * Second factor (spec §2, §4, §5, DESIGN §7): a numeric code of 6 digits, or, through "use a backup
 * code", one of the single-use backup codes. Plain markup like the password form (no antd on /login:
 * issue 22). Success stores the tokens and signs in (the host then leaves /login for the remembered
 * origin or /dashboard). A rate limit or an expired challenge ends the step: the session store clears
 * the partial token, the password form is back.
 */
export default function TwoFactorStep({ onSubmitStart }: { onSubmitStart?: () => void }) {
  const { t } = useTranslation('host');
  const verifyTotp = useSession((s) => s.verifyTotp);
  const cancel = useSession((s) => s.cancelTwoFactor);
  const [method, setMethod] = useState<SecondFactorMethod>('totp');
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [submitting, setSubmitting] = useState(false);
  const backup = method === 'backup';

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (submitting) return;
    // Spec §5: exactly 6 digits, else login.totp_invalid; a backup code must not be blank.
    const problem = backup
      ? code.trim()
        ? null
        : t('login.backup_required')
      : TOTP_PATTERN.test(code)
        ? null
        : t('login.totp_invalid');
    setError(problem);
    if (problem) return;
    onSubmitStart?.();
    setSubmitting(true);
    try {
      await verifyTotp(backup ? code.trim() : code, method);
      notify({ type: 'success', title: t('login.success') });
    } catch (err) {
      if (isAuthError(err) && err.status === 429) {
        notify({ type: 'error', title: t('login.rate_limited'), description: t('login.totp_restart') });
      } else if (isAuthError(err) && (err.code === 'token_invalid' || err.code === 'token_expired')) {
        notify({ type: 'error', title: t('login.totp_expired') });
      } else if (isAuthError(err) && err.code === 'no_partial_token') {
        // The spec's title, and what to do: the sign-in has to start again.
        notify({ type: 'error', title: t('login.partial_token_missing'), description: t('login.totp_restart') });
      } else {
        notify({ type: 'error', title: t(loginErrorKey(err, 'totp')) });
      }
    } finally {
      setSubmitting(false);
    }
  };

  const switchMethod = () => {
    setMethod(backup ? 'totp' : 'backup');
    setCode('');
    setError(null);
  };

  const id = backup ? 'totp_backup' : 'totp_code';
  return (
    <form name="totp" onSubmit={(e) => void onSubmit(e)} noValidate data-testid="two-factor-step" data-method={method}>
      <p style={{ marginTop: 0 }}>{backup ? t('login.backup_description') : t('login.totp_description')}</p>
      <div className="qc-field">
        <label className="qc-label" htmlFor={id}>
          {backup ? t('login.backup_code') : t('login.totp_code')}
        </label>
        <input
          key={id}
          id={id}
          name="code"
          className="qc-input"
          value={code}
          onChange={(e) => setCode(backup ? e.target.value : digitsOnly(e.target.value))}
          autoFocus
          {...(backup
            ? {
                autoComplete: 'off',
                autoCapitalize: 'characters',
                spellCheck: false,
                maxLength: BACKUP_CODE_MAX,
                'data-testid': 'backup-code-input',
                style: { fontFamily: 'monospace', letterSpacing: '0.1em' },
              }
            : {
                inputMode: 'numeric' as const,
                autoComplete: 'one-time-code',
                maxLength: TOTP_LENGTH,
                pattern: '[0-9]*',
                'data-testid': 'totp-input',
                style: { letterSpacing: '0.3em', fontVariantNumeric: 'tabular-nums' },
              })}
          {...(error ? { 'aria-invalid': true, 'aria-describedby': `${id}_help` } : {})}
        />
        {error ? (
          <div id={`${id}_help`} className="qc-error" role="alert">
            {error}
          </div>
        ) : null}
      </div>
      <button
        type="submit"
        className="qc-btn qc-btn-primary qc-block"
        aria-busy={submitting}
        data-testid="totp-submit"
        style={{ marginBottom: 8 }}
      >
        {submitting ? <span className="qc-spin" aria-hidden /> : null}
        {t('login.totp_submit')}
      </button>
      <button
        type="button"
        className="qc-btn qc-btn-link qc-block"
        onClick={switchMethod}
        data-testid="backup-code-switch"
      >
        {backup ? t('login.totp_use_app') : t('login.totp_use_backup')}
      </button>
      <button type="button" className="qc-btn qc-btn-link qc-block" onClick={cancel} data-testid="totp-back">
        {t('login.totp_back')}
      </button>
    </form>
  );
}
