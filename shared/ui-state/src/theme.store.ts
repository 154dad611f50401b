import { create } from 'zustand';

export type ThemeMode = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

/** Spec §9: primary blue in light mode, royal blue in dark mode. */
export const PRIMARY_COLORS: Record<ResolvedTheme, string> = { light: '#1677ff', dark: '#4169e1' };

export interface ThemeState {
  /** What the user chose. */
  mode: ThemeMode;
  /** What is shown: `system` follows the operating system colour scheme. */
  resolved: ResolvedTheme;
  /** antd `colorPrimary` for the resolved theme. */
  primary: string;
  setMode: (mode: ThemeMode) => void;
  /** Called when the OS colour scheme changes (matters only in `system` mode). */
  setSystemDark: (dark: boolean) => void;
}

const DARK_QUERY = '(prefers-color-scheme: dark)';

function systemPrefersDark(): boolean {
  try {
    return (
      typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(DARK_QUERY).matches
    );
  } catch {
    return false;
  }
}

export function resolveTheme(mode: ThemeMode, systemDark: boolean): ResolvedTheme {
  if (mode === 'system') return systemDark ? 'dark' : 'light';
  return mode;
}

let systemDark = systemPrefersDark();

export const useTheme = create<ThemeState>()((set, get) => {
  const compute = (mode: ThemeMode) => {
    const resolved = resolveTheme(mode, systemDark);
    return { mode, resolved, primary: PRIMARY_COLORS[resolved] };
  };
  return {
    ...compute('light'),
    setMode: (mode) => set(compute(mode)),
    setSystemDark: (dark) => {
      systemDark = dark;
      set(compute(get().mode));
    },
  };
});

if (typeof window !== 'undefined' && typeof window.matchMedia === 'function') {
  try {
    const mql = window.matchMedia(DARK_QUERY);
    mql.addEventListener?.('change', (e) => useTheme.getState().setSystemDark(e.matches));
  } catch {
    /* no matchMedia: stay light */
  }
}

/**
 * antd ThemeConfig for the current state. The caller passes ITS OWN antd `theme` object, so this
 * works although antd is not shared (each app themes its own copy from this one store).
 */
export function toThemeConfig<T extends { darkAlgorithm: unknown; defaultAlgorithm: unknown }>(
  antdTheme: T,
  s: Pick<ThemeState, 'resolved' | 'primary'>,
) {
  return {
    algorithm: (s.resolved === 'dark' ? antdTheme.darkAlgorithm : antdTheme.defaultAlgorithm) as T['darkAlgorithm'],
    token: { colorPrimary: s.primary },
  };
}

/** Spec §4: system or dark goes to light; light goes to dark. */
export function nextThemeMode(mode: ThemeMode): ThemeMode {
  return mode === 'light' ? 'dark' : 'light';
}
