import { PageLoading, retryableLazy } from '@qc/ui';
import { Suspense, type ReactNode } from 'react';
import { Route, Routes } from 'react-router-dom';
import { RspamdNotFound } from '../rules/RspamdNotFound';
import { SystemRulesPage } from './Page';

const NewSystemRulePage = retryableLazy(() =>
  import('./SystemRuleFormPage').then((m) => ({ default: m.NewSystemRulePage })),
);
const EditSystemRulePage = retryableLazy(() =>
  import('./SystemRuleFormPage').then((m) => ({ default: m.EditSystemRulePage })),
);

const lazyPage = (page: ReactNode) => <Suspense fallback={<PageLoading />}>{page}</Suspense>;

/** The `SystemRules` page group (admin), mounted by the host at `rspamd/system-rules/*`. */
export function SystemRulesRoutes() {
  return (
    <Routes>
      <Route index element={<SystemRulesPage />} />
      <Route path="create" element={lazyPage(<NewSystemRulePage />)} />
      <Route path="edit/:id" element={lazyPage(<EditSystemRulePage />)} />
      <Route path="*" element={<RspamdNotFound />} />
    </Routes>
  );
}
