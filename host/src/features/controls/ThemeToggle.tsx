import { MoonOutlined, SunOutlined } from '@ant-design/icons';
import Button from 'antd/es/button';
import { nextThemeMode, usePreferences, useTheme, withUnsynced, type UserPreferences } from '@qc/ui-state';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** Reloads the page after saving; injectable for tests. */
export type Reloader = () => void;
const reloadPage: Reloader = () => window.location.reload();

export interface ThemeToggleProps {
  onReload?: Reloader;
  /** Signed in: also copies the saved preferences to the account (awaited, failures ignored). */
  onSaved?: (preferences: UserPreferences) => Promise<unknown>;
}

/** Spec §4: system or dark → light; light → dark; saved to userPreferences, then the page reloads. */
export function ThemeToggle({ onReload = reloadPage, onSaved }: ThemeToggleProps) {
  const { t } = useTranslation('common');
  const mode = useTheme((s) => s.mode);
  const [busy, setBusy] = useState(false);
  const next = nextThemeMode(mode);
  const label = next === 'dark' ? t('theme.toggle_to_dark') : t('theme.toggle_to_light');
  return (
    <Button
      type="text"
      shape="circle"
      aria-label={label}
      title={label}
      data-testid="theme-toggle"
      loading={busy}
      icon={next === 'dark' ? <MoonOutlined aria-hidden /> : <SunOutlined aria-hidden />}
      onClick={async () => {
        // Unsynced until the account has it: signed out, at the next sign-in; signed in, once onSaved succeeds.
        const current = usePreferences.getState().preferences;
        const saved = usePreferences.getState().save(withUnsynced({ ...current, themeMode: next }, ['themeMode']));
        if (onSaved) {
          setBusy(true);
          await onSaved(saved).catch(() => undefined);
        }
        onReload();
      }}
    />
  );
}
