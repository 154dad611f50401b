import LoadingOutlined from '@ant-design/icons/es/icons/LoadingOutlined';
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
 * antd's own button spinner is an image named "loading" in English, read out before the button's
 * text ("loading Libérer"); the button's busy state is visual, its text already says what it does.
 */
const buttonConfig = { loadingIcon: <LoadingOutlined aria-hidden /> };

/**
 * Each app (host and every remote) wraps its own root in this: antd is not shared, so each app's
 * antd copy is themed from the one @qc/ui-state store (notes "A + C").
 */
export function ThemeRoot({ children, locale }: ThemeRootProps) {
  const resolved = useTheme((s) => s.resolved);
  const primary = useTheme((s) => s.primary);
  const themeConfig = useMemo(() => toThemeConfig(theme, { resolved, primary }), [resolved, primary]);
  return (
    <ConfigProvider theme={themeConfig} button={buttonConfig} {...(locale ? { locale } : {})}>
      {children}
    </ConfigProvider>
  );
}

/** Design tokens of the current theme (for hand-made elements such as the login heading). */
export function useThemeToken() {
  return theme.useToken().token;
}
