import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import { nextThemeMode, usePreferences, useTheme } from '@qc/ui-state';
import { useTranslation } from 'react-i18next';

/** Reloads the page after saving; injectable for tests. */
export type Reloader = () => void;
const reloadPage: Reloader = () => window.location.reload();

/** Spec §4: system or dark → light; light → dark; saved to userPreferences, then the page reloads. */
export function ThemeToggle({ onReload = reloadPage }: { onReload?: Reloader }) {
  const { t } = useTranslation('common');
  const mode = useTheme((s) => s.mode);
  const next = nextThemeMode(mode);
  const label = next === 'dark' ? t('theme.toggle_to_dark') : t('theme.toggle_to_light');
  return (
    <Button
      type="text"
      shape="circle"
      aria-label={label}
      title={label}
      data-testid="theme-toggle"
      icon={next === 'dark' ? <MoonOutlined /> : <SunOutlined />}
      onClick={() => {
        usePreferences.getState().save({ themeMode: next });
        onReload();
      }}
    />
  );
}
