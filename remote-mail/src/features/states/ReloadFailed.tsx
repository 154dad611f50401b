import Alert from 'antd/es/alert';
import Button from 'antd/es/button';
import { errorMessageKey } from '@qc/api-client';
import { useTranslation } from 'react-i18next';

/**
 * A reload that failed while earlier rows are still shown: said above them, with a Retry, instead
 * of replacing them with the full-page error (that is for when there is nothing to show).
 */
export function ReloadFailed({
  title,
  error,
  onRetry,
  testId,
}: {
  title: string;
  error: unknown;
  onRetry: () => void;
  testId: string;
}) {
  const { t } = useTranslation('common');
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 16 }}
      message={title}
      description={t(errorMessageKey(error))}
      action={
        <Button size="small" onClick={onRetry}>
          {t('actions.retry')}
        </Button>
      }
      data-testid={testId}
    />
  );
}
