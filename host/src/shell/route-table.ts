import type { RemoteName, Role } from '@qc/contracts';

/**
 * THE route table of the console (DESIGN §3): path prefix → remote container → exposed module →
 * required role. Routes, guards and the drawer's entries all come from here.
 *
 * `ready: false` marks a page whose remote is not built yet: the route and its guard exist and show
 * a "coming soon" placeholder inside the layout, and its nav entry is shown (role-filtered). Once a
 * remote module is ready, its nav entry is hidden when the container is absent from /remotes.json.
 */
export type NavGroup = 'filters' | 'haraka';

/** The host's own pages (lazy chunks of the host, see HostPage.tsx). */
export type HostPageId = 'profile' | 'confirm_email' | 'settings' | 'feedback';

export interface RouteEntry {
  /** Stable id: nav key and i18n key (`host:nav.<id>`). */
  id: string;
  /** react-router path below '/', e.g. 'mail/*'. */
  path: string;
  /** Where the nav entry points. */
  href: string;
  role: Role;
  /** The remote module owning the page; absent for the host's own pages. */
  remote?: { container: RemoteName; module: string };
  /** A page of the host itself (profile, settings, feedback…), instead of a remote module. */
  page?: HostPageId;
  ready: boolean;
  /** Shown in the drawer; `group` nests it in a collapsible group. */
  nav?: { group?: NavGroup };
}

export const ROUTES: readonly RouteEntry[] = [
  {
    id: 'dashboard',
    path: 'dashboard',
    href: '/dashboard',
    role: 'user',
    remote: { container: 'remote_mail', module: 'Dashboard' },
    ready: true,
    nav: {},
  },
  {
    id: 'mail',
    path: 'mail/*',
    href: '/mail',
    role: 'user',
    remote: { container: 'remote_mail', module: 'Quarantine' },
    ready: true,
    nav: {},
  },
  {
    id: 'history',
    path: 'history',
    href: '/history',
    role: 'user',
    remote: { container: 'remote_mail', module: 'History' },
    ready: true,
    nav: {},
  },
  {
    id: 'statistics',
    path: 'statistics',
    href: '/statistics',
    role: 'user',
    remote: { container: 'remote_mail', module: 'Statistics' },
    ready: true,
    nav: {},
  },
  {
    id: 'users',
    path: 'users/*',
    href: '/users',
    role: 'domain_admin',
    remote: { container: 'remote_admin', module: 'Users' },
    ready: true,
    nav: {},
  },
  {
    id: 'domains',
    path: 'domains/*',
    href: '/domains',
    role: 'admin',
    remote: { container: 'remote_admin', module: 'Domains' },
    ready: true,
    nav: {},
  },
  // Admin → Directory (issue 31): the LDAP / AD settings in force and a test of one login.
  {
    id: 'directory',
    path: 'directory',
    href: '/directory',
    role: 'admin',
    remote: { container: 'remote_admin', module: 'Directory' },
    ready: true,
    nav: {},
  },
  {
    id: 'rspamd',
    path: 'rspamd/*',
    href: '/rspamd',
    role: 'admin',
    remote: { container: 'remote_rspamd', module: 'Filters' },
    ready: true,
    nav: { group: 'filters' },
  },
  {
    id: 'apanel_filters',
    path: 'rspamd/apanel-filters/*',
    href: '/rspamd/apanel-filters',
    role: 'admin',
    remote: { container: 'remote_rspamd', module: 'ApanelFilters' },
    ready: true,
    nav: { group: 'filters' },
  },
  {
    id: 'system_rules',
    path: 'rspamd/system-rules/*',
    href: '/rspamd/system-rules',
    role: 'admin',
    remote: { container: 'remote_rspamd', module: 'SystemRules' },
    ready: true,
    nav: { group: 'filters' },
  },
  {
    id: 'haraka_logs',
    path: 'haraka/logs/*',
    href: '/haraka/logs',
    role: 'admin',
    remote: { container: 'remote_haraka', module: 'Logs' },
    ready: true,
    nav: { group: 'haraka' },
  },
  {
    id: 'haraka_summary',
    path: 'haraka/statistics/summary',
    href: '/haraka/statistics/summary',
    role: 'admin',
    remote: { container: 'remote_haraka', module: 'StatisticsSummary' },
    ready: true,
    nav: { group: 'haraka' },
  },
  {
    id: 'haraka_logs_per_day',
    path: 'haraka/statistics/logs-per-day',
    href: '/haraka/statistics/logs-per-day',
    role: 'admin',
    remote: { container: 'remote_haraka', module: 'LogsPerDay' },
    ready: true,
    nav: { group: 'haraka' },
  },
  { id: 'feedback', path: 'feedback', href: '/feedback', role: 'admin', page: 'feedback', ready: true, nav: {} },
  { id: 'settings', path: 'settings', href: '/settings', role: 'user', page: 'settings', ready: true, nav: {} },
  { id: 'profile', path: 'profile', href: '/profile', role: 'user', page: 'profile', ready: true },
  // The link e-mailed to a new address (EMAIL_CONFIRM_PATH of @qc/contracts); it confirms by a POST.
  {
    id: 'confirm_email',
    path: 'profile/confirm-email',
    href: '/profile/confirm-email',
    role: 'user',
    page: 'confirm_email',
    ready: true,
  },
];

/** Nav groups and the role each needs (spec §2: the Filters and Haraka groups are admin only). */
export const NAV_GROUPS: Record<NavGroup, { role: Role }> = { filters: { role: 'admin' }, haraka: { role: 'admin' } };

/** MF id of an entry's module, e.g. 'remote_mail/Dashboard'. */
export function remoteId(entry: RouteEntry): string | null {
  return entry.remote ? `${entry.remote.container}/${entry.remote.module}` : null;
}

export interface NavVisibilityInput {
  role: Role | null | undefined;
  remotesStatus: 'loading' | 'ready' | 'failed';
  remotes: Record<string, string>;
  roleSatisfies: (actual: Role | null | undefined, required: Role) => boolean;
}

/** Entries of the drawer for this user: filtered by role and by presence in /remotes.json. */
export function visibleNavEntries(input: NavVisibilityInput, routes: readonly RouteEntry[] = ROUTES): RouteEntry[] {
  return routes.filter((r) => {
    if (!r.nav) return false;
    if (!input.roleSatisfies(input.role ?? 'user', r.role)) return false;
    if (r.nav.group && !input.roleSatisfies(input.role ?? 'user', NAV_GROUPS[r.nav.group].role)) return false;
    if (r.ready && r.remote && input.remotesStatus !== 'loading' && !(r.remote.container in input.remotes))
      return false;
    return true;
  });
}
