import LoadingOutlined from '@ant-design/icons/es/icons/LoadingOutlined';
import ConfigProvider from 'antd/es/config-provider';
import type { Locale } from 'antd/es/locale';
import theme from 'antd/es/theme';
import { toThemeConfig, useTheme } from '@qc/ui-state';
import { useMemo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

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

/** A word space at the console's 14 px text: the gap before a description label's colon in French. */
export const FRENCH_COLON_GAP = 4;

/**
 * Each app (host and every remote) wraps its own root in this: antd is not shared, so each app's
 * antd copy is themed from the one @qc/ui-state store (notes "A + C").
 */
export function ThemeRoot({ children, locale }: ThemeRootProps) {
  const resolved = useTheme((s) => s.resolved);
  const primary = useTheme((s) => s.primary);
  // French puts a space before a colon: antd's 2 px gap after a description's label reads as none.
  const french = (useTranslation().i18n.resolvedLanguage ?? 'fr').startsWith('fr');
  const themeConfig = useMemo(() => {
    const config = toThemeConfig(theme, { resolved, primary });
    return {
      ...config,
      components: { ...config.components, Descriptions: { colonMarginLeft: french ? FRENCH_COLON_GAP : 2 } },
    };
  }, [resolved, primary, french]);
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
