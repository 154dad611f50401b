import { create } from 'zustand';
import { useTheme, type ThemeMode } from './theme.store';

/** Spec §3: local storage key `userPreferences`, JSON, merged over defaults, never sent to the server. */
export const PREFERENCES_KEY = 'userPreferences';

export type PreferenceField = 'themeMode' | 'defaultPageSize';

export interface UserPreferences {
  themeMode: ThemeMode;
  defaultPageSize: number;
  /**
   * The fields chosen in this browser and not yet copied to the account (a theme picked on /login,
   * or a copy that failed): at the next sign-in they are sent up instead of the account's replacing
   * them. Cleared at sign-out: the next person to sign in here did not choose them.
   */
  unsynced?: PreferenceField[] | undefined;
}

export const DEFAULT_PREFERENCES: Readonly<UserPreferences> = Object.freeze({
  themeMode: 'light',
  defaultPageSize: 50,
});

const THEME_MODES: readonly ThemeMode[] = ['light', 'dark', 'system'];

/** Stored JSON merged over the defaults; unknown keys are kept, invalid values fall back to the default. */
export function mergePreferences(stored: unknown): UserPreferences {
  const merged: UserPreferences & Record<string, unknown> = { ...DEFAULT_PREFERENCES };
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return merged;
  const s = stored as Record<string, unknown>;
  for (const [k, v] of Object.entries(s)) {
    if (k !== 'themeMode' && k !== 'defaultPageSize') merged[k] = v;
  }
  if (typeof s.themeMode === 'string' && (THEME_MODES as readonly string[]).includes(s.themeMode)) {
    merged.themeMode = s.themeMode as ThemeMode;
  }
  if (typeof s.defaultPageSize === 'number' && Number.isInteger(s.defaultPageSize) && s.defaultPageSize > 0) {
    merged.defaultPageSize = s.defaultPageSize;
  }
  return merged;
}

export function readPreferences(): UserPreferences {
  try {
    const raw = window.localStorage.getItem(PREFERENCES_KEY);
    return mergePreferences(raw ? JSON.parse(raw) : null);
  } catch {
    return { ...DEFAULT_PREFERENCES };
  }
}

/**
 * `p` with `fields` marked as chosen in this browser and not yet copied to the account. Here, not
 * beside the account sync: the theme toggle of /login needs it, without the api client.
 */
export function withUnsynced(p: UserPreferences, fields: PreferenceField[]): UserPreferences {
  return { ...p, unsynced: [...new Set([...(p.unsynced ?? []), ...fields])] };
}

/** Signed out: the choices not sent up were this user's, not the next one's to inherit. */
export function forgetUnsynced() {
  if (usePreferences.getState().preferences.unsynced) usePreferences.getState().save({ unsynced: undefined });
}

export interface PreferencesState {
  preferences: UserPreferences;
  /** Re-read local storage (spec §4: when the authentication state or the user id changes). */
  reload: () => UserPreferences;
  /** Merge a change, store it, and apply the theme mode. */
  save: (patch: Partial<UserPreferences>) => UserPreferences;
}

export const usePreferences = create<PreferencesState>()((set, get) => ({
  preferences: { ...DEFAULT_PREFERENCES },
  reload: () => {
    const preferences = readPreferences();
    set({ preferences });
    useTheme.getState().setMode(preferences.themeMode);
    return preferences;
  },
  save: (patch) => {
    const preferences = mergePreferences({ ...get().preferences, ...patch });
    try {
      window.localStorage.setItem(PREFERENCES_KEY, JSON.stringify(preferences));
    } catch {
      /* storage full or disabled: keep it for this page */
    }
    set({ preferences });
    useTheme.getState().setMode(preferences.themeMode);
    return preferences;
  },
}));
