import { useThemeToken } from '@qc/ui';
import { useTheme } from '@qc/ui-state';
import { useEffect } from 'react';

/** Paints <body> from the current antd tokens (dark mode reaches the page behind every app). */
export function PageBackground() {
  const token = useThemeToken();
  const resolved = useTheme((s) => s.resolved);
  useEffect(() => {
    const { style } = document.body;
    style.margin = '0';
    style.background = token.colorBgLayout;
    style.color = token.colorText;
    style.fontFamily = token.fontFamily;
    document.documentElement.style.colorScheme = resolved;
    document.documentElement.dataset.theme = resolved;
  }, [token.colorBgLayout, token.colorText, token.fontFamily, resolved]);
  return null;
}
