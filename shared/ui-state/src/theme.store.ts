import { create } from 'zustand';

export type ThemeMode = 'light' | 'dark' | 'system';
export type ResolvedTheme = 'light' | 'dark';

/**
 * Spec §9: primary blue in light mode, royal blue in dark mode. The light blue is antd's blue-7, not
 * its default blue-6 (#1677ff): white on it, and it on the selected menu item's tint, reach WCAG AA's
 * 4.5:1 (blue-6 gave 4.1 and 3.7).
 */
export const PRIMARY_COLORS: Record<ResolvedTheme, string> = { light: '#0958d9', dark: '#4169e1' };

/**
 * Text tokens darker (lighter in dark mode) than antd's defaults, which are below WCAG AA's 4.5:1 for
 * body-size text: secondary text 3.3:1 on the page's grey (4.4:1 in dark mode), placeholders 1.8:1,
 * the red of Delete buttons 3.3:1. Checked by e2e/specs/a11y.spec.ts (axe).
 */
const TEXT_TOKENS: Record<ResolvedTheme, Record<string, string>> = {
  light: {
    colorInfo: PRIMARY_COLORS.light, // links and "processing" tags follow colorInfo, not colorPrimary
    // Hovered links and primary buttons darken (antd lightens them: white text 4.2:1, a link 2.8:1).
    colorLinkHover: '#003eb3',
    colorPrimaryHover: '#003eb3',
    colorTextTertiary: 'rgba(0, 0, 0, 0.6)',
    colorTextDescription: 'rgba(0, 0, 0, 0.6)',
    colorTextPlaceholder: 'rgba(0, 0, 0, 0.55)',
    colorError: '#cf1322',
    // Green text on its tint; the tint itself is antd's (derived from a darker seed it turns grey).
    colorSuccess: '#237804',
    colorSuccessBg: '#f6ffed',
    colorSuccessBorder: '#b7eb8f',
  },
  dark: {
    colorInfo: '#69b1ff', // antd's dark blue and red are 3.4–4.3:1 on the dark cards
    colorLink: '#69b1ff',
    colorLinkHover: '#91caff', // antd's dims to 2.6:1
    colorPrimaryHover: '#3a5cc2', // antd's lighter blue carries white text at 3.6:1
    colorError: '#ff7875',
    colorTextTertiary: 'rgba(255, 255, 255, 0.55)',
    colorTextDescription: 'rgba(255, 255, 255, 0.55)',
    colorTextPlaceholder: 'rgba(255, 255, 255, 0.5)',
  },
};

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
    token: { colorPrimary: s.primary, ...TEXT_TOKENS[s.resolved] },
    // The selected tab's text is the primary colour, which dark mode darkens to 3:1 on a card.
    // antd's tags write gold, cyan, green… in shade 7 (and statuses in shade 6) on shade 1: 2.7–3.9:1
    // in light mode, and purple 3.4:1 in dark mode. Tags take shades that read at ≥ 4.5:1 (WCAG AA).
    components:
      s.resolved === 'dark'
        ? {
            Tabs: { itemSelectedColor: '#7f9cf5', itemHoverColor: '#7f9cf5' },
            // The drawer's selected entry likewise: royal blue on its tint read 2.2:1 (issue 23).
            Menu: { itemSelectedColor: '#7f9cf5', subMenuItemSelectedColor: '#7f9cf5' },
            Tag: DARK_TAG_TEXT,
            // A solid danger button (Delete, its confirmations) is dark mode's salmon red, on which
            // white reads at 3.4:1; dark text reads at 5.5:1. Outlined danger buttons keep their red.
            Button: { dangerColor: '#141414' },
          }
        : { Tag: LIGHT_TAG_TEXT },
  };
}

/** antd palette shades (8 or 9) that read at ≥ 4.5:1 on their own shade 1, for light-mode tags. */
export const LIGHT_TAG_TEXT = {
  gold7: '#874d00',
  orange7: '#ad4e00',
  volcano7: '#ad2102',
  green7: '#237804',
  cyan7: '#006d75',
  lime7: '#3f6600',
  colorSuccess: '#237804',
  colorWarning: '#874d00',
  colorInfo: '#0958d9',
  colorError: '#a8071a',
} as const;

/** In dark mode (antd's dark palette), the one preset colour the console uses that reads below 4.5:1. */
export const DARK_TAG_TEXT = { purple7: '#ab7ae0' } as const;

/** Spec §4: system or dark goes to light; light goes to dark. */
export function nextThemeMode(mode: ThemeMode): ThemeMode {
  return mode === 'light' ? 'dark' : 'light';
}
