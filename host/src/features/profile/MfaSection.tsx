import { SafetyCertificateOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import Flex from 'antd/es/flex';
import Tag from 'antd/es/tag';
import Typography from 'antd/es/typography';
import type { CurrentUser } from '@qc/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MfaEnableModal } from './MfaEnableModal';
import { MfaPasswordModal, type MfaPasswordAction } from './MfaPasswordModal';

/** Two-step verification of the signed-in user: status, turn on (QR flow), turn off, new backup codes. */
export function MfaSection({ user }: { user: CurrentUser }) {
  const { t } = useTranslation('host');
  // Kept whatever the status: the enable flow goes on (backup codes) after MFA turned on.
  const [open, setOpen] = useState<null | 'enable' | MfaPasswordAction>(null);
  const close = () => setOpen(null);
  const enabled = user.mfa_enabled;

  return (
    <div data-testid="mfa-section" data-enabled={enabled ? 'true' : 'false'}>
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
            <Button onClick={() => setOpen('regenerate')} data-testid="mfa-regenerate">
              {t('mfa.regenerate')}
            </Button>
            <Button danger onClick={() => setOpen('disable')} data-testid="mfa-disable">
              {t('mfa.disable')}
            </Button>
          </>
        ) : (
          <Button type="primary" onClick={() => setOpen('enable')} data-testid="mfa-enable">
            {t('mfa.enable')}
          </Button>
        )}
      </Flex>
      {open === 'enable' ? <MfaEnableModal account={user.email} onClose={close} /> : null}
      {open === 'disable' || open === 'regenerate' ? (
        <MfaPasswordModal action={open} account={user.email} onClose={close} />
      ) : null}
    </div>
  );
}
