import Flex from 'antd/es/flex';
import Typography from 'antd/es/typography';
import type { ReactNode } from 'react';
import { usePhoneLayout } from './usePhoneLayout';

/**
 * Page title (an h1) with optional actions on its line, and the description below both. The
 * description is under the row, not beside the title: a long one (the domain_admin's history) was as
 * wide as the page and pushed the actions ("Actualiser") onto a line of their own. On a phone the
 * actions come after the description: wrapped under the title, they stood between the two.
 */
export function PageHeader({
  title,
  extra,
  description,
}: {
  title: ReactNode;
  extra?: ReactNode;
  description?: ReactNode;
}) {
  const phone = usePhoneLayout();
  const actions = extra ? (
    <Flex gap={8} wrap style={phone ? { marginTop: 12 } : undefined} data-testid="page-header-actions">
      {extra}
    </Flex>
  ) : null;
  return (
    <div style={{ marginBottom: 24 }}>
      <Flex justify="space-between" align="center" gap={16} wrap data-testid="page-header-row">
        <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
          {title}
        </Typography.Title>
        {phone ? null : actions}
      </Flex>
      {description ? (
        <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
          {description}
        </Typography.Paragraph>
      ) : null}
      {phone ? actions : null}
    </div>
  );
}
