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
/** Where the single sign-on comes back with its ticket (`#ticket=…`); drawn like /login. */
export const SSO_LOGIN_PATH = '/login/sso';
export const HOME_PATH = '/dashboard';
/**
 * The public page an invitation link opens (INVITATION_PATH of @qc/contracts, a test checks; not
 * imported from there, so the host's first chunk bundles no zod).
 */
export const INVITATION_PAGE_PATH = '/invitation';
const FROM_KEY = 'qcFrom';
/** The origin, kept in this tab across the round trip to the single sign-on provider. */
const SSO_FROM_KEY = 'qcSsoFrom';

/** Only same-app absolute paths are followed back after sign-in (no open redirect). */
export function isSafeReturnPath(p: unknown): p is string {
  return (
    typeof p === 'string' &&
    p.startsWith('/') &&
    !p.startsWith('//') &&
    !p.startsWith('/\\') &&
    p !== LOGIN_PATH &&
    !p.startsWith(`${LOGIN_PATH}?`) &&
    !p.startsWith(`${LOGIN_PATH}#`) &&
    !p.startsWith(`${LOGIN_PATH}/`)
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

function rememberedOrigin(): unknown {
  const state: unknown = window.history.state;
  return state && typeof state === 'object' ? (state as Record<string, unknown>)[FROM_KEY] : undefined;
}

/** Where to go after sign-in: the remembered origin, else /dashboard. */
export function returnPath(): string {
  const from = rememberedOrigin();
  return isSafeReturnPath(from) ? from : HOME_PATH;
}

/**
 * Leaving for the single sign-on provider: the history entry that holds the origin is not the one
 * the provider comes back to (`/login/sso` or `/login?sso_error=` are new entries), so the origin
 * waits in sessionStorage (this tab only).
 */
export function stashOriginForSso() {
  const from = rememberedOrigin();
  try {
    if (isSafeReturnPath(from)) sessionStorage.setItem(SSO_FROM_KEY, from);
    else sessionStorage.removeItem(SSO_FROM_KEY);
  } catch {
    /* storage refused (private mode): /dashboard after sign-in */
  }
}

/**
 * Back from the provider: the history state to put on the current entry, carrying the stashed
 * origin (read once, then forgotten).
 */
export function takeStashedOrigin(): Record<string, string> | null {
  let from: string | null = null;
  try {
    from = sessionStorage.getItem(SSO_FROM_KEY);
    sessionStorage.removeItem(SSO_FROM_KEY);
  } catch {
    /* storage refused */
  }
  return isSafeReturnPath(from) ? { [FROM_KEY]: from } : null;
}

/** From a public page to /login, in place of it (a spent link is not left in the history) and remembering nothing. */
export function goToLogin() {
  window.history.replaceState(null, '', LOGIN_PATH);
  emit();
}

/** To /login (its code or set-up step, or the form), keeping the remembered origin. */
export function showLoginPage() {
  window.history.replaceState(window.history.state, '', LOGIN_PATH);
  emit();
}

/** A full-page navigation out of the app (the sign-on provider); a seam for tests (jsdom cannot). */
export function navigateAway(url: string) {
  window.location.assign(url);
}

/** Signed in while on /login: leave it for the remembered origin. */
export function leaveLogin() {
  window.history.replaceState(null, '', returnPath());
  emit();
}
