import Flex from 'antd/es/flex';
import type { ReactNode } from 'react';

/** A filter or control with its visible label above it (the label names the control: htmlFor). */
export function Field({
  id,
  label,
  children,
  width,
}: {
  id: string;
  label: string;
  children: ReactNode;
  width: number;
}) {
  return (
    <Flex vertical gap={4} style={{ width, maxWidth: '100%' }}>
      <label htmlFor={id} style={{ fontSize: 12 }}>
        {label}
      </label>
      {children}
    </Flex>
  );
}
