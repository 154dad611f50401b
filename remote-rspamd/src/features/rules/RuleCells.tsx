import Typography from 'antd/es/typography';
import { formatDateTime } from '@qc/ui';
import type { CSSProperties } from 'react';
import { useTranslation } from 'react-i18next';

/** A cell's text as wide as its cell, cut with an ellipsis there (full text in its title). */
export const CELL_TEXT: CSSProperties = {
  display: 'block',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
  whiteSpace: 'nowrap',
};

/** "12/11/2026 09:30 · admin@example.com": when a rule was created or changed, and by whom. */
export function WhenBy({ at, by }: { at: string; by?: { email: string } | null }) {
  const { t, i18n } = useTranslation('rspamd');
  return (
    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
      <time dateTime={at}>{formatDateTime(at, i18n.resolvedLanguage ?? 'fr')}</time>
      {by === undefined ? null : ` · ${by?.email ?? t('list.no_author')}`}
    </Typography.Text>
  );
}
