import { loadRemote } from '@module-federation/enhanced/runtime';
import Result from 'antd/es/result';
import { PageLoading, RemoteModule, type RemoteLoader } from '@qc/ui';
import { useEffect, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router-dom';
import { loadRemotes, useRemotes } from '../app/remotes';
import { PlaceholderPage } from './pages/PlaceholderPage';
import { remoteId, type RouteEntry } from './route-table';

const loaders = new Map<string, RemoteLoader>();

/** One stable loader per MF id: waits for /remotes.json, then loadRemote() on first visit only. */
function loaderFor(id: string): RemoteLoader {
  let loader = loaders.get(id);
  if (!loader) {
    loader = async () => {
      const { remotes } = await loadRemotes();
      const container = id.split('/')[0]!;
      if (!(container in remotes)) throw new Error(`${container} is not listed in /remotes.json`);
      return loadRemote<{ default: ComponentType }>(id);
    };
    loaders.set(id, loader);
  }
  return loader;
}

/** The page of a route-table entry: its remote module behind the boundary, or a placeholder. */
export function RemotePage({ entry }: { entry: RouteEntry }) {
  const { t } = useTranslation('host');
  const status = useRemotes((s) => s.status);
  const listed = useRemotes((s) => (entry.remote ? entry.remote.container in s.remotes : false));
  const id = remoteId(entry);
  const name = t(`nav.${entry.id}`);
  const { key: visit } = useLocation();
  const container = entry.remote?.container;
  const unlisted = status === 'ready' && entry.ready && !!container && !listed;
  // The user reads a plain sentence; the technical detail goes to the console.
  useEffect(() => {
    if (unlisted) console.warn(`[remotes] the remote "${container}" is not listed in /remotes.json.`);
  }, [unlisted, container]);

  if (!entry.ready || !id || !entry.remote) return <PlaceholderPage title={name} />;
  if (status === 'loading') return <PageLoading />;
  if (!listed) {
    return (
      <Result
        status="warning"
        title={t('common:remote.load_failed_title')}
        subTitle={t('layout.remote_not_listed')}
        data-testid="remote-not-listed"
      />
    );
  }
  return <RemoteModule key={id} id={id} name={name} load={loaderFor(id)} location={visit} />;
}
