import { nextThemeMode, usePreferences, useTheme, withUnsynced, type UserPreferences } from '@qc/ui-state';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ensurePublicStyles } from '../../app/public-styles';
import { MoonIcon, SunIcon } from './icons';

ensurePublicStyles(); // plain markup: drawn on /login before antd is loaded

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
    <button
      type="button"
      className="qc-icon-btn"
      aria-label={label}
      title={label}
      aria-busy={busy}
      data-testid="theme-toggle"
      onClick={async () => {
        if (busy) return;
        // Unsynced until the account has it: signed out, at the next sign-in; signed in, once onSaved succeeds.
        const current = usePreferences.getState().preferences;
        const saved = usePreferences.getState().save(withUnsynced({ ...current, themeMode: next }, ['themeMode']));
        if (onSaved) {
          setBusy(true);
          await onSaved(saved).catch(() => undefined);
        }
        onReload();
      }}
    >
      {busy ? <span className="qc-spin" aria-hidden /> : next === 'dark' ? <MoonIcon /> : <SunIcon />}
    </button>
  );
}
