import Typography from 'antd/es/typography';
import { useTranslation } from 'react-i18next';

/** A setting as shown: code-like values in code style (wrapped anywhere: DNs are long), an unset one as "—". */
export function SettingValue({ value, code = true }: { value: string | null; code?: boolean }) {
  const { t } = useTranslation('admin');
  if (value === null || value === '') return <Typography.Text type="secondary">{t('none')}</Typography.Text>;
  return (
    <Typography.Text code={code} style={{ overflowWrap: 'anywhere' }}>
      {value}
    </Typography.Text>
  );
}
