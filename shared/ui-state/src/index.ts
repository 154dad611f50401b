/**
 * @qc/ui-state: tiny MF singleton (one instance on the page, shared by the host and every remote):
 * theme mode and primary colour, user preferences, and the notify() bus the host renders.
 * Never imports antd (each app feeds its own antd copy from here).
 */
export {
  useTheme,
  toThemeConfig,
  nextThemeMode,
  resolveTheme,
  PRIMARY_COLORS,
  DARK_TAG_TEXT,
  LIGHT_TAG_TEXT,
  type ThemeMode,
  type ResolvedTheme,
  type ThemeState,
} from './theme.store';
export {
  usePreferences,
  withUnsynced,
  forgetUnsynced,
  mergePreferences,
  readPreferences,
  PREFERENCES_KEY,
  DEFAULT_PREFERENCES,
  type PreferenceField,
  type UserPreferences,
  type PreferencesState,
} from './preferences.store';
export {
  useNotices,
  notify,
  setDefaultNoticeDurationForTests,
  noticeKey,
  NOTIFICATION_CONFIG,
  type Notice,
  type NoticeType,
  type ActiveNotice,
  type NoticeState,
} from './notify.store';
export { contrastRatio, flatten, parseColor } from './contrast';
