import { useThemeToken } from '@qc/ui';
import { useTranslation } from 'react-i18next';

/** Light full-page spinner (no antd Spin on the first chunk). */
export function BootScreen() {
  const { t } = useTranslation('host');
  const token = useThemeToken();
  return (
    <div
      role="status"
      aria-live="polite"
      aria-label={t('boot.loading')}
      data-testid="boot-loading"
      style={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}
    >
      <span
        className="qc-boot-spinner"
        style={{
          width: 32,
          height: 32,
          borderRadius: '50%',
          border: `3px solid ${token.colorBorderSecondary}`,
          borderTopColor: token.colorPrimary,
          animation: 'qc-spin 0.8s linear infinite',
        }}
      />
      <style>{'@keyframes qc-spin{to{transform:rotate(360deg)}}'}</style>
    </div>
  );
}
