import { z } from 'zod';

export const THEME_MODES = ['light', 'dark', 'system'] as const;
export const ThemeMode = z.enum(THEME_MODES);
export type ThemeMode = z.infer<typeof ThemeMode>;

export const PAGE_SIZES = [10, 20, 50, 100, 200] as const;
export const PageSize = z.literal(PAGE_SIZES);
export type PageSize = z.infer<typeof PageSize>;

/** GET/PUT /api/users/me/preferences/ (the server copy of localStorage `userPreferences`, in snake_case). */
export const Preferences = z.object({ theme_mode: ThemeMode, default_page_size: PageSize });
export type Preferences = z.infer<typeof Preferences>;
/** PUT /api/users/me/preferences/: a field it does not take is refused by name, like every body. */
export const PreferencesUpdate = Preferences.strict();

/**
 * What GET and PUT answer: the preferences and when they were last saved (null: never, and the
 * values are the defaults, which then say nothing about the user's choice).
 */
export const StoredPreferences = Preferences.extend({ updated_at: z.string().nullable() });
export type StoredPreferences = z.infer<typeof StoredPreferences>;

/** What GET answers before the user saved anything (spec §9 defaults). */
export const DEFAULT_PREFERENCES: Preferences = { theme_mode: 'light', default_page_size: 50 };
