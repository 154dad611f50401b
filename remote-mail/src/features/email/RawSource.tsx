import Alert from 'antd/es/alert';
import Spin from 'antd/es/spin';
import Typography from 'antd/es/typography';
import { errorMessageKey, errorMessageValues } from '@qc/api-client';
import { PageError } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../quarantine/quarantine.format';
import { RAW_PREVIEW_BYTES, useRawPreview } from './email.queries';

export const preStyle = {
  margin: 0,
  maxHeight: '60vh',
  overflow: 'auto',
  whiteSpace: 'pre-wrap',
  wordBreak: 'break-word',
  fontSize: 12,
} as const;

/** Raw tab: fetched through the api client when the tab is first opened, shown as text, capped. */
export function RawSource({ id }: { id: string }) {
  const { t, i18n } = useTranslation('mail');
  const lang = i18n.resolvedLanguage ?? 'fr';
  const raw = useRawPreview(id);
  if (raw.isPending) return <Spin data-testid="email-raw-loading" />;
  if (raw.isError)
    return (
      <PageError
        title={t('email.raw.error_title')}
        description={t(errorMessageKey(raw.error), { ns: 'common', ...errorMessageValues(raw.error) })}
        onRetry={() => void raw.refetch()}
      />
    );
  return (
    <>
      <Typography.Paragraph type="secondary">{t('email.raw.audited')}</Typography.Paragraph>
      {raw.data.truncated ? (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          title={t('email.raw.truncated', {
            shown: formatSize(RAW_PREVIEW_BYTES, lang),
            total: formatSize(raw.data.size, lang),
          })}
          data-testid="email-raw-truncated"
        />
      ) : null}
      <pre style={preStyle} data-testid="email-raw">
        {raw.data.text}
      </pre>
    </>
  );
}
