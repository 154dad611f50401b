import { useCallback, useSyncExternalStore } from 'react';

/** antd's `xs` (below `sm`, 576 px): a phone held upright. */
export const PHONE_QUERY = '(max-width: 575px)';
/** Below antd's `lg` (992 px): a phone or a small tablet, where the drawer starts collapsed. */
export const NARROW_QUERY = '(max-width: 991px)';

export function matchesMedia(query: string): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function' && window.matchMedia(query).matches;
}

/**
 * Whether `query` matches, read while rendering. antd's Grid.useBreakpoint answers nothing on the
 * first render, so a phone first drew the desktop layout (the top bar 80 px past the screen's edge
 * for a few frames).
 */
export function useMediaQuery(query: string): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    [query],
  );
  return useSyncExternalStore(
    subscribe,
    () => matchesMedia(query),
    () => false,
  );
}

/**
 * True below antd's `sm` breakpoint (576 px, a phone held upright). There, a wide table shows each
 * row as one stacked cell rather than scrolling sideways.
 */
export function usePhoneLayout(): boolean {
  return useMediaQuery(PHONE_QUERY);
}
