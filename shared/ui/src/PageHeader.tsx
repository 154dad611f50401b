import Flex from 'antd/es/flex';
import Typography from 'antd/es/typography';
import type { ReactNode } from 'react';

/**
 * Page title (an h1) with optional actions on its line, and the description below both. The
 * description is under the row, not beside the title: a long one (the domain_admin's history) was as
 * wide as the page and pushed the actions ("Actualiser") onto a line of their own.
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
  return (
    <div style={{ marginBottom: 24 }}>
      <Flex justify="space-between" align="center" gap={16} wrap data-testid="page-header-row">
        <Typography.Title level={1} style={{ fontSize: 24, margin: 0 }}>
          {title}
        </Typography.Title>
        {extra ? (
          <Flex gap={8} wrap>
            {extra}
          </Flex>
        ) : null}
      </Flex>
      {description ? (
        <Typography.Paragraph type="secondary" style={{ margin: '4px 0 0' }}>
          {description}
        </Typography.Paragraph>
      ) : null}
    </div>
  );
}
