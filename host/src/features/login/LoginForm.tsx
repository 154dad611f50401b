import { useSession } from '@qc/auth';
import { notify } from '@qc/ui-state';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { loginErrorMessage } from './login-errors';
import { PlainPasswordInput } from './PlainPasswordInput';

export interface LoginFormProps {
  /** Called when the submit starts (the host prefetches the shell chunk meanwhile). */
  onSubmitStart?: () => void;
  /** Called as the user types: the host starts fetching the shell and antd then. */
  onTyping?: () => void;
}

/** One address, no spaces, a dot in the domain: what a mailbox needs (the api checks it again). */
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

type Errors = { email?: string; password?: string };

/**
 * E-mail + password step (spec §2, §4, §5, §8). Plain markup (no antd Form: issue 22's /login
 * budget); checked on submit, each message under its field and tied to it (aria-describedby).
 */
export function LoginForm({ onSubmitStart, onTyping }: LoginFormProps) {
  const { t } = useTranslation('host');
  const login = useSession((s) => s.login);
  const [submitting, setSubmitting] = useState(false);
  const [errors, setErrors] = useState<Errors>({});

  const onSubmit = async (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    if (submitting) return;
    const field = (name: string) => (e.currentTarget.elements.namedItem(name) as HTMLInputElement | null)?.value ?? '';
    const email = field('email').trim();
    const password = field('password');
    const found: Errors = {};
    if (!email) found.email = t('login.email_required');
    else if (!EMAIL.test(email)) found.email = t('login.email_invalid');
    if (!password) found.password = t('login.password_required');
    setErrors(found);
    if (found.email || found.password) return;
    onSubmitStart?.();
    setSubmitting(true);
    try {
      const outcome = await login(email, password);
      if (outcome === 'authenticated') notify({ type: 'success', title: t('login.success') });
    } catch (error) {
      notify({ type: 'error', title: loginErrorMessage(error, 'password', t) });
    } finally {
      setSubmitting(false);
    }
  };

  const invalid = (field: keyof Errors) =>
    errors[field] ? { 'aria-invalid': true, 'aria-describedby': `login_${field}_help` } : {};
  const help = (field: keyof Errors) =>
    errors[field] ? (
      <div id={`login_${field}_help`} className="qc-error" role="alert">
        {errors[field]}
      </div>
    ) : null;

  return (
    <form name="login" onSubmit={(e) => void onSubmit(e)} onInput={onTyping} noValidate>
      <div className="qc-field">
        <label className="qc-label" htmlFor="login_email">
          {t('login.email')}
        </label>
        <input
          id="login_email"
          name="email"
          className="qc-input"
          type="email"
          autoComplete="username"
          placeholder={t('login.email_placeholder')}
          autoFocus
          {...invalid('email')}
        />
        {help('email')}
      </div>
      <div className="qc-field">
        <label className="qc-label" htmlFor="login_password">
          {t('login.password')}
        </label>
        <PlainPasswordInput
          id="login_password"
          name="password"
          autoComplete="current-password"
          {...invalid('password')}
        />
        {help('password')}
      </div>
      <button
        type="submit"
        className="qc-btn qc-btn-primary qc-block"
        aria-busy={submitting}
        aria-label={t('login.submit')}
      >
        {submitting ? <span className="qc-spin" aria-hidden /> : null}
        {t('login.submit')}
      </button>
    </form>
  );
}
