import enUS from 'antd/es/locale/en_US';
import frFR from 'antd/es/locale/fr_FR';
import { ThemeRoot } from '@qc/ui';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { registerHarakaNamespace } from '../i18n';

registerHarakaNamespace();

/**
 * Every exposed root of this remote is wrapped here: its OWN antd ConfigProvider fed from the
 * @qc/ui-state singleton (antd is not shared; notes "A + C"), and the antd locale of the language.
 */
export function RemoteRoot({ children }: { children: ReactNode }) {
  const { i18n } = useTranslation('haraka');
  return <ThemeRoot locale={i18n.resolvedLanguage === 'en' ? enUS : frFR}>{children}</ThemeRoot>;
}
