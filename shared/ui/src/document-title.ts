import { useEffect } from 'react';

export const APP_NAME = 'Quarantine Console';

/** The browser tab's title: the page first (what tells several tabs apart), then the console. */
export function documentTitle(page: string | null | undefined): string {
  return page ? `${page} · ${APP_NAME}` : APP_NAME;
}

/**
 * For a page that knows better than its route (an e-mail's subject, "not found"). The shell sets
 * the route's title in a layout effect, which runs before this one; this one runs after every
 * render, so it wins again when the shell re-sets it (a language switch re-renders both).
 */
export function useDocumentTitle(page: string | null | undefined): void {
  useEffect(() => {
    if (page) document.title = documentTitle(page);
  });
}
