import { EyeInvisibleOutlined, EyeOutlined } from '@ant-design/icons';
import Input, { type InputProps } from 'antd/es/input';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Password field with an accessible show/hide toggle button (spec §2). */
export function PasswordInput(props: Omit<InputProps, 'type' | 'suffix'>) {
  const { t } = useTranslation('host');
  const [visible, setVisible] = useState(false);
  const label = visible ? t('login.hide_password') : t('login.show_password');
  return (
    <Input
      {...props}
      type={visible ? 'text' : 'password'}
      suffix={
        <button
          type="button"
          aria-label={label}
          title={label}
          aria-pressed={visible}
          data-testid="password-visibility"
          onClick={() => setVisible((v) => !v)}
          style={{
            border: 0,
            background: 'transparent',
            padding: 0,
            cursor: 'pointer',
            color: 'inherit',
            lineHeight: 1,
          }}
        >
          {visible ? <EyeInvisibleOutlined aria-hidden /> : <EyeOutlined aria-hidden />}
        </button>
      }
    />
  );
}
