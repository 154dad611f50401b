/**
 * @qc/ui: bundled into each app (tree-shaken): theme wiring for the app's own antd copy, the remote
 * boundary, page states. Never renders notices itself (use notify() from @qc/ui-state).
 */
export { ThemeRoot, useThemeToken, type ThemeRootProps } from './ThemeRoot';
export {
  PageLoading,
  PageError,
  PageEmpty,
  ReloadFailed,
  TableEmptyText,
  ComingSoon,
  ResultPicture,
  type PageErrorProps,
} from './PageStates';
export { PageHeader } from './PageHeader';
export { VisuallyHidden } from './VisuallyHidden';
export { matchesMedia, NARROW_QUERY, PHONE_QUERY, useMediaQuery, usePhoneLayout } from './usePhoneLayout';
export { useChoiceGroup } from './choice-group';
export { APP_NAME, documentTitle, useDocumentTitle } from './document-title';
export { formatDateTime, formatUtcDay } from './date-format';
export {
  DATE_PRESETS,
  isDatePreset,
  presetRange,
  localDaysRange,
  startOfLocalDay,
  endOfLocalDay,
  parseLocalDay,
  toLocalDay,
  toIsoWithOffset,
  type DatePreset,
  type DatePeriod,
  type LocalDateRange,
} from './date-range';
export {
  RemoteModule,
  RemoteFailure,
  RemoteLoadError,
  isLoadFailure,
  isIncompatibleRemote,
  failureKind,
  type RemoteFailureKind,
  type RemoteLoader,
  type RemoteModuleProps,
  type RemoteFailureProps,
} from './RemoteBoundary';
export { retryableLazy, type RetryableLazy } from './retryable-lazy';
export {
  useKeysetPager,
  useKeysetNavigation,
  KeysetPagerButtons,
  type KeysetPager,
  type PagerState,
} from './KeysetPager';
export { KeysetList, ListStates, ReloadButton, type KeysetListProps, type ListQuery } from './KeysetList';
export { FilterBar, type FilterBarProps } from './FilterBar';
export { TextFilter, useDraft, FILTER_DEBOUNCE_MS } from './TextFilter';
export { Field } from './Field';
export { DetailStates, NotFound, FormError } from './DetailStates';
export { SearchSelect, SEARCH_DEBOUNCE_MS, type SearchOption, type SearchSelectProps } from './SearchSelect';
