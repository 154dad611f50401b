import { DEFAULT_PREFERENCES, mergePreferences, PREFERENCES_KEY, usePreferences } from './preferences.store';
import { nextThemeMode, resolveTheme, useTheme } from './theme.store';

beforeEach(() => {
  localStorage.clear();
  usePreferences.setState({ preferences: { ...DEFAULT_PREFERENCES } });
  useTheme.getState().setMode('light');
});

describe('user preferences (spec §3)', () => {
  it('defaults: light theme, page size 50', () => {
    expect(mergePreferences(null)).toEqual({ themeMode: 'light', defaultPageSize: 50 });
  });

  it('merges stored values over the defaults, ignoring invalid ones', () => {
    expect(mergePreferences({ themeMode: 'dark' })).toEqual({ themeMode: 'dark', defaultPageSize: 50 });
    expect(mergePreferences({ defaultPageSize: 100 })).toEqual({ themeMode: 'light', defaultPageSize: 100 });
    expect(mergePreferences({ themeMode: 'purple', defaultPageSize: -3 })).toEqual(DEFAULT_PREFERENCES);
    expect(mergePreferences({ themeMode: 'system', extra: 1 })).toEqual({
      themeMode: 'system',
      defaultPageSize: 50,
      extra: 1,
    });
  });

  it('reload() reads local storage (corrupt JSON → defaults) and applies the theme', () => {
    localStorage.setItem(PREFERENCES_KEY, JSON.stringify({ themeMode: 'dark' }));
    expect(usePreferences.getState().reload()).toEqual({ themeMode: 'dark', defaultPageSize: 50 });
    expect(useTheme.getState()).toMatchObject({ mode: 'dark', resolved: 'dark', primary: '#4169e1' });
    localStorage.setItem(PREFERENCES_KEY, '{not json');
    expect(usePreferences.getState().reload()).toEqual(DEFAULT_PREFERENCES);
    expect(useTheme.getState().primary).toBe('#0958d9');
  });

  it('save() stores the merged JSON', () => {
    usePreferences.getState().save({ themeMode: 'dark' });
    expect(JSON.parse(localStorage.getItem(PREFERENCES_KEY)!)).toEqual({ themeMode: 'dark', defaultPageSize: 50 });
  });
});

describe('theme (spec §4, §9)', () => {
  it('toggle: system or dark → light; light → dark', () => {
    expect(nextThemeMode('light')).toBe('dark');
    expect(nextThemeMode('dark')).toBe('light');
    expect(nextThemeMode('system')).toBe('light');
  });

  it('system follows the OS colour scheme; primary is blue in light, royal blue in dark', () => {
    expect(resolveTheme('system', true)).toBe('dark');
    expect(resolveTheme('system', false)).toBe('light');
    useTheme.getState().setMode('system');
    useTheme.getState().setSystemDark(true);
    expect(useTheme.getState()).toMatchObject({ resolved: 'dark', primary: '#4169e1' });
    useTheme.getState().setSystemDark(false);
    expect(useTheme.getState()).toMatchObject({ resolved: 'light', primary: '#0958d9' });
  });
});
