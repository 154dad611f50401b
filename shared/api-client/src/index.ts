/**
 * @qc/api-client: bundled into each app. The ky instance (Bearer header; 401 → one refresh via
 * @qc/auth → replay once; never on /api/auth/*) and typed calls on @qc/contracts types.
 */
export {
  api,
  API_PREFIX,
  LONG_ACTION_TIMEOUT_MS,
  getCurrentUser,
  getDashboardCounts,
  readApiError,
  errorMessageKey,
  errorMessageValues,
  rateLimitedMessage,
  isHTTPError,
  type ApiErrorInfo,
} from './client';
export {
  updateProfile,
  confirmEmailChange,
  changePassword,
  setupMfa,
  enableMfa,
  disableMfa,
  regenerateBackupCodes,
  getPreferences,
  savePreferences,
} from './me';
export { sendFeedback, listFeedback, fetchBlob, type FeedbackSubmission } from './feedback';
export { authFetch, createAuthFetch, isAuthPath } from './auth-fetch';
export { HTTPError } from 'ky';
export {
  listEntries,
  createListEntry,
  deleteListEntry,
  clearList,
  type ListOwnerParams,
  type ListPageParams,
} from './lists';
export {
  getNotificationSettings,
  saveNotificationSettings,
  sendTestDigest,
  getNotificationDefaults,
  saveNotificationDefaults,
  type NotificationSettingsBody,
} from './notifications';
