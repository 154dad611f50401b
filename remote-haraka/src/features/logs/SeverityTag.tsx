import Tag from 'antd/es/tag';
import { useTranslation } from 'react-i18next';
import { SEVERITY_COLORS, type LogSeverity } from './logs.types';

/** A line's severity: its word (never colour alone) in a tag of its colour. */
export function SeverityTag({ severity }: { severity: LogSeverity }) {
  const { t } = useTranslation('haraka');
  return (
    <Tag
      color={SEVERITY_COLORS[severity] ?? 'default'}
      title={t(`severity_names.${severity}`)}
      data-severity={severity}
      data-testid="log-severity"
      style={{ marginInlineEnd: 0 }}
    >
      {t(`severities.${severity}`, { defaultValue: severity })}
    </Tag>
  );
}
