import Flex from 'antd/es/flex';
import type { ReactNode } from 'react';
import { usePhoneLayout } from './usePhoneLayout';

/**
 * A filter or control with its visible label above it (the label names the control: htmlFor). On a
 * phone it takes the whole width: fixed widths left uneven fields and cut placeholders there.
 */
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
  const phone = usePhoneLayout();
  return (
    <Flex vertical gap={4} style={{ width: phone ? '100%' : width, maxWidth: '100%' }}>
      <label htmlFor={id} style={{ fontSize: 12 }}>
        {label}
      </label>
      {children}
    </Flex>
  );
}
