import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';
import { REMOTE_VERSION } from './version';

/** "remote-haraka 1.2.0" under each page: which build of this independently deployed remote is live. */
export function RemoteVersion() {
  const { t } = useTranslation('haraka');
  return (
    <Typography.Paragraph type="secondary" style={{ marginTop: 24, fontSize: 12 }} data-testid="remote-haraka-version">
      {t('version', { version: REMOTE_VERSION })}
    </Typography.Paragraph>
  );
}
