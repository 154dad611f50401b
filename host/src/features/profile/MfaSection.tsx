import { SafetyCertificateOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { CurrentUser } from '@qc/contracts';
import { useRef, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { MfaEnableModal } from './MfaEnableModal';
import { MfaPasswordModal, type MfaPasswordAction } from './MfaPasswordModal';

/** Two-step verification of the signed-in user: status, turn on (QR flow), turn off, new backup codes. */
export function MfaSection({ user }: { user: CurrentUser }) {
  const { t } = useTranslation('host');
  // Kept whatever the status: the enable flow goes on (backup codes) after MFA turned on.
  const [open, setOpen] = useState<null | 'enable' | MfaPasswordAction>(null);
  const section = useRef<HTMLDivElement>(null);
  const opener = useRef<HTMLElement | null>(null);
  // The clicked button itself: Safari and Firefox on macOS do not focus a button on a click.
  const show = (dialog: 'enable' | MfaPasswordAction, e: MouseEvent<HTMLElement>) => {
    opener.current = e.currentTarget;
    setOpen(dialog);
  };
  // The dialogs unmount on close, before antd could give the focus back: it would fall to <body>.
  // Back to the button that opened it, or, when that one is gone (MFA just turned on or off), to
  // the section's first button.
  const close = () => {
    setOpen(null);
    requestAnimationFrame(() => {
      const target = opener.current?.isConnected ? opener.current : section.current?.querySelector('button');
      target?.focus();
    });
  };
  const enabled = user.mfa_enabled;

  return (
    <div ref={section} data-testid="mfa-section" data-enabled={enabled ? 'true' : 'false'}>
      <Flex align="center" gap={8} style={{ marginBottom: 8 }}>
        <SafetyCertificateOutlined aria-hidden />
        <Tag color={enabled ? 'success' : 'default'} data-testid="mfa-status">
          {enabled ? t('mfa.status_on') : t('mfa.status_off')}
        </Tag>
      </Flex>
      <Typography.Paragraph type="secondary">
        {enabled ? t('mfa.description_on') : t('mfa.description_off')}
      </Typography.Paragraph>
      <Flex gap={8} wrap>
        {enabled ? (
          <>
            <Button onClick={(e) => show('regenerate', e)} data-testid="mfa-regenerate">
              {t('mfa.regenerate')}
            </Button>
            <Button danger onClick={(e) => show('disable', e)} data-testid="mfa-disable">
              {t('mfa.disable')}
            </Button>
          </>
        ) : (
          <Button type="primary" onClick={(e) => show('enable', e)} data-testid="mfa-enable">
            {t('mfa.enable')}
          </Button>
        )}
      </Flex>
      {open === 'enable' ? <MfaEnableModal account={user.email} onClose={close} /> : null}
      {open === 'disable' || open === 'regenerate' ? (
        <MfaPasswordModal action={open} account={user.email} source={user.source} onClose={close} />
      ) : null}
    </div>
  );
}
