import { DEFAULT_PREFERENCES, PageSize, type Preferences, type StoredPreferences } from '@qc/contracts';
import type { Db } from '../../db/database';
import { findPreferences, upsertPreferences } from './preferences.repository';

/** The stored preferences, or the defaults when the user never saved any. */
export async function getPreferences(db: Db, userId: string): Promise<StoredPreferences> {
  const row = await findPreferences(db, userId);
  if (!row) return { ...DEFAULT_PREFERENCES, updated_at: null };
  const size = PageSize.safeParse(row.default_page_size);
  return {
    theme_mode: row.theme_mode,
    default_page_size: size.success ? size.data : DEFAULT_PREFERENCES.default_page_size,
    updated_at: new Date(Number(row.updated_at)).toISOString(),
  };
}

export async function savePreferences(db: Db, userId: string, prefs: Preferences): Promise<StoredPreferences> {
  await upsertPreferences(db, {
    user_id: userId,
    theme_mode: prefs.theme_mode,
    default_page_size: prefs.default_page_size,
    updated_at: Date.now(),
  });
  return getPreferences(db, userId);
}
