import { useTranslation } from 'react-i18next';
import { ensurePublicStyles } from './public-styles';

ensurePublicStyles();

/** Light full-page spinner (no antd Spin on the first chunk). */
export function BootScreen() {
  const { t } = useTranslation('host');
  return (
    <div
      role="status"
      aria-live="polite"
      aria-label={t('boot.loading')}
      data-testid="boot-loading"
      style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <span className="qc-spin qc-spin-lg" />
    </div>
  );
}
