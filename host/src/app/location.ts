import { useSyncExternalStore } from 'react';

/**
 * Navigation outside the router: /login is rendered without react-router (notes "A + C": the
 * router lives in the lazy shell chunk), so the host keeps this tiny location store for the
 * login ↔ shell switch. Inside the shell, react-router owns navigation.
 */
const listeners = new Set<() => void>();

function emit() {
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  window.addEventListener('popstate', listener);
  return () => {
    listeners.delete(listener);
    window.removeEventListener('popstate', listener);
  };
}

export function currentPath(): string {
  return window.location.pathname;
}

export function usePathname(): string {
  return useSyncExternalStore(subscribe, currentPath);
}

export const LOGIN_PATH = '/login';
export const HOME_PATH = '/dashboard';
/**
 * The public page an invitation link opens (INVITATION_PATH of @qc/contracts, a test checks; not
 * imported from there, so the host's first chunk bundles no zod).
 */
export const INVITATION_PAGE_PATH = '/invitation';
const FROM_KEY = 'qcFrom';

/** Only same-app absolute paths are followed back after sign-in (no open redirect). */
export function isSafeReturnPath(p: unknown): p is string {
  return (
    typeof p === 'string' &&
    p.startsWith('/') &&
    !p.startsWith('//') &&
    !p.startsWith('/\\') &&
    p !== LOGIN_PATH &&
    !p.startsWith(`${LOGIN_PATH}?`) &&
    !p.startsWith(`${LOGIN_PATH}#`)
  );
}

let signingOut = false;

/** The next move to /login is a sign-out: do not remember where the user was. */
export function markSigningOut() {
  signingOut = true;
}

/** Unauthenticated visitor: go to /login, remembering the origin in history state (survives reloads). */
export function redirectToLogin() {
  const { pathname, search, hash } = window.location;
  const from = signingOut ? null : `${pathname}${search}${hash}`;
  signingOut = false;
  window.history.replaceState(isSafeReturnPath(from) ? { [FROM_KEY]: from } : null, '', LOGIN_PATH);
  emit();
}

/** Where to go after sign-in: the remembered origin, else /dashboard. */
export function returnPath(): string {
  const state: unknown = window.history.state;
  const from = state && typeof state === 'object' ? (state as Record<string, unknown>)[FROM_KEY] : undefined;
  return isSafeReturnPath(from) ? from : HOME_PATH;
}

/** From a public page to /login, in place of it (a spent link is not left in the history) and remembering nothing. */
export function goToLogin() {
  window.history.replaceState(null, '', LOGIN_PATH);
  emit();
}

/** Signed in while on /login: leave it for the remembered origin. */
export function leaveLogin() {
  window.history.replaceState(null, '', returnPath());
  emit();
}
