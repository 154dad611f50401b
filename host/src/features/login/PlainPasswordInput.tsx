import { useState, type InputHTMLAttributes } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon } from '../controls/icons';

/**
 * /login's password field with its accessible show/hide button (spec §2), in plain markup (the
 * antd PasswordInput stays for the signed-in forms).
 */
export function PlainPasswordInput(props: Omit<InputHTMLAttributes<HTMLInputElement>, 'type'>) {
  const { t } = useTranslation('host');
  const [visible, setVisible] = useState(false);
  const label = visible ? t('login.hide_password') : t('login.show_password');
  return (
    <span className="qc-input">
      <input {...props} type={visible ? 'text' : 'password'} />
      <button
        type="button"
        className="qc-plain"
        aria-label={label}
        title={label}
        aria-pressed={visible}
        data-testid="password-visibility"
        onClick={() => setVisible((v) => !v)}
      >
        <EyeIcon crossed={visible} />
      </button>
    </span>
  );
}
