import ConfigProvider from 'antd/es/config-provider';
import type { Locale } from 'antd/es/locale';
import theme from 'antd/es/theme';
import { toThemeConfig, useTheme } from '@qc/ui-state';
import { useMemo, type ReactNode } from 'react';

export interface ThemeRootProps {
  children: ReactNode;
  /** antd locale for built-in texts (pagination, pickers...); each app passes its own copy. */
  locale?: Locale;
}

/**
 * Each app (host and every remote) wraps its own root in this: antd is not shared, so each app's
 * antd copy is themed from the one @qc/ui-state store (notes "A + C").
 */
export function ThemeRoot({ children, locale }: ThemeRootProps) {
  const resolved = useTheme((s) => s.resolved);
  const primary = useTheme((s) => s.primary);
  const themeConfig = useMemo(() => toThemeConfig(theme, { resolved, primary }), [resolved, primary]);
  return (
    <ConfigProvider theme={themeConfig} {...(locale ? { locale } : {})}>
      {children}
    </ConfigProvider>
  );
}

/** Design tokens of the current theme (for hand-made elements such as the login heading). */
export function useThemeToken() {
  return theme.useToken().token;
}
