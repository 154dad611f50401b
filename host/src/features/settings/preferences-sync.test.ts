import { DEFAULT_PREFERENCES } from '@qc/ui-state';
import { mergeServerPreferences, toPageSize, toServerPreferences } from './preferences-sync';

describe('preferences: local (userPreferences) ↔ account copy', () => {
  it('maps camelCase to the API’s snake_case, with an accepted page size', () => {
    expect(toServerPreferences({ themeMode: 'system', defaultPageSize: 100 })).toEqual({
      theme_mode: 'system',
      default_page_size: 100,
    });
    expect(toPageSize(30)).toBe(20);
    expect(toPageSize(1000)).toBe(200);
    expect(toPageSize(50)).toBe(50);
  });

  it('server values win over local ones…', () => {
    const local = { themeMode: 'light' as const, defaultPageSize: 50, extra: 1 };
    const savedAt = '2026-11-22T10:00:00.000Z';
    expect(mergeServerPreferences(local, { theme_mode: 'dark', default_page_size: 20, updated_at: savedAt })).toEqual({
      themeMode: 'dark',
      defaultPageSize: 20,
      extra: 1,
    });
    expect(
      mergeServerPreferences(DEFAULT_PREFERENCES, { theme_mode: 'light', default_page_size: 200, updated_at: savedAt }),
    ).toEqual({ themeMode: 'light', defaultPageSize: 200 });
    // Light chosen again on another machine is a choice too, though it equals the defaults.
    expect(
      mergeServerPreferences(
        { themeMode: 'dark', defaultPageSize: 100 },
        { theme_mode: 'light', default_page_size: 50, updated_at: savedAt },
      ),
    ).toEqual({ themeMode: 'light', defaultPageSize: 50 });
  });

  it('…except the defaults the API answers before anything was saved: the local choice stays', () => {
    const local = { themeMode: 'dark' as const, defaultPageSize: 100 };
    expect(mergeServerPreferences(local, { theme_mode: 'light', default_page_size: 50, updated_at: null })).toBe(local);
  });
});
