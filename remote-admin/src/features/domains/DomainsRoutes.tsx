import { PageLoading, retryableLazy } from '@qc/ui';
import { Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { DomainsPage } from './Page';

const NewDomainPage = retryableLazy(() => import('../new-domain/Page'));
const DomainPage = retryableLazy(() => import('../domain/Page'));
const DomainNotFound = retryableLazy(() => import('../domain/Page').then((m) => ({ default: m.DomainNotFound })));

const lazyPage = (page: ReactNode) => <Suspense fallback={<PageLoading />}>{page}</Suspense>;

/** The `Domains` page group (admin), mounted by the host at `domains/*`: list, `new`, `{id}`. */
export function DomainsRoutes() {
  return (
    <Routes>
      <Route index element={<DomainsPage />} />
      <Route path="new" element={lazyPage(<NewDomainPage />)} />
      <Route path=":id" element={lazyPage(<DomainPage />)} />
      <Route path="*" element={lazyPage(<DomainNotFound />)} />
    </Routes>
  );
}
