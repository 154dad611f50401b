import { savePreferences } from '@qc/api-client';
import type { PageSize, Preferences, StoredPreferences } from '@qc/contracts';
import { usePreferences, type ThemeMode, type UserPreferences } from '@qc/ui-state';

/** The page sizes the account copy accepts (spec §9 default 50; `page_size` ≤ 200). */
export const PAGE_SIZES: readonly PageSize[] = [10, 20, 50, 100, 200];
export const THEME_MODES: readonly ThemeMode[] = ['light', 'dark', 'system'];
/** Copying to the account must not hold the theme toggle's reload for long. */
const PUSH_TIMEOUT_MS = 5_000;

/** The accepted page size closest to `n` (a hand-edited localStorage may hold anything). */
export function toPageSize(n: number): PageSize {
  return PAGE_SIZES.reduce((best, s) => (Math.abs(s - n) < Math.abs(best - n) ? s : best), PAGE_SIZES[2]!);
}

/** localStorage `userPreferences` (camelCase) → the API's copy (snake_case). */
export function toServerPreferences(p: Pick<UserPreferences, 'themeMode' | 'defaultPageSize'>): Preferences {
  return { theme_mode: p.themeMode, default_page_size: toPageSize(p.defaultPageSize) };
}

export function fromServerPreferences(p: Preferences): Pick<UserPreferences, 'themeMode' | 'defaultPageSize'> {
  return { themeMode: p.theme_mode, defaultPageSize: p.default_page_size };
}

/**
 * Server values merged over the local ones. Until the user saved something the API answers the
 * defaults (`updated_at: null`), which say nothing: then the local choice (e.g. a theme picked on
 * /login) is kept. A saved copy wins even when it equals the defaults (light chosen again).
 */
export function mergeServerPreferences(local: UserPreferences, server: StoredPreferences): UserPreferences {
  return server.updated_at === null ? local : { ...local, ...fromServerPreferences(server) };
}

/** The account copy merged over the local one, but for the fields chosen here that it has not had yet. */
function withUnsyncedKept(local: UserPreferences, server: StoredPreferences): UserPreferences {
  const merged = mergeServerPreferences(local, server);
  const kept = Object.fromEntries((local.unsynced ?? []).map((field) => [field, local[field]]));
  return { ...merged, ...kept };
}

/**
 * Merges the account copy into the local preferences (the store, hence localStorage and the theme).
 * A local choice the account has not had yet is kept: it is newer (see syncPreferences).
 */
export function applyServerPreferences(server: StoredPreferences): UserPreferences {
  const current = usePreferences.getState().preferences;
  const merged = withUnsyncedKept(current, server);
  if (merged.themeMode !== current.themeMode || merged.defaultPageSize !== current.defaultPageSize) {
    usePreferences.getState().save(merged);
  }
  return merged;
}

/** PUT the local preferences to the account (the theme toggle of the signed-in shell); then they are in sync. */
export async function pushPreferences(p: UserPreferences): Promise<StoredPreferences> {
  const saved = await savePreferences(toServerPreferences(p), { timeout: PUSH_TIMEOUT_MS });
  markSynced(p);
  return saved;
}

/** The account now holds `p`: no longer unsynced, unless another choice was made meanwhile. */
export function markSynced(p: UserPreferences) {
  const current = usePreferences.getState().preferences;
  if (current.unsynced && current.themeMode === p.themeMode && current.defaultPageSize === p.defaultPageSize) {
    usePreferences.getState().save({ unsynced: undefined });
  }
}

/**
 * After sign-in: the account copy is merged in, except the fields chosen in this browser that it
 * has not had yet (a theme picked on /login), which win and are sent up with the rest of the
 * account's values. Resolves with the account's copy as it now stands.
 */
export async function syncPreferences(server: StoredPreferences): Promise<StoredPreferences> {
  const merged = applyServerPreferences(server);
  return merged.unsynced?.length ? pushPreferences(merged) : server;
}
