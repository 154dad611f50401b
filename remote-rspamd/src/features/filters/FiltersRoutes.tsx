import { PageLoading, retryableLazy } from '@qc/ui';
import { Suspense, type ReactNode } from 'react';
import { Route, Routes, useParams } from 'react-router-dom';
import { RspamdNotFound } from '../rules/RspamdNotFound';
import { isFilterType } from '../rules/rules.types';
import { FiltersPage } from './Page';

const NewFilterPage = retryableLazy(() => import('./FilterFormPage').then((m) => ({ default: m.NewFilterPage })));
const EditFilterPage = retryableLazy(() => import('./FilterFormPage').then((m) => ({ default: m.EditFilterPage })));

const lazyPage = (page: ReactNode) => <Suspense fallback={<PageLoading />}>{page}</Suspense>;

/** `/rspamd` (the first family) and `/rspamd/{family}`: one route, so a change of tab keeps the page (and focus). */
function FamilyRoute() {
  const { type = 'domains' } = useParams();
  return isFilterType(type) ? <FiltersPage type={type} /> : <RspamdNotFound />;
}

/**
 * The `Filters` page group (admin), mounted by the host at `rspamd/*` (the control-panel filters
 * and system rules have routes of their own): the families' lists, `{family}/create`,
 * `{family}/edit/{id}`.
 */
export function FiltersRoutes() {
  return (
    <Routes>
      <Route path=":type?" element={<FamilyRoute />} />
      <Route path=":type/create" element={lazyPage(<NewFilterPage />)} />
      <Route path=":type/edit/:id" element={lazyPage(<EditFilterPage />)} />
      <Route path="*" element={<RspamdNotFound />} />
    </Routes>
  );
}
