import { RemoteModule, type RemoteLoader } from '@qc/ui';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import type { HostPageId } from './route-table';

/**
 * The host's own pages, each a chunk loaded on first visit. A chunk that cannot be fetched (the
 * server went away) gets the same boundary as a remote page: "could not be loaded" with a Retry
 * that works once the server is back, not the router's dead-end error page.
 */
const LOADERS: Record<HostPageId, RemoteLoader> = {
  profile: () => import(/* webpackChunkName: "profile" */ '../features/profile/Page'),
  confirm_email: () => import(/* webpackChunkName: "profile" */ '../features/profile/ConfirmEmailPage'),
  settings: () => import(/* webpackChunkName: "settings" */ '../features/settings/Page'),
  feedback: () => import(/* webpackChunkName: "feedback-admin" */ '../features/feedback/Page'),
};

export function HostPage({ page }: { page: HostPageId }) {
  const { t } = useTranslation('host');
  const { key: visit } = useLocation();
  const name = t(`nav.${page === 'confirm_email' ? 'profile' : page}`);
  return <RemoteModule id={`host/${page}`} name={name} load={LOADERS[page]} location={visit} />;
}
