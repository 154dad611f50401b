import { PageLoading, retryableLazy } from '@qc/ui';
import { Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { RspamdNotFound } from '../rules/RspamdNotFound';
import { ApanelPage } from './Page';

const NewApanelPage = retryableLazy(() => import('./ApanelFormPage').then((m) => ({ default: m.NewApanelPage })));
const EditApanelPage = retryableLazy(() => import('./ApanelFormPage').then((m) => ({ default: m.EditApanelPage })));

const lazyPage = (page: ReactNode) => <Suspense fallback={<PageLoading />}>{page}</Suspense>;

/** The `ApanelFilters` page group (admin), mounted by the host at `rspamd/apanel-filters/*`. */
export function ApanelRoutes() {
  return (
    <Routes>
      <Route index element={<ApanelPage />} />
      <Route path="create" element={lazyPage(<NewApanelPage />)} />
      <Route path="edit/:id" element={lazyPage(<EditApanelPage />)} />
      <Route path="*" element={<RspamdNotFound />} />
    </Routes>
  );
}
