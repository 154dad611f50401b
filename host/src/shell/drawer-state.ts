/**
 * The drawer's collapsed state on a wide screen, kept in this browser across reloads (issue 23).
 * Only the desktop rail is remembered: below the lg breakpoint the drawer always starts closed (it
 * opens over the page, like a dialog), so a phone's open/close never overwrites the desktop choice.
 */
export const DRAWER_COLLAPSED_KEY = 'qc.drawerCollapsed';

export function readDrawerCollapsed(): boolean {
  try {
    return window.localStorage.getItem(DRAWER_COLLAPSED_KEY) === 'true';
  } catch {
    return false; // storage blocked (privacy mode): the default, expanded
  }
}

export function saveDrawerCollapsed(collapsed: boolean): void {
  try {
    window.localStorage.setItem(DRAWER_COLLAPSED_KEY, collapsed ? 'true' : 'false');
  } catch {
    /* storage blocked or full: the choice lasts until the reload */
  }
}
