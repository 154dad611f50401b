import type common from './common.fr';

/** `common` namespace, English (fallback language). */
const en: typeof common = {
  app: { name: 'Quarantine Console' },
  theme: {
    toggle_to_dark: 'Switch to dark theme',
    toggle_to_light: 'Switch to light theme',
  },
  language: { label: 'Language', fr: 'Français', en: 'English' },
  actions: {
    retry: 'Retry',
    reload: 'Reload',
    back_to_dashboard: 'Back to the dashboard',
    close: 'Close',
  },
  states: {
    loading: 'Loading…',
    empty: 'No data',
    error_title: 'Something went wrong',
    error_description: 'The data could not be loaded.',
  },
  coming_soon: {
    title: 'Coming soon',
    description: 'This page will be available in a future release.',
  },
  remote: {
    load_failed_title: 'This module could not be loaded',
    load_failed_description: 'The “{{name}}” module is unavailable right now. Check your connection and try again.',
    render_failed_title: 'This module ran into an error',
    render_failed_description: 'An unexpected error occurred while showing the “{{name}}” module.',
    incompatible_title: 'This module needs a newer console',
    incompatible_description:
      'This version of the “{{name}}” module was built for a newer version of the console. Update the console, or deploy the module’s previous version again.',
  },
  errors: {
    network: 'Could not contact the server. Please check your connection.',
    timeout: 'The server did not answer in time. Please try again in a moment.',
    unauthenticated: 'Your session has expired. Please sign in again.',
    forbidden: 'You do not have the required permissions for this action.',
    not_found: 'Not found.',
    rate_limited: 'Too many requests. Try again in a moment.',
    rate_limited_seconds_one: 'Too many requests. Try again in {{count}} second.',
    rate_limited_seconds_other: 'Too many requests. Try again in {{count}} seconds.',
    rate_limited_minutes_one: 'Too many requests. Try again in {{count}} minute.',
    rate_limited_minutes_other: 'Too many requests. Try again in {{count}} minutes.',
    unavailable: 'The service is temporarily unavailable. Please try again in a few moments.',
    server: 'Server error. Try again later.',
    unknown: 'An unexpected error occurred. Try again; if the problem persists, contact your administrator.',
  },
  roles: { admin: 'Administrator', domain_admin: 'Domain admin', user: 'User' },
  pager: {
    label: 'Pagination',
    first: 'First page',
    previous: 'Previous page',
    next: 'Next page',
    page: 'Page {{page}}',
  },
  filters: {
    clear: 'Clear “{{field}}”',
    reset: 'Reset filters',
    more: 'More filters',
    more_active_one: 'More filters ({{count}} active)',
    more_active_other: 'More filters ({{count}} active)',
    fewer: 'Fewer filters',
  },
};
export default en;
