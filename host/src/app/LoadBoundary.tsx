import { Component, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ensurePublicStyles } from './public-styles';

ensurePublicStyles(); // plain markup: it may show before antd is loaded

/**
 * Above the host's own lazy chunks (the shell, the notices, the two-factor step): one that failed to
 * download (or a crash) shows this instead of leaving a blank page, and Retry renders again, which
 * downloads a failed chunk again (retryableLazy).
 */
export class LoadBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? <LoadFailed onRetry={() => this.setState({ failed: false })} /> : this.props.children;
  }
}

function LoadFailed({ onRetry }: { onRetry: () => void }) {
  const { t } = useTranslation('common');
  return (
    <div role="alert" style={{ padding: 48, textAlign: 'center' }}>
      <p>{t('errors.network')}</p>
      <button type="button" className="qc-btn qc-btn-primary" onClick={onRetry}>
        {t('actions.retry')}
      </button>
    </div>
  );
}
