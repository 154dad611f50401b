import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { HostPageId } from './route-table';

/**
 * The host's own pages, each a lazy chunk loaded on first visit (the layout's Suspense shows the
 * spinner meanwhile; a chunk that fails to load ends in the route's error page).
 */
const PAGES: Record<HostPageId, LazyExoticComponent<ComponentType>> = {
  profile: lazy(() => import(/* webpackChunkName: "profile" */ '../features/profile/Page')),
  confirm_email: lazy(() => import(/* webpackChunkName: "profile" */ '../features/profile/ConfirmEmailPage')),
  settings: lazy(() => import(/* webpackChunkName: "settings" */ '../features/settings/Page')),
  feedback: lazy(() => import(/* webpackChunkName: "feedback-admin" */ '../features/feedback/Page')),
};

export function HostPage({ page }: { page: HostPageId }) {
  const Page = PAGES[page];
  return <Page />;
}
