import { useEffect, useEffectEvent, useRef, useState, type RefObject } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/**
 * Another page chosen by the user (a link, Back): the focus goes to its content, where a screen
 * reader reads on and Tab goes on from the page's start, instead of staying on a link that is gone
 * or on nothing. Redirects (replace: `/` → `/dashboard`, a role guard) leave it alone.
 */
export function useFocusOnNavigation(content: RefObject<HTMLElement | null>): void {
  const { pathname } = useLocation();
  const type = useNavigationType();
  const focusUnlessRedirected = useEffectEvent(() => {
    if (type !== 'REPLACE') content.current?.focus({ preventScroll: true });
  });
  const firstPath = useRef(pathname);
  useEffect(() => {
    if (pathname === firstPath.current) return;
    firstPath.current = '';
    focusUnlessRedirected();
  }, [pathname]);
}

/**
 * Below the lg breakpoint the expanded drawer lies over the page, like a dialog: the focus goes
 * into it, the page behind is inert, and it closes on a chosen page, its backdrop or Escape (these
 * two give the focus back to the toggle).
 */
export function useOverlayDrawer(narrow: boolean, collapsed: boolean, setCollapsed: (c: boolean) => void) {
  const overlay = narrow && !collapsed;
  const nav = useRef<HTMLElement>(null);
  const toggle = useRef<HTMLButtonElement>(null);
  const { pathname } = useLocation();
  const [shownPath, setShownPath] = useState(pathname);
  if (shownPath !== pathname) {
    setShownPath(pathname);
    if (narrow) setCollapsed(true);
  }
  // Closed by Escape or the backdrop: the focus goes back to the toggle once the page behind is
  // no longer inert (focus() on an inert element does nothing).
  const refocusToggle = useRef(false);
  const close = () => {
    refocusToggle.current = true;
    setCollapsed(true);
  };
  const closeOnEscape = useEffectEvent(close);
  useEffect(() => {
    if (!overlay) {
      if (refocusToggle.current) toggle.current?.focus();
      refocusToggle.current = false;
      return;
    }
    // antd's menu (role=menu, tabindex 0) takes it, then its arrow keys move between the entries.
    nav.current?.querySelector<HTMLElement>('[tabindex="0"], a')?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') closeOnEscape();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [overlay]);
  return { overlay, nav, toggle, close };
}
